import { loadConfig } from '../config/config';
import { ConfigError } from '../config/errors';
import { generateKey } from '../keys/api-key';
import { updateKeyFile, readKeyFile } from '../keys/key-file';
import { labelFault, type KeyRecord } from '../keys/key-record';
import { fail, ok, type Result } from '../util/result';
import { createAgentKey, listAgentKeys, revokeAgentKey } from './agent-keys';

// `node dist/src/main.js keys create|list|revoke ...`: issue, show and take back API keys. Every
// refusal is one line on stderr and exit code 2, with the keys file unchanged.

export interface CommandOutput {
  code: number;
  stdout: string;
  stderr: string;
}

const USAGE = 'usage: keys create --plan NAME [--label TEXT] [--expires YYYY-MM-DD] | keys create --agent LOCATION | keys list | keys revoke ID';
// `keys --help`: the command's own usage, not the server's settings (those are `--help` without `keys`).
const HELP = `${USAGE}

  keys create --plan NAME   print a new API key once; the keys file keeps only its hash
      --label TEXT          a note shown by list
      --expires YYYY-MM-DD  the key is refused from that day on
  keys create --agent LOC   print a new agent key once, for the agent at location LOC
  keys list                 id, plan, label, created, expires and revoked of every key, then id,
                            location, created and revoked of every agent key; never a key
  keys revoke ID            refuse the key (API or agent) from now on; its record stays

The keys file is NETTOOLS_API_KEYS_FILE (or --api-keys-file PATH); plans are NETTOOLS_PLANS (or --plans).
Agent keys are in NETTOOLS_AGENT_KEYS_FILE (or --agent-keys-file PATH).
A running server reads both files again on SIGHUP, and closes the connection of an agent whose key is revoked.
`;
const DATE = /^(\d{4})-(\d{2})-(\d{2})$/;

type Options = { plan?: string; label?: string; expires?: string; agent?: string; rest: string[]; positional: string[] };
type Files = { api: string | null; agent: string | null };

// The command's own options; every other flag is a setting (--api-keys-file, --plans, ...).
function splitOptions(args: readonly string[]): Options | string {
  const out: Options = { rest: [], positional: [] };
  for (let i = 0; i < args.length; i++) {
    const arg = args[i] as string;
    const name = (['--plan', '--label', '--expires', '--agent'] as const).find((o) => arg === o || arg.startsWith(`${o}=`));
    if (name === undefined) {
      if (arg.startsWith('--')) out.rest.push(arg, ...(arg.includes('=') || i + 1 >= args.length ? [] : [args[++i] as string]));
      else out.positional.push(arg);
      continue;
    }
    const value = arg === name ? args[++i] : arg.slice(name.length + 1);
    if (value === undefined) return `${name} needs a value`;
    out[name.slice(2) as 'plan' | 'label' | 'expires' | 'agent'] = value;
  }
  return out;
}

// YYYY-MM-DD, a real date after today: the key stops working at its first instant (UTC).
function expiryOf(text: string, now: Date): Result<string, 'bad-date'> {
  const m = DATE.exec(text);
  const instant = m ? new Date(`${text}T00:00:00.000Z`) : null;
  if (!m || !instant || Number.isNaN(instant.getTime()) || instant.toISOString().slice(0, 10) !== text) return fail('bad-date', `--expires "${text}" is not a date YYYY-MM-DD`);
  if (instant.getTime() <= now.getTime()) return fail('bad-date', `--expires ${text} is not in the future`);
  return ok(instant.toISOString());
}

function create(file: string, plans: ReadonlySet<string>, o: Options, now: Date): CommandOutput {
  if (o.plan === undefined) return refused('keys create needs --plan NAME');
  if (!plans.has(o.plan)) return refused(`plan "${o.plan}" is not configured (NETTOOLS_PLANS: ${[...plans].join(', ') || 'none'})`);
  const label = o.label ?? '';
  const badLabel = labelFault(label);
  if (badLabel !== null) return refused(`--${badLabel}`);
  const expires = o.expires === undefined ? ok(null) : expiryOf(o.expires, now);
  if (!expires.ok) return refused(expires.message);
  let key = '';
  const written = updateKeyFile(file, (records) => {
    let made = generateKey();
    while (records.some((r) => r.id === made.id)) made = generateKey(); // 48-bit ids: a clash is rare, never kept
    key = made.key;
    const record: KeyRecord = { id: made.id, sha256: made.sha256, plan: o.plan as string, label, created: now.toISOString(), expires: expires.value, revoked: null };
    return ok([...records, record]);
  });
  return written.ok ? { code: 0, stdout: `${key}\n`, stderr: '' } : refused(written.message);
}

function createForAgent(files: Files, o: Options, now: Date): CommandOutput {
  if (files.agent === null) return refused('NETTOOLS_AGENT_KEYS_FILE (or --agent-keys-file) names no agent keys file');
  if (o.plan !== undefined || o.label !== undefined || o.expires !== undefined) return refused('--agent takes no --plan, --label or --expires');
  const made = createAgentKey(files.agent, o.agent as string, now);
  return made.ok ? { code: 0, stdout: `${made.value}\n`, stderr: '' } : refused(made.message);
}

// Each configured file's table, API keys first; the API table alone looks as it always did.
function list(files: Files): CommandOutput {
  const tables: string[] = [];
  if (files.api !== null) {
    const read = readKeyFile(files.api);
    if (!read.ok) return refused(read.message);
    const rows = read.value.map((r) => [r.id, r.plan, r.label || '-', r.created, r.expires ?? '-', r.revoked ?? '-'].join('\t'));
    tables.push(['id\tplan\tlabel\tcreated\texpires\trevoked', ...rows, ''].join('\n'));
  }
  if (files.agent !== null) {
    const agents = listAgentKeys(files.agent);
    if (!agents.ok) return refused(agents.message);
    tables.push(agents.value);
  }
  return { code: 0, stdout: tables.join('\n'), stderr: '' };
}

function revokeApiKey(file: string, id: string, now: Date): Result<unknown, string> {
  return updateKeyFile(file, (records) => {
    const found = records.find((r) => r.id === id);
    if (found === undefined) return fail('unknown-id', `no key with id "${id}"`);
    return ok(records.map((r) => (r.id === id && r.revoked === null ? { ...r, revoked: now.toISOString() } : r)));
  });
}

// An id names a key in either file: the API keys file is asked first, then the agent keys file.
function revoke(files: Files, id: string | undefined, now: Date): CommandOutput {
  if (id === undefined) return refused('keys revoke needs the key id');
  let written: Result<unknown, string> = fail('unknown-id', `no key with id "${id}"`);
  if (files.api !== null) written = revokeApiKey(files.api, id, now);
  if (!written.ok && written.code === 'unknown-id' && files.agent !== null) written = revokeAgentKey(files.agent, id, now);
  return written.ok ? { code: 0, stdout: `revoked ${id}\n`, stderr: '' } : refused(written.message);
}

function refused(message: string): CommandOutput {
  return { code: 2, stdout: '', stderr: `nettools: ${message}\n` };
}

export function runKeysCommand(args: readonly string[], env: NodeJS.ProcessEnv, now = new Date()): CommandOutput {
  if (args.includes('--help') || args.includes('-h')) return { code: 0, stdout: HELP, stderr: '' };
  const [verb, ...rest] = args;
  const options = splitOptions(rest);
  if (typeof options === 'string') return refused(options);
  let files: Files;
  let plans: ReadonlySet<string>;
  try {
    const config = loadConfig(env, options.rest);
    files = { api: config.apiKeysFile, agent: config.agentKeysFile };
    plans = new Set(config.plans.keys());
  } catch (err) {
    if (err instanceof ConfigError) return refused(err.message);
    throw err;
  }
  if (verb === 'create' && options.agent !== undefined && options.positional.length === 0) return createForAgent(files, options, now);
  const file = files.api;
  if (file === null && (verb === 'create' || files.agent === null)) return refused('NETTOOLS_API_KEYS_FILE (or --api-keys-file) names no keys file');
  if (verb === 'create' && file !== null && options.positional.length === 0) return create(file, plans, options, now);
  if (verb === 'list' && options.positional.length === 0) return list(files);
  if (verb === 'revoke' && options.positional.length <= 1) return revoke(files, options.positional[0], now);
  return refused(USAGE);
}
