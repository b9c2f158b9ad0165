import type { LocationsSelector } from '../types.js';

// The command line, read into one value or a usage error (exit 2). Options may come before or after
// the command's operand, as `--name value` or `--name=value`. ping takes ping's own short options too
// (`-c`, `-i`, `-W`, `-s`, `-w`), with ping's units: seconds for -i, -W and -w.
export interface Common {
  server: string;
  key?: string;
  json: boolean;
  wait: boolean; // false: --no-wait, a 429 or 503 is reported at once
  watch: boolean; // --watch: each result printed as it arrives, from the streamed form
  deadlineMs?: number; // -w/--deadline: the whole answer within this, or exit 4; derived from the request when absent
  from?: LocationsSelector; // --from: where to measure (names, all, or N); absent: the server itself
  quorum?: number; // --quorum: how many locations must reach the target (ping, trace); every one asked unless set
}

type Family = { ipVersion?: 4 | 6 };

export type Command =
  | { command: 'help'; topic?: string }
  | { command: 'version' }
  | ({ command: 'locations' } & Omit<Common, 'watch' | 'from' | 'quorum'>)
  | ({ command: 'ping'; host: string; count?: number; intervalMs?: number; timeoutMs?: number; size?: number } & Family & Common)
  | ({ command: 'dns'; domain: string; types: string[]; expect: string[]; consistent: boolean; resolvers: string[]; dnssec?: boolean; timeoutMs?: number } & Common)
  | ({ command: 'trace'; host: string; maxHops?: number; probesPerHop?: number; timeoutMs?: number; resolveNames?: boolean; asn?: boolean } & Family & Common)
  | ({ command: 'mtr'; host: string; cycles?: number; intervalMs?: number; maxHops?: number; timeoutMs?: number; resolveNames?: boolean; asn?: boolean } & Family & Common)

  | ({ command: 'tcp'; host: string; port: number; count?: number; intervalMs?: number; timeoutMs?: number } & Family & Common)
  | ({ command: 'tls'; host: string; port?: number; serverName?: string; timeoutMs?: number; certDays?: number } & Family & Common)
  | ({ command: 'http'; url: string; method?: 'HEAD'; followRedirects?: number; timeoutMs?: number; expectStatus?: number[] } & Family & Common);

export type Parsed = { ok: true; value: Command } | { ok: false; message: string; command?: string };

const VALUED = new Set(['--expect-status', '--follow', '--servername', '--cert-days', '--server', '--key', '--deadline', '-w', '--count', '-c', '--interval', '-i', '--timeout', '-W', '--size', '-s', '--type', '--expect', '--resolver', '--max-hops', '--probes', '--ip-version', '--cycles', '--from', '--quorum']);
const FLAGS = new Set(['--head', '--json', '--no-wait', '--watch', '--consistent', '--dnssec', '--names', '--asn', '--help', '-h', '--version', '-4', '-6']);
// Flags that belong to some commands only.
const OWN_FLAGS = ['--head', '--consistent', '--dnssec', '--names', '--asn', '-4', '-6'];
const COMMON_VALUED = ['--server', '--key', '--deadline', '-w'];
const LOCATED = ['--from', '--quorum'];
const OPERAND: Record<string, string> = { ping: 'HOST', dns: 'DOMAIN', trace: 'HOST', mtr: 'HOST', tcp: 'HOST and a PORT', tls: 'HOST', http: 'URL' };
const FAMILY = ['--ip-version', '-4', '-6'];
// What `nettools dns DOMAIN TYPE ...` takes after the domain; anything else there is a usage error.
const RECORD_TYPES = new Set(['A', 'AAAA', 'MX', 'TXT', 'CNAME', 'NS', 'SOA', 'CAA', 'SRV', 'PTR', 'HTTPS', 'SVCB', 'DS', 'DNSKEY', 'TLSA', 'NAPTR']);
const OWN: Record<string, string[]> = {
  ping: ['--count', '-c', '--interval', '-i', '--timeout', '-W', '--size', '-s', ...FAMILY, ...LOCATED],
  dns: ['--type', '--expect', '--resolver', '--consistent', '--dnssec', '--timeout', '--from'],
  trace: ['--max-hops', '--probes', '--timeout', '--names', '--asn', ...FAMILY, ...LOCATED],
  mtr: ['--cycles', '-c', '--interval', '-i', '--max-hops', '--timeout', '--names', '--asn', ...FAMILY, ...LOCATED],
  tcp: ['--count', '-c', '--interval', '-i', '--timeout', '-W', ...FAMILY, ...LOCATED],
  tls: ['--servername', '--timeout', '--cert-days', ...FAMILY, ...LOCATED],
  http: ['--expect-status', '--follow', '--head', '--timeout', ...FAMILY, ...LOCATED],
  locations: [],
};

interface Scan {
  operands: string[];
  values: Map<string, string[]>;
  flags: Set<string>;
}

function scan(argv: readonly string[]): Scan | string {
  const out: Scan = { operands: [], values: new Map(), flags: new Set() };
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i]!;
    // `--` ends the options, as getopt has it: what follows is operands, a domain like `-x.test` too.
    if (arg === '--') return out.operands.push(...argv.slice(i + 1)), out;
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

// Options that belong to one command only are refused with another.
function foreign(s: Scan, allowed: readonly string[]): string | null {
  const own = new Set([...COMMON_VALUED, ...allowed]);
  const stray = [...s.values.keys()].find((name) => !own.has(name)) ?? [...s.flags].find((f) => OWN_FLAGS.includes(f) && !allowed.includes(f));
  return stray ?? null;
}

export function parseArgs(argv: readonly string[], env: Readonly<Record<string, string | undefined>>): Parsed {
  const s = scan(argv);
  if (typeof s === 'string') return { ok: false, message: s };
  const [command, operand, ...more] = s.operands;
  // tcp takes a second operand, its PORT; dns takes record types after its DOMAIN, as dig does.
  const types = command === 'dns' ? more.filter((t) => RECORD_TYPES.has(t.toUpperCase())) : [];
  const [second, ...extra] = command === 'tcp' || command === 'tls' ? more : [undefined, ...more.filter((t) => !types.includes(t))];
  if (types.length > 0) s.values.set('--type', [...(s.values.get('--type') ?? []), ...types]);
  const known = command !== undefined && Object.hasOwn(OWN, command);
  if (s.flags.has('--help') || s.flags.has('-h')) return { ok: true, value: { command: 'help', ...(known ? { topic: command } : {}) } };
  if (s.flags.has('--version')) return { ok: true, value: { command: 'version' } };
  if (command === undefined) return { ok: false, message: 'no command given' };
  if (!known) return { ok: false, message: `unknown command ${command}` };
  const fail = (message: string): Parsed => ({ ok: false, message, command });
  if (command === 'locations') return locationsCommand(s, operand, env, fail);
  if (operand === undefined || (command === 'tcp' && second === undefined)) return fail(`${command} needs a ${OPERAND[command]}`);
  if (extra.length > 0) return fail(`unexpected argument ${extra[0]}`);
  const stray = foreign(s, OWN[command]!);
  if (stray !== null) return fail(`${stray} does not go with ${command}`);
  const c = located(s, common(s, env));
  const parsed = typeof c === 'string' ? c : command === 'tcp' ? tcpCommand(s, operand, second as string, c) : command === 'tls' ? tlsCommand(s, operand, second, c) : COMMANDS[command as keyof typeof COMMANDS](s, operand, c);
  return typeof parsed === 'string' ? fail(parsed) : { ok: true, value: parsed };
}

function common(s: Scan, env: Readonly<Record<string, string | undefined>>): Common | string {
  const key = last(s, '--key') ?? env['NETTOOLS_API_KEY'];
  const deadline = milliseconds(s, '--deadline', '-w');
  if (typeof deadline === 'string') return deadline;
  if (deadline === 0) return '--deadline must be more than 0 seconds';
  const base = { server: last(s, '--server') ?? env['NETTOOLS_URL'] ?? 'http://127.0.0.1:8080', ...(key ? { key } : {}), json: s.flags.has('--json'), wait: !s.flags.has('--no-wait'), watch: s.flags.has('--watch') };
  return deadline === undefined ? base : { ...base, deadlineMs: deadline };
}

// A whole number of the option, or why it is not one.
function whole(s: Scan, name: string): number | undefined | string {
  const value = last(s, name);
  if (value === undefined) return undefined;
  return /^\d+$/.test(value) ? Number(value) : `${name} must be a whole number, not ${value}`;
}

// Milliseconds from `--long MS` or, as ping takes them, `-x SECONDS` (decimals allowed); one of the two.
// With no `--long` in ms (as --deadline), the long form is in seconds too.
function milliseconds(s: Scan, long: string, short: string, longInMs = false): number | undefined | string {
  if (s.values.has(long) && s.values.has(short)) return `choose one of ${short} and ${long}`;
  if (longInMs && s.values.has(long)) return whole(s, long);
  const name = s.values.has(long) ? long : short;
  const value = last(s, name);
  if (value === undefined) return undefined;
  return /^\d+(\.\d+)?$/.test(value) ? Math.round(Number(value) * 1000) : `${name} must be a number of seconds, not ${value}`;
}

// The fields given, without the ones left out (the server's defaults stand for them), or the first fault.
function fields(given: Record<string, number | string | boolean | undefined>): Record<string, number | boolean> | string {
  const fault = Object.values(given).find((v) => typeof v === 'string');
  if (typeof fault === 'string') return fault;
  return Object.fromEntries(Object.entries(given).filter(([, v]) => v !== undefined)) as Record<string, number | boolean>;
}

// Bounds are the server's to say (they differ for --watch): only the form is checked here.
function pingCommand(s: Scan, host: string, c: Common): Command | string {
  const count = s.values.has('--count') && s.values.has('-c') ? 'choose one of -c and --count' : whole(s, s.values.has('-c') ? '-c' : '--count');
  const size = s.values.has('--size') && s.values.has('-s') ? 'choose one of -s and --size' : whole(s, s.values.has('-s') ? '-s' : '--size');
  const given = fields({ count, intervalMs: milliseconds(s, '--interval', '-i', true), timeoutMs: milliseconds(s, '--timeout', '-W', true), size, ipVersion: ipVersion(s) });
  return typeof given === 'string' ? given : { command: 'ping', host, ...given, ...c };
}

function dnsCommand(s: Scan, domain: string, c: Common): Command | string {
  const given = fields({ timeoutMs: whole(s, '--timeout') });
  if (typeof given === 'string') return given;
  const dnssec = s.flags.has('--dnssec') ? { dnssec: true } : {};
  return { command: 'dns', domain, types: list(s, '--type').map((t) => t.toUpperCase()), expect: s.values.get('--expect') ?? [], consistent: s.flags.has('--consistent'), resolvers: list(s, '--resolver'), ...dnssec, ...given, ...c };
}

// -4, -6 and --ip-version 4|6 say the same; saying two different ones is a usage error.
function ipVersion(s: Scan): 4 | 6 | undefined | string {
  const said = [...(s.flags.has('-4') ? ['4'] : []), ...(s.flags.has('-6') ? ['6'] : []), ...(s.values.get('--ip-version') ?? [])];
  const bad = said.find((v) => v !== '4' && v !== '6');
  if (bad !== undefined) return `--ip-version must be 4 or 6, not ${bad}`;
  if (new Set(said).size > 1) return 'choose one address family: -4 or -6';
  return said[0] === undefined ? undefined : (Number(said[0]) as 4 | 6);
}

function traceCommand(s: Scan, host: string, c: Common): Command | string {
  const given = fields({ maxHops: whole(s, '--max-hops'), probesPerHop: whole(s, '--probes'), timeoutMs: whole(s, '--timeout'), ipVersion: ipVersion(s), ...lookups(s) });
  return typeof given === 'string' ? given : { command: 'trace', host, ...given, ...c };
}

// What the server is asked about each hop address besides its figures: its name, its origin AS.
const lookups = (s: Scan) => ({ resolveNames: s.flags.has('--names') || undefined, asn: s.flags.has('--asn') || undefined });

// mtr's own -c and -i, as ping's: cycles, and seconds between cycles (--interval in milliseconds).
function mtrCommand(s: Scan, host: string, c: Common): Command | string {
  const cycles = s.values.has('--cycles') && s.values.has('-c') ? 'choose one of -c and --cycles' : whole(s, s.values.has('-c') ? '-c' : '--cycles');
  const given = fields({ cycles, intervalMs: milliseconds(s, '--interval', '-i', true), maxHops: whole(s, '--max-hops'), timeoutMs: whole(s, '--timeout'), ipVersion: ipVersion(s), ...lookups(s) });
  return typeof given === 'string' ? given : { command: 'mtr', host, ...given, ...c };
}

const COMMANDS = { ping: pingCommand, dns: dnsCommand, trace: traceCommand, mtr: mtrCommand, http: httpCommand };

// The URL as given (the server judges it); --expect-status a comma list of statuses, as curl's users write them.
function httpCommand(s: Scan, url: string, c: Common): Command | string {
  const statuses = last(s, '--expect-status');
  if (statuses !== undefined && !/^\d{3}(,\d{3})*$/.test(statuses)) return `--expect-status must be statuses separated by commas, such as 200,301, not ${statuses}`;
  const given = fields({ followRedirects: whole(s, '--follow'), timeoutMs: whole(s, '--timeout'), ipVersion: ipVersion(s) });
  if (typeof given === 'string') return given;
  const method = s.flags.has('--head') ? { method: 'HEAD' as const } : {};
  return { command: 'http', url, ...method, ...(statuses === undefined ? {} : { expectStatus: statuses.split(',').map(Number) }), ...given, ...c };
}

// Seconds or milliseconds as ping takes them; the PORT a whole number (its bounds are the server's).
function tcpCommand(s: Scan, host: string, portText: string, c: Common): Command | string {
  if (!/^\d{1,5}$/.test(portText)) return `PORT must be a whole number, not ${portText}`;
  const count = s.values.has('--count') && s.values.has('-c') ? 'choose one of -c and --count' : whole(s, s.values.has('-c') ? '-c' : '--count');
  const given = fields({ count, intervalMs: milliseconds(s, '--interval', '-i', true), timeoutMs: milliseconds(s, '--timeout', '-W', true), ipVersion: ipVersion(s) });
  return typeof given === 'string' ? given : { command: 'tcp', host, port: Number(portText), ...given, ...c };
}

// The PORT optional (the server's default is 443); the rest as the API names it.
function tlsCommand(s: Scan, host: string, portText: string | undefined, c: Common): Command | string {
  if (portText !== undefined && !/^\d{1,5}$/.test(portText)) return `PORT must be a whole number, not ${portText}`;
  const serverName = last(s, '--servername');
  const given = fields({ timeoutMs: whole(s, '--timeout'), certDays: whole(s, '--cert-days'), ipVersion: ipVersion(s) });
  if (typeof given === 'string') return given;
  return { command: 'tls', host, ...(portText === undefined ? {} : { port: Number(portText) }), ...(serverName === undefined ? {} : { serverName }), ...given, ...c };
}

// `nettools locations`: no operand, none of a measurement's own options.
function locationsCommand(s: Scan, operand: string | undefined, env: Readonly<Record<string, string | undefined>>, fail: (message: string) => Parsed): Parsed {
  if (operand !== undefined) return fail(`unexpected argument ${operand}`);
  const stray = foreign(s, []) ?? (s.flags.has('--watch') ? '--watch' : null);
  if (stray !== null) return fail(`${stray} does not go with locations`);
  const c = common(s, env);
  if (typeof c === 'string') return fail(c);
  const { watch: _, ...rest } = c;
  return { ok: true, value: { command: 'locations', ...rest } };
}

// --from fra1,nyc1 | all | N, and --quorum N with it.
function located(s: Scan, c: Common | string): Common | string {
  if (typeof c === 'string') return c;
  const from = last(s, '--from');
  const quorum = whole(s, '--quorum');
  if (typeof quorum === 'string') return quorum;
  if (from === undefined) return quorum === undefined ? c : '--quorum needs --from';
  if (quorum === 0) return '--quorum must be at least 1';
  const selector = fromSelector(from);
  if (typeof selector === 'string' && selector !== 'all') return selector;
  return { ...c, from: selector, ...(quorum === undefined ? {} : { quorum }) };
}

// The location names are the server's to check; only the form is checked here.
function fromSelector(from: string): LocationsSelector | string {
  if (from === 'all') return 'all';
  if (/^\d+$/.test(from)) return Number(from) >= 1 ? Number(from) : '--from must name at least 1 location';
  const names = from.split(',').map((n) => n.trim()).filter((n) => n !== '');
  return names.length > 0 ? names : '--from needs location names, all, or a number';
}
