// What a 200 and each stream event must look like before the CLI reads them: a server (or whatever
// answers in its place) that sends another shape gets one line and exit 4, never a TypeError's stack.
// Only what the CLI reads is checked; fields it does not read may be anything.
type Check = (v: unknown, at: string) => string | null;

const is = (what: string, test: (v: unknown) => boolean): Check => (v, at) => (test(v) ? null : `${at || '/'} is not ${what}`);
const str = is('a string', (v) => typeof v === 'string');
const num = is('a number', (v) => typeof v === 'number' && Number.isFinite(v));
const bool = is('true or false', (v) => typeof v === 'boolean');
const family = is('4 or 6', (v) => v === 4 || v === 6);
const optional = (c: Check): Check => (v, at) => (v === undefined ? null : c(v, at));
const nullable = (c: Check): Check => (v, at) => (v === null ? null : c(v, at));
const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

const object =
  (fields: Record<string, Check>): Check =>
  (v, at) => {
    if (!isObject(v)) return `${at || '/'} is not an object`;
    for (const [name, check] of Object.entries(fields)) {
      const fault = check(v[name], `${at}/${name}`);
      if (fault !== null) return fault;
    }
    return null;
  };

const arrayOf =
  (c: Check): Check =>
  (v, at) => {
    if (!Array.isArray(v)) return `${at || '/'} is not an array`;
    for (let i = 0; i < v.length; i++) {
      const fault = c(v[i], `${at}/${i}`);
      if (fault !== null) return fault;
    }
    return null;
  };

const valuesOf =
  (c: Check): Check =>
  (v, at) => {
    if (!isObject(v)) return `${at || '/'} is not an object`;
    for (const [key, value] of Object.entries(v)) {
      const fault = c(value, `${at}/${key}`);
      if (fault !== null) return fault;
    }
    return null;
  };

// One of two shapes, told apart by a field that only the first has.
const either = (field: string, first: Check, second: Check): Check => (v, at) => (isObject(v) && field in v ? first(v, at) : second(v, at));

const reply = object({ seq: num, status: is('a reply status', (v) => v === 'reply' || v === 'timeout' || v === 'unreachable' || v === 'time-exceeded'), rttMs: optional(nullable(num)) });
const rtt = nullable(object({ minMs: num, avgMs: num, maxMs: num, stddevMs: num }));
const pingFigures = { host: str, address: str, ipVersion: family, reachable: bool, packets: object({ sent: num, received: num, duplicates: num, lossPercent: num }), rtt, durationMs: num };
const pingResult = object({ ...pingFigures, replies: arrayOf(reply) });
// A long ping's streamed summary lists no replies: each was an event of its own.
const pingSummary = object({ ...pingFigures, replies: optional(arrayOf(reply)) });

const query = either('rcode', object({ rcode: str, rttMs: num, answers: arrayOf(object({})) }), object({ error: str }));
const resolver = object({ id: str, address: str, queries: valuesOf(query) });
const dnsResult = object({ domain: str, consistent: bool, records: valuesOf(arrayOf(object({}))), resolvers: arrayOf(resolver), durationMs: num });

const probe = either('address', object({ address: str, rttMs: num, icmp: object({ type: num, code: num, name: str }) }), object({ status: str }));
const asn = optional(object({ number: num, prefix: str }));
const hop = object({ ttl: num, probes: arrayOf(probe), name: optional(str), asn });
const traceResult = object({ host: str, address: str, ipVersion: family, destinationReached: bool, hops: arrayOf(hop), durationMs: num });

const ms = nullable(num);
const mtrAddress = object({ address: str, name: optional(str), asn, count: num });
const mtrHop = object({ ttl: num, addresses: arrayOf(mtrAddress), sent: num, received: num, lossPercent: num, lastMs: ms, bestMs: ms, avgMs: ms, worstMs: ms, stddevMs: ms });
const mtrResult = object({ host: str, address: str, ipVersion: family, destinationReached: bool, cycles: num, hops: arrayOf(mtrHop), durationMs: num });
const mtrStart = object({ host: str, address: str, ipVersion: family, cycles: num });
const mtrCycle = object({ cycle: num, destinationReached: bool, hops: arrayOf(mtrHop) });

const pingStart = object({ host: str, address: str, ipVersion: family });
const dnsStart = object({ domain: str, resolvers: arrayOf(object({ id: str, address: str })), types: arrayOf(str) });
const dnsAnswer = object({ resolver: str, address: str, type: str, query });
const traceStart = object({ host: str, address: str, ipVersion: family, maxHops: num, probesPerHop: num });

const attempt = object({ seq: num, status: is('an attempt status', (v) => v === 'connected' || v === 'refused' || v === 'timeout' || v === 'unreachable' || v === 'error'), connectMs: optional(num), errno: optional(str) });
const connectMs = nullable(object({ min: num, avg: num, max: num, stddev: num }));
const tcpFigures = { host: str, address: str, ipVersion: family, port: num, connected: bool, attempts: object({ sent: num, connected: num, lossPercent: num }), connectMs, durationMs: num };
const tcpResult = object({ ...tcpFigures, results: arrayOf(attempt) });
const tcpSummary = object({ ...tcpFigures, results: optional(arrayOf(attempt)) });
const tcpStart = object({ host: str, address: str, ipVersion: family, port: num });

const certificate = object({ subject: nullable(str), issuer: nullable(str), notAfter: str, daysLeft: num });
const tlsResult = object({ host: str, address: str, port: num, status: str, code: optional(str), protocol: optional(str), cipher: optional(str), verified: optional(bool), verifyError: optional(str), certificates: optional(arrayOf(certificate)), durationMs: num });
const tlsStart = object({ host: str, address: str, port: num });

const httpTimings = object({ resolveMs: num, connectMs: optional(num), tlsMs: optional(num), firstByteMs: optional(num), transferMs: optional(num), totalMs: num });
const redirect = object({ url: str, status: num, location: str, address: str, timings: httpTimings });
const httpResult = object({ url: str, finalUrl: str, address: str, port: num, status: optional(num), httpVersion: optional(str), connect: optional(str), handshake: optional(str), response: optional(str), code: optional(str), location: optional(str), timings: httpTimings, redirects: arrayOf(redirect), durationMs: num });
const httpStart = object({ url: str, address: str, port: num });

export type Tool = 'ping' | 'dns' | 'trace' | 'mtr' | 'tcp' | 'tls' | 'http';
const RESULTS: Record<Tool, Check> = { ping: pingResult, dns: dnsResult, trace: traceResult, mtr: mtrResult, tcp: tcpResult, tls: tlsResult, http: httpResult };
const EVENTS: Record<Tool, Record<string, Check>> = {
  ping: { start: pingStart, reply, summary: pingSummary },
  dns: { start: dnsStart, answer: dnsAnswer, summary: dnsResult },
  trace: { start: traceStart, hop, summary: traceResult },
  mtr: { start: mtrStart, cycle: mtrCycle, summary: mtrResult },
  tcp: { start: tcpStart, attempt, summary: tcpSummary },
  tls: { start: tlsStart, summary: tlsResult },
  http: { start: httpStart, redirect, summary: httpResult },
};

// Why this 200 body is not the tool's result, or null.
export function resultFault(tool: Tool, body: unknown): string | null {
  return RESULTS[tool](body, '');
}

// Why this stream event is not one of the tool's, or null.
export function eventFault(tool: Tool, e: unknown): string | null {
  if (!isObject(e) || typeof e['event'] !== 'string') return 'an event without a name';
  const check = Object.hasOwn(EVENTS[tool], e['event']) ? EVENTS[tool][e['event']] : undefined;
  if (check === undefined) return `an event the ${tool} stream does not have: ${e['event'].slice(0, 40)}`;
  const fault = check(e['data'], '');
  return fault === null ? null : `its ${e['event'].slice(0, 40)} event: ${fault}`;
}

const problemEntry = object({ problem: object({ code: str, title: str, status: num }) });
const VERDICTS: Record<Tool, Check> = {
  ping: object({ reached: num, of: num }),
  trace: object({ reached: num, of: num }),
  mtr: object({ reached: num, of: num }),
  dns: object({ consistent: bool, answered: num, of: num }),
  tcp: object({ reached: num, of: num }),
  tls: object({ reached: num, of: num }),
  http: object({ reached: num, of: num }),
};

// Why this 200 body is not the tool's answer with locations (each entry its result or a problem), or null.
// `streamed`: the data of a stream's `locations` event, whose entries are the locations' summaries.
export function locatedFault(tool: Tool, body: unknown, streamed = false): string | null {
  const entry = either('problem', problemEntry, streamed ? (EVENTS[tool]['summary'] as Check) : RESULTS[tool]);
  return object({ locations: valuesOf(entry), verdict: VERDICTS[tool] })(body, '');
}

const locatedProblem = object({ location: str, code: str, title: str, status: num });

// Why this event of a stream asked with locations is not one of the tool's (each data with its
// `location`, a location's own `problem`, and the closing `locations` event), or null.
export function locatedEventFault(tool: Tool, e: unknown): string | null {
  if (!isObject(e) || typeof e['event'] !== 'string') return 'an event without a name';
  const name = e['event'].slice(0, 40);
  if (e['event'] === 'locations') {
    const fault = locatedFault(tool, e['data'], true);
    return fault === null ? null : `its locations event: ${fault}`;
  }
  const data = e['data'];
  if (!isObject(data) || typeof data['location'] !== 'string') return `its ${name} event: no location`;
  if (e['event'] === 'problem') {
    const fault = locatedProblem(data, '');
    return fault === null ? null : `its problem event: ${fault}`;
  }
  const { location: _, ...rest } = data;
  return eventFault(tool, { event: e['event'], data: rest });
}
