// The command line, read into one value or a usage error (exit 2). Options may come before or after
// the command's operand, as `--name value` or `--name=value`.
export interface Common {
  server: string;
  key?: string;
  json: boolean;
  wait: boolean; // false: --no-wait, a 429 or 503 is reported at once
  watch: boolean; // --watch: each result printed as it arrives, from the streamed form
}

export type Command =
  | { command: 'help' }
  | { command: 'version' }
  | ({ command: 'ping'; host: string; count?: number; intervalMs?: number } & Common)
  | ({ command: 'dns'; domain: string; types: string[]; expect: string[]; consistent: boolean; resolvers: string[] } & Common)
  | ({ command: 'trace'; host: string; maxHops?: number; probesPerHop?: number; timeoutMs?: number; ipVersion?: 4 | 6 } & Common);

export type Parsed = { ok: true; value: Command } | { ok: false; message: string };

export const USAGE = `Usage:
  nettools ping HOST [--count N] [--interval MS] [--watch]
  nettools dns DOMAIN [--type A|AAAA|MX|TXT ...] [--expect TEXT ...] [--consistent] [--resolver ID ...] [--watch]
  nettools trace HOST [--max-hops N] [--probes N] [--timeout MS] [-4|-6] [--watch]

Options:
  --server URL   the nettools server (or NETTOOLS_URL; http://127.0.0.1:8080 unless set)
  --key KEY      API key, sent as a Bearer token (or NETTOOLS_API_KEY)
  --json         print the API's JSON answer instead of text (with --watch: its events, one JSON a line)
  --interval MS  ping: milliseconds between echoes (the server's bounds: up to 1000, or 60000 with --watch)
  --max-hops N   trace: highest TTL probed (the server's default: 30)
  --probes N     trace: probes per hop (the server's default: 2)
  --timeout MS   trace: how long to wait for each probe's answer (the server's default: 1000)
  -4, -6         trace: the address family to resolve HOST to (or --ip-version 4|6)
  --watch        print each result as it arrives; Ctrl-C stops: ping prints the statistics so far and
                 exits 0 only if every echo decided by then was answered; dns and trace exit 1
  --no-wait      on 429 or 503, do not wait as Retry-After says and resend; report at once
  -h, --help     this text
  --version      the client's version

Exit status: 0 success; 1 measured but failed (unreachable, packet loss, no record, resolvers
disagree, expectation not met, destination not reached); 2 usage; 3 refused by the server; 4 no answer
from the server.`;

const VALUED = new Set(['--server', '--key', '--count', '--interval', '--type', '--expect', '--resolver', '--max-hops', '--probes', '--timeout', '--ip-version']);
const FLAGS = new Set(['--json', '--no-wait', '--watch', '--consistent', '--help', '-h', '--version', '-4', '-6']);
// Flags that belong to one command only.
const OWN_FLAGS = ['--consistent', '-4', '-6'];
const OPERAND: Record<string, string> = { ping: 'HOST', dns: 'DOMAIN', trace: 'HOST' };
const OWN: Record<string, string[]> = { ping: ['--count', '--interval'], dns: ['--type', '--expect', '--resolver', '--consistent'], trace: ['--max-hops', '--probes', '--timeout', '--ip-version', '-4', '-6'] };

interface Scan {
  operands: string[];
  values: Map<string, string[]>;
  flags: Set<string>;
}

function scan(argv: readonly string[]): Scan | string {
  const out: Scan = { operands: [], values: new Map(), flags: new Set() };
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i]!;
    if (!arg.startsWith('-') || arg === '-') {
      out.operands.push(arg);
      continue;
    }
    const eq = arg.indexOf('=');
    const name = eq > 0 ? arg.slice(0, eq) : arg;
    if (FLAGS.has(name) && eq < 0) out.flags.add(name);
    else if (VALUED.has(name)) {
      const value = eq > 0 ? arg.slice(eq + 1) : argv[++i];
      if (value === undefined) return `${name} needs a value`;
      out.values.set(name, [...(out.values.get(name) ?? []), value]);
    } else return `unknown option ${arg}`;
  }
  return out;
}

const last = (s: Scan, name: string) => s.values.get(name)?.at(-1);
// `--type MX --type TXT` and `--type MX,TXT` alike.
const list = (s: Scan, name: string) => (s.values.get(name) ?? []).flatMap((v) => v.split(',')).map((v) => v.trim()).filter((v) => v !== '');

function common(s: Scan, env: Readonly<Record<string, string | undefined>>): Common {
  const key = last(s, '--key') ?? env['NETTOOLS_API_KEY'];
  return { server: last(s, '--server') ?? env['NETTOOLS_URL'] ?? 'http://127.0.0.1:8080', ...(key ? { key } : {}), json: s.flags.has('--json'), wait: !s.flags.has('--no-wait'), watch: s.flags.has('--watch') };
}

// Options that belong to one command only are refused with the other.
function foreign(s: Scan, allowed: readonly string[]): string | null {
  const own = new Set(['--server', '--key', ...allowed]);
  const stray = [...s.values.keys()].find((name) => !own.has(name)) ?? [...s.flags].find((f) => OWN_FLAGS.includes(f) && !allowed.includes(f));
  return stray ?? null;
}

export function parseArgs(argv: readonly string[], env: Readonly<Record<string, string | undefined>>): Parsed {
  const s = scan(argv);
  if (typeof s === 'string') return { ok: false, message: s };
  if (s.flags.has('--help') || s.flags.has('-h')) return { ok: true, value: { command: 'help' } };
  if (s.flags.has('--version')) return { ok: true, value: { command: 'version' } };
  const [command, operand, ...extra] = s.operands;
  if (command === undefined) return { ok: false, message: 'no command given' };
  const own = Object.hasOwn(OWN, command) ? OWN[command] : undefined;
  if (own === undefined) return { ok: false, message: `unknown command ${command}` };
  if (operand === undefined) return { ok: false, message: `${command} needs a ${OPERAND[command]}` };
  if (extra.length > 0) return { ok: false, message: `unexpected argument ${extra[0]}` };
  const stray = foreign(s, own);
  if (stray !== null) return { ok: false, message: `${stray} does not go with ${command}` };
  if (command === 'ping') return pingCommand(s, operand, common(s, env));
  if (command === 'trace') return traceCommand(s, operand, common(s, env));
  return { ok: true, value: { command: 'dns', domain: operand, types: list(s, '--type').map((t) => t.toUpperCase()), expect: s.values.get('--expect') ?? [], consistent: s.flags.has('--consistent'), resolvers: list(s, '--resolver'), ...common(s, env) } };
}

// Each named option's value as a whole number (absent when not given), or why one is not.
function wholeNumbers<N extends string>(s: Scan, names: readonly N[]): Partial<Record<N, number>> | string {
  const out: Partial<Record<N, number>> = {};
  for (const name of names) {
    const value = last(s, name);
    if (value === undefined) continue;
    if (!/^\d+$/.test(value)) return `${name} must be a whole number, not ${value}`;
    out[name] = Number(value);
  }
  return out;
}

// Bounds are the server's to say (they differ for --watch): only the form is checked here.
function pingCommand(s: Scan, host: string, c: Common): Parsed {
  const n = wholeNumbers(s, ['--count', '--interval']);
  if (typeof n === 'string') return { ok: false, message: n };
  const [count, interval] = [n['--count'], n['--interval']];
  return { ok: true, value: { command: 'ping', host, ...(count === undefined ? {} : { count }), ...(interval === undefined ? {} : { intervalMs: interval }), ...c } };
}

// -4, -6 and --ip-version 4|6 say the same; saying two different ones is a usage error.
function ipVersion(s: Scan): 4 | 6 | undefined | string {
  const said = [...(s.flags.has('-4') ? ['4'] : []), ...(s.flags.has('-6') ? ['6'] : []), ...(s.values.get('--ip-version') ?? [])];
  const bad = said.find((v) => v !== '4' && v !== '6');
  if (bad !== undefined) return `--ip-version must be 4 or 6, not ${bad}`;
  if (new Set(said).size > 1) return 'choose one address family: -4 or -6';
  return said[0] === undefined ? undefined : (Number(said[0]) as 4 | 6);
}

function traceCommand(s: Scan, host: string, c: Common): Parsed {
  const n = wholeNumbers(s, ['--max-hops', '--probes', '--timeout']);
  if (typeof n === 'string') return { ok: false, message: n };
  const family = ipVersion(s);
  if (typeof family === 'string') return { ok: false, message: family };
  const given = { maxHops: n['--max-hops'], probesPerHop: n['--probes'], timeoutMs: n['--timeout'], ipVersion: family };
  const set = Object.fromEntries(Object.entries(given).filter(([, v]) => v !== undefined));
  return { ok: true, value: { command: 'trace', host, ...set, ...c } };
}
