import { isIP } from 'node:net';
import { availableParallelism } from 'node:os';
import { parseCidrList } from '../net/ip';
import { parsePlans } from '../ratelimit/plans';
import { parseRateLimit } from '../ratelimit/rate-limit-config';
import type { Result } from '../util/result';
import { ConfigError } from './errors';
import { LOCATION_NAME, LOCATION_NAME_RULE, parseHubUrl, parseLocationLabels } from './location';
import { parseResolvers } from './resolvers';
import type { Config } from './types';

// Why a value is refused; a distinct type so string-valued settings cannot be mistaken for refusals.
export class SettingRefusal {
  constructor(readonly reason: string) {}
}

type Parser<T> = (text: string) => T | SettingRefusal;
const refuse = (reason: string) => new SettingRefusal(reason);

interface Setting<K extends keyof Config> {
  key: K;
  variable: string;
  fallback: string;
  parse: Parser<Config[K]>;
  help: string;
}

const integer =
  (min: number, max: number): Parser<number> =>
  (text) =>
    /^\d+$/.test(text) && Number(text) >= min && Number(text) <= max ? Number(text) : refuse(`expected an integer ${min}..${max}`);

const boolean: Parser<boolean> = (text) => {
  const t = text.toLowerCase();
  if (t === 'true' || t === '1' || t === 'yes') return true;
  if (t === 'false' || t === '0' || t === 'no') return false;
  return refuse('expected true or false');
};

// The shared parsers report errors as Result values; here they become refusals.
const fromResult =
  <T>(parse: (text: string) => Result<T, string>): Parser<T> =>
  (text) => {
    const r = parse(text);
    return r.ok ? r.value : refuse(r.message);
  };

const MAX_WORKERS = 256;

const redisUrl: Parser<string | null> = (text) => {
  if (text === '') return null;
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    return refuse('expected redis://host:port[/db]');
  }
  if (url.protocol !== 'redis:' || url.hostname === '' || !/^(\/\d{0,2})?$/.test(url.pathname)) return refuse('expected redis://host:port[/db]');
  return text;
};

const filePath: Parser<string | null> = (text) => (text === '' ? null : text.includes('\0') ? refuse('expected a file path') : text);

const listenHost: Parser<string> = (text) => (isIP(text) ? text : refuse('expected an IP address literal'));
const origin: Parser<string> = (text) => (/^[\x21-\x7e]+$/.test(text) ? text : refuse('expected * or an origin'));
const logLevel: Parser<Config['logLevel']> = (text) =>
  (['debug', 'info', 'warn', 'error', 'silent'] as const).find((l) => l === text) ?? refuse('expected debug, info, warn, error or silent');

// An ASN zone: a domain under which a hop's reversed address is asked. Room is left for the 64 characters
// of an IPv6 address's nibbles in front of it, within DNS's 253.
const ASN_ZONE_LABEL = /^(?!-)[a-z0-9_-]{1,63}(?<!-)$/;
const asnZone: Parser<string> = (text) => {
  const zone = text.toLowerCase().replace(/\.$/, '');
  if (zone.length > 180 || !zone.split('.').every((label) => ASN_ZONE_LABEL.test(label))) return refuse('expected a domain name of at most 180 characters, e.g. origin.asn.cymru.com');
  return zone;
};

// A comma list of ports (1..65535), each once; empty: none.
// Printed into a header: printable ASCII, no parentheses (it closes a User-Agent comment).
const httpContact: Parser<string> = (text) => (/^[\x21-\x27\x2a-\x7e]{0,200}$/.test(text) ? text : refuse('expected printable ASCII without spaces or parentheses, at most 200 characters'));

const portList: Parser<number[]> = (text) => {
  if (text === '') return [];
  const ports = text.split(',').map((p) => p.trim());
  if (!ports.every((p) => /^\d{1,5}$/.test(p) && Number(p) >= 1 && Number(p) <= 65535)) return refuse('expected a comma list of ports 1..65535');
  return [...new Set(ports.map(Number))].sort((a, b) => a - b);
};

const SETTINGS: { [K in keyof Config]: Setting<K> } = {
  port: { key: 'port', variable: 'PORT', fallback: '8080', parse: integer(0, 65535), help: 'listen port (0 picks a free one)' },
  host: { key: 'host', variable: 'HOST', fallback: '0.0.0.0', parse: listenHost, help: 'listen address' },
  resolvers: {
    key: 'resolvers',
    variable: 'NETTOOLS_RESOLVERS',
    fallback: 'google=8.8.8.8,cloudflare=1.1.1.1,quad9=9.9.9.9',
    parse: (text) => {
      const parsed = parseResolvers(text);
      return typeof parsed === 'string' ? refuse(parsed) : parsed;
    },
    help: 'id=address[:port] list; IPv6 as id=[addr]:port; DoT as id=tls://name@address[:port] (port 853 unless given)',
  },
  rateLimit: { key: 'rateLimit', variable: 'NETTOOLS_RATE_LIMIT', fallback: '30/60s', parse: fromResult(parseRateLimit), help: 'bucket size / refill window per client' },
  allowPrivateTargets: {
    key: 'allowPrivateTargets',
    variable: 'NETTOOLS_ALLOW_PRIVATE_TARGETS',
    fallback: 'false',
    parse: boolean,
    help: 'allow pings to loopback, private and other special ranges; multicast, broadcast and unspecified addresses stay refused',
  },
  asnZoneV4: {
    key: 'asnZoneV4',
    variable: 'NETTOOLS_ASN_ZONE_V4',
    fallback: 'origin.asn.cymru.com',
    parse: asnZone,
    help: "the zone asked for an IPv4 hop's origin AS (asn: true): TXT of the reversed octets under it",
  },
  asnZoneV6: {
    key: 'asnZoneV6',
    variable: 'NETTOOLS_ASN_ZONE_V6',
    fallback: 'origin6.asn.cymru.com',
    parse: asnZone,
    help: "the zone asked for an IPv6 hop's origin AS (asn: true): TXT of the reversed nibbles under it",
  },
  asnPrivateHops: {
    key: 'asnPrivateHops',
    variable: 'NETTOOLS_ASN_PRIVATE_HOPS',
    fallback: 'false',
    parse: boolean,
    help: 'also ask the ASN zones about private and other special-range hop addresses (a private zone that maps them); multicast, broadcast and unspecified never',
  },
  trustProxy: { key: 'trustProxy', variable: 'NETTOOLS_TRUST_PROXY', fallback: '', parse: fromResult(parseCidrList), help: 'CIDRs whose X-Forwarded-For is believed' },
  corsOrigin: { key: 'corsOrigin', variable: 'NETTOOLS_CORS_ORIGIN', fallback: '*', parse: origin, help: 'Access-Control-Allow-Origin of tool responses' },
  metrics: { key: 'metrics', variable: 'NETTOOLS_METRICS', fallback: 'true', parse: boolean, help: 'serve GET /metrics' },
  logLevel: { key: 'logLevel', variable: 'NETTOOLS_LOG_LEVEL', fallback: 'info', parse: logLevel, help: 'debug, info, warn, error or silent' },
  maxInFlightPerClient: {
    key: 'maxInFlightPerClient',
    variable: 'NETTOOLS_MAX_IN_FLIGHT_PER_CLIENT',
    fallback: '4',
    parse: integer(1, 10_000),
    help: 'tool requests one client may have in flight',
  },
  maxInFlight: { key: 'maxInFlight', variable: 'NETTOOLS_MAX_IN_FLIGHT', fallback: '1024', parse: integer(1, 1_000_000), help: 'tool requests in flight server-wide' },
  targetEchoesPerSecond: {
    key: 'targetEchoesPerSecond',
    variable: 'NETTOOLS_TARGET_ECHOES_PER_SECOND',
    fallback: '20',
    parse: integer(1, 100_000),
    help: 'echo requests per second the whole server sends to one address',
  },
  targetConnectionsPerMinute: {
    key: 'targetConnectionsPerMinute',
    variable: 'NETTOOLS_TARGET_CONNECTIONS_PER_MINUTE',
    fallback: '60',
    parse: integer(1, 100_000),
    help: 'TCP connections per minute the whole server opens to one address and port',
  },
  checkPorts: {
    key: 'checkPorts',
    variable: 'NETTOOLS_CHECK_PORTS',
    fallback: '',
    parse: portList,
    help: 'ports below 1024 besides 80 and 443 that the tcp and tls checks may connect to, e.g. 465,636,853,993,995',
  },
  tlsCaFile: {
    key: 'tlsCaFile',
    variable: 'NETTOOLS_TLS_CA_FILE',
    fallback: '',
    parse: filePath,
    help: 'a PEM file of trust anchors the tls check and DoT resolvers accept besides the system ones (internal CAs); empty: none',
  },
  httpBodyMaxBytes: {
    key: 'httpBodyMaxBytes',
    variable: 'NETTOOLS_HTTP_BODY_MAX_BYTES',
    fallback: '1048576',
    parse: integer(0, 64 * 1024 * 1024),
    help: 'bytes of an answer body the http check reads (and hashes) before it closes the connection',
  },
  httpContact: {
    key: 'httpContact',
    variable: 'NETTOOLS_HTTP_CONTACT',
    fallback: '',
    parse: httpContact,
    help: "an address or URL for the http check's User-Agent (nettools/<version> (+<contact>)), so that a site's operator can reach this server's; empty: none",
  },
  streamMaxSeconds: {
    key: 'streamMaxSeconds',
    variable: 'NETTOOLS_STREAM_MAX_SECONDS',
    fallback: '3600',
    parse: integer(1, 86_400),
    help: 'longest a streamed ping or mtr may run: (count or cycles - 1) x intervalMs + timeoutMs, in seconds',
  },
  maxTracesInFlight: {
    key: 'maxTracesInFlight',
    variable: 'NETTOOLS_MAX_TRACES_IN_FLIGHT',
    fallback: '128',
    // Each trace holds up to 96 of its engine's 65,536 ICMP sequences while it runs.
    parse: integer(1, 512),
    help: 'traceroutes and mtrs in flight in the whole process, all worker threads together',
  },
  targetTracesPerMinute: {
    key: 'targetTracesPerMinute',
    variable: 'NETTOOLS_TARGET_TRACES_PER_MINUTE',
    fallback: '6',
    parse: integer(1, 10_000),
    help: 'traces per minute the whole server runs to one address (a traceroute, or ten cycles of an mtr)',
  },
  rateLimitCacheMax: {
    key: 'rateLimitCacheMax',
    variable: 'NETTOOLS_RATE_LIMIT_CACHE_MAX',
    fallback: '100000',
    parse: integer(1, 10_000_000),
    help: 'client buckets kept in memory',
  },
  shutdownGraceMs: {
    key: 'shutdownGraceMs',
    variable: 'NETTOOLS_SHUTDOWN_GRACE_MS',
    fallback: '10000',
    parse: integer(0, 600_000),
    help: 'how long in-flight requests may finish after SIGTERM',
  },
  bodyTimeoutMs: {
    key: 'bodyTimeoutMs',
    variable: 'NETTOOLS_BODY_TIMEOUT_MS',
    fallback: '10000',
    parse: integer(100, 600_000),
    help: 'how long a request body may take to arrive',
  },
  apiKeysFile: {
    key: 'apiKeysFile',
    variable: 'NETTOOLS_API_KEYS_FILE',
    fallback: '',
    parse: filePath,
    help: 'the API keys file (SHA-256 of each key, never the key); empty turns keys off',
  },
  redisUrl: {
    key: 'redisUrl',
    variable: 'NETTOOLS_REDIS_URL',
    fallback: '',
    parse: redisUrl,
    help: 'redis://host:port[/db]: buckets and budgets shared by every instance pointed at it; empty keeps them in this process',
  },
  redisFailure: {
    key: 'redisFailure',
    variable: 'NETTOOLS_REDIS_FAILURE',
    fallback: 'local',
    parse: (text) => (text === 'local' || text === 'closed' ? text : refuse('expected local or closed')),
    help: 'when the Redis store is unreachable: local (each instance uses its own buckets) or closed (503)',
  },
  resolverQps: {
    key: 'resolverQps',
    variable: 'NETTOOLS_RESOLVER_QPS',
    fallback: '500',
    parse: integer(1, 1_000_000),
    help: 'queries per second this server sends to each resolver, at most (all workers together)',
  },
  workers: {
    key: 'workers',
    variable: 'NETTOOLS_WORKERS',
    fallback: '1',
    parse: (text) => (text === 'auto' ? availableParallelism() : integer(1, MAX_WORKERS)(text)),
    help: 'HTTP worker threads serving the one port: a number, or auto for one per core',
  },
  plans: {
    key: 'plans',
    variable: 'NETTOOLS_PLANS',
    fallback: '',
    parse: fromResult(parsePlans),
    help: 'name=count/window[:inflight] list of plans for API keys, e.g. pro=600/60s:16',
  },
  agentKeysFile: {
    key: 'agentKeysFile',
    variable: 'NETTOOLS_AGENT_KEYS_FILE',
    fallback: '',
    parse: filePath,
    help: 'the agent keys file (SHA-256 of each key and its location); empty accepts no agents',
  },
  maxAgents: { key: 'maxAgents', variable: 'NETTOOLS_MAX_AGENTS', fallback: '64', parse: integer(1, 10_000), help: 'agent connections a hub holds at once' },
  maxLocationsPerRequest: {
    key: 'maxLocationsPerRequest',
    variable: 'NETTOOLS_MAX_LOCATIONS_PER_REQUEST',
    fallback: '16',
    parse: integer(1, 64),
    help: 'locations one request may measure from; each costs one request of the caller',
  },
  location: {
    key: 'location',
    variable: 'NETTOOLS_LOCATION',
    fallback: '',
    parse: (text) => (text === '' ? null : LOCATION_NAME.test(text) ? text : refuse(LOCATION_NAME_RULE)),
    help: "this server's location name: an agent's, or a hub's own (empty: local)",
  },
  locationLabels: {
    key: 'locationLabels',
    variable: 'NETTOOLS_LOCATION_LABELS',
    fallback: '',
    parse: fromResult(parseLocationLabels),
    help: 'k=v,k=v labels this location announces, e.g. country=DE,city=Frankfurt',
  },
  hubUrl: {
    key: 'hubUrl',
    variable: 'NETTOOLS_HUB_URL',
    fallback: '',
    parse: (text) => (text === '' ? null : fromResult(parseHubUrl)(text)),
    help: "an agent's hub: wss://host/api/agents/connect (ws:// only to a loopback address)",
  },
  agentKey: {
    key: 'agentKey',
    variable: 'NETTOOLS_AGENT_KEY',
    fallback: '',
    // Never echoed back in a refusal: it is a secret, and the agent command checks its shape.
    parse: (text) => (text === '' ? null : text),
    help: "an agent's key for its hub (keys create --agent on the hub)",
  },
  agentTimeoutMs: {
    key: 'agentTimeoutMs',
    variable: 'NETTOOLS_AGENT_TIMEOUT_MS',
    fallback: '45000',
    parse: integer(300, 600_000),
    help: 'a hub drops an agent, and an agent its hub, after this long without a sign of life',
  },
  agentReconnectMs: {
    key: 'agentReconnectMs',
    variable: 'NETTOOLS_AGENT_RECONNECT_MS',
    fallback: '1000',
    parse: integer(1, 600_000),
    help: "an agent's first wait before dialling its hub again; doubled per failure, with full jitter",
  },
  agentReconnectMaxMs: {
    key: 'agentReconnectMaxMs',
    variable: 'NETTOOLS_AGENT_RECONNECT_MAX_MS',
    fallback: '60000',
    parse: integer(1, 3_600_000),
    help: "the longest an agent waits before dialling its hub again",
  },
};

export const CONFIG_SETTINGS: ReadonlyArray<Setting<keyof Config>> = Object.values(SETTINGS);

// `NETTOOLS_RATE_LIMIT` -> `--rate-limit`, `PORT` -> `--port`.
export function flagName(variable: string): string {
  return '--' + variable.replace(/^NETTOOLS_/, '').toLowerCase().replace(/_/g, '-');
}

// What `--help` prints: every setting as its flag and variable, its default and what it does.
export function helpText(): string {
  const rows = CONFIG_SETTINGS.map((s) => `  ${flagName(s.variable)} / ${s.variable} (default: ${s.fallback === '' ? 'empty' : s.fallback})\n      ${s.help}`);
  return ['usage: node dist/src/main.js [--flag value ...]', 'Every setting is a flag or an environment variable; flags win.', '', ...rows, ''].join('\n');
}

// The command line's and typed client's own variables (clients/typescript): one shell may run both the
// server and the client, so these are known to the server and not its business. Any other unknown
// NETTOOLS_* is a typo.
const CLIENT_VARIABLES: ReadonlySet<string> = new Set(['NETTOOLS_URL', 'NETTOOLS_API_KEY']);

// Flags win over the environment; anything unknown or malformed throws a ConfigError.
export function loadConfig(env: NodeJS.ProcessEnv, argv: readonly string[]): Config {
  const fromFlags = parseFlags(argv);
  for (const name of Object.keys(env)) {
    if (name.startsWith('NETTOOLS_') && !CLIENT_VARIABLES.has(name) && !CONFIG_SETTINGS.some((s) => s.variable === name)) {
      throw new ConfigError(name, 'unknown variable');
    }
  }
  const config: Partial<Record<keyof Config, unknown>> = {};
  for (const setting of CONFIG_SETTINGS) {
    const text = fromFlags.get(setting.variable) ?? env[setting.variable] ?? setting.fallback;
    const value = setting.parse(text);
    if (value instanceof SettingRefusal) throw new ConfigError(setting.variable, `${value.reason} (got "${text}")`);
    config[setting.key] = value;
  }
  return config as Config;
}

function parseFlags(argv: readonly string[]): Map<string, string> {
  const out = new Map<string, string>();
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i] as string;
    const eq = arg.indexOf('=');
    const flag = eq < 0 ? arg : arg.slice(0, eq);
    const setting = CONFIG_SETTINGS.find((s) => flagName(s.variable) === flag);
    if (!setting) throw new ConfigError(flag, 'unknown command-line flag');
    let value: string | undefined = eq < 0 ? argv[++i] : arg.slice(eq + 1);
    if (value === undefined) {
      // A bare boolean flag means true.
      if (setting.key === 'allowPrivateTargets' || setting.key === 'asnPrivateHops' || setting.key === 'metrics') value = 'true';
      else throw new ConfigError(flag, 'needs a value');
    }
    out.set(setting.variable, value);
  }
  return out;
}
