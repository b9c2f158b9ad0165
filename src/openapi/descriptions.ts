import { PROBLEMS, type ProblemCode } from '../problems/codes';

// What a reader of the API reference needs beyond a problem's title: when it is answered, and what the
// caller can do about it.
export const PROBLEM_DESCRIPTIONS: Readonly<Record<ProblemCode, string>> = {
  'invalid-json': 'The body is not valid JSON, or is JSON but not an object. Sent again unchanged, it gets the same answer.',
  'validation-failed':
    'The body (or, on /probe, the query) does not match the schema: a field missing, unknown, of the wrong type or out of bounds, or a host or domain that is not one. `errors` names each field by JSON Pointer and says what is wrong: at most 10, and when the body has more, `unlistedErrors` says how many more.',
  'invalid-api-key':
    'A `Bearer` key was sent and is malformed, unknown, revoked or expired; `detail` says which. It is never served as anonymous, and it spends a token of the address\'s budget.',
  'not-found': 'No resource at this path. Paths carry no version segment.',
  'method-not-allowed': 'The path exists, but not with this method; `Allow` lists the methods it takes.',
  'request-timeout': 'The body did not arrive in full within the server\'s body timeout (10 s unless the operator changed it); the connection is closed.',
  'payload-too-large': 'The body is over 4 KiB; the connection is closed.',
  'unsupported-media-type': 'The body must be sent as `Content-Type: application/json` (a `charset` parameter is fine).',
  'host-not-found':
    'ping, traceroute, mtr: the resolvers answered, and the host name has no address of the wanted family (`ipVersion`, or either when it is absent). `dns` says which: `nxdomain` (the name does not exist) or `no-data` (it exists, without an A or AAAA record). Resolvers that gave no answer are `upstream-failed` or `upstream-timeout` instead, never this.',
  'target-forbidden':
    'ping: the address is in a range this server does not ping (loopback, private, link-local, CGNAT, multicast, documentation and the like); `range` names it. A host name is checked once resolved. An operator may open the private ranges; multicast, broadcast and unspecified addresses stay refused.',
  'rate-limited': "The caller's bucket is empty (its API key's, or its address's). Wait `Retry-After` seconds; the rate-limit headers describe the budget.",
  'target-rate-limited':
    'ping: this server already sends the address as many echo requests per second as it allows (its per-target echo budget); traceroute and mtr: the address already got as many traces this minute as the server allows (its per-target trace budget; an mtr spends one per ten cycles, and a streamed mtr refused later ends with this as its `problem` event). For all callers together, so the server cannot be used as a flood source; `detail` names the budget. Wait `Retry-After` seconds.',
  'too-many-concurrent': "The caller already has as many requests in flight as its plan allows; send the next one when one of them is answered.",
  overloaded: 'The server has as many requests in flight as it takes, from all callers (for ping, also: as many echo requests as its engine tracks at once). Wait `Retry-After` seconds.',
  'engine-unavailable':
    'This server cannot make the measurement: for ping, no ICMP socket opens and `detail` says what the operator must grant (CAP_NET_RAW, or a wider net.ipv4.ping_group_range), or the engine is stopping with the server.',
  'upstream-busy':
    "dns, and ping of a host name: a resolver's query budget (`NETTOOLS_RESOLVER_QPS` queries a second from this server) cannot take this request's new queries, so the request is refused whole, before anything is sent, rather than half asked. Questions already in flight cost nothing. Resends and TCP fall-backs the server already sent are charged afterwards, even past the budget, so the next requests pay for them: `Retry-After` then covers that debt as well. Wait `Retry-After` seconds.",
  'rate-limit-store-unavailable':
    'The store the budgets are shared in (Redis) cannot be reached and the operator chose to refuse rather than serve unlimited (NETTOOLS_REDIS_FAILURE=closed). Wait `Retry-After` seconds.',
  'upstream-failed':
    'dns, and ping, traceroute or mtr of a host name: no resolver answered (NOERROR or NXDOMAIN), and at least one said something else (REFUSED, SERVFAIL, ...) or sent nothing usable. Nothing is known of the name: retry later. `resolvers` says what each resolver said (from dns as in a 200, with `durationMs`; from ping, traceroute and mtr its rcode or error for the last record type asked), and `detail` names them.',
  'upstream-timeout':
    'dns, and ping, traceroute or mtr of a host name: no resolver answered, and every one of them timed out (within `timeoutMs` for dns). Nothing is known of the name: retry later. `resolvers` gives each one\'s outcome (from dns as in a 200, with `durationMs` how long they were waited for).',
  'shutting-down':
    'The server began to stop (SIGTERM) while the request ran. A stream is ended at once rather than at the end of the grace period: a 503 if no event was sent yet, else the stream\'s `problem` event (the events before it stand). Any other request still unfinished when the grace period (NETTOOLS_SHUTDOWN_GRACE_MS) ends gets this 503 then, on a connection that closes. Send the request again, to another instance or once this one is back.',
  'location-offline':
    "Only with `locations`, as one location's entry (JSON) or its `problem` event (streamed): the agent at that location went away, or the hub cut it off for breaking the protocol, before its measurement was whole. The other locations' results stand.",
  'internal-error': "A bug in the server. The response's `X-Request-Id` finds the request in the server's log.",
};

// Markdown for one response that may carry several problems: each code, its title and when it happens.
export function describeProblems(codes: readonly ProblemCode[]): string {
  return codes.map((c) => `- \`${c}\`: ${PROBLEMS[c].title}. ${PROBLEM_DESCRIPTIONS[c]}`).join('\n');
}

const integer = { type: 'integer' } as const;
const text = { type: 'string' } as const;

// Every tool and probe answer carries these, refusals included: the budget is looked at before anything else.
export const RATE_LIMIT_HEADERS = {
  RateLimit: { description: 'IETF draft: remaining quota and seconds to reset, e.g. `"default";r=12;t=5`.', schema: text },
  'RateLimit-Policy': { description: "IETF draft: the plan's name, quota and window in seconds, e.g. `\"default\";q=30;w=60` (an API key's plan is named instead of default).", schema: text },
  'X-RateLimit-Limit': { description: "Bucket size of the caller's plan: requests in a burst.", schema: integer },
  'X-RateLimit-Remaining': { description: 'Requests left in the bucket now.', schema: integer },
  'X-RateLimit-Reset': { description: 'When the bucket is full again, in Unix epoch seconds.', schema: integer },
};

const RETRY_AFTER = { description: 'Whole seconds to wait before the same request is let in.', schema: integer };

// Headers that come with particular problems.
const PROBLEM_HEADERS: Partial<Record<ProblemCode, Record<string, Header>>> = {
  'rate-limited': { 'Retry-After': RETRY_AFTER },
  'target-rate-limited': { 'Retry-After': RETRY_AFTER },
  overloaded: { 'Retry-After': RETRY_AFTER },
  'upstream-busy': { 'Retry-After': RETRY_AFTER },
  'rate-limit-store-unavailable': { 'Retry-After': RETRY_AFTER },
  'invalid-api-key': { 'WWW-Authenticate': { description: 'Always `Bearer error="invalid_token"`.', schema: text } },
  'method-not-allowed': { Allow: { description: 'The methods this path takes, e.g. `POST, OPTIONS`.', schema: text } },
};

export const REQUEST_ID_HEADER = {
  description: "On every response: the caller's own X-Request-Id when it is 1-64 of A-Z a-z 0-9 . _ : -, else a fresh UUID. Also in the log line.",
  schema: text,
};

type Header = { description: string; schema: object };

// The headers of one response carrying `codes`: the request id always, and what each problem adds,
// saying with which codes when not all of them carry it.
export function problemHeaders(codes: readonly ProblemCode[]): Record<string, Header> {
  const carriers = new Map<string, { header: Header; codes: ProblemCode[] }>();
  for (const code of codes) {
    for (const [name, header] of Object.entries(PROBLEM_HEADERS[code] ?? {})) {
      const seen = carriers.get(name) ?? { header, codes: [] };
      seen.codes.push(code);
      carriers.set(name, seen);
    }
  }
  const out: Record<string, Header> = { 'X-Request-Id': REQUEST_ID_HEADER };
  for (const [name, { header, codes: some }] of carriers) {
    const which = some.length === codes.length ? '' : `With ${some.map((c) => `\`${c}\``).join(', ')}: `;
    out[name] = { ...header, description: which + header.description };
  }
  return out;
}

// The document's introduction, shown above the operations.
export const INTRODUCTION = [
  'Network diagnostics over HTTP: ICMP ping, multi-resolver DNS, traceroute and mtr.',
  '**Errors** are RFC 9457 problem details (`application/problem+json`) with a stable `code`; each response below lists its codes and when they are answered.',
  "**Rate limits**: every tool and probe answer, refusals included, carries `RateLimit-Policy`, `RateLimit` and `X-RateLimit-*`; a 429 or 503 that can be retried says when in `Retry-After`. Without a key the caller's address is limited (behind a trusted proxy, the client's). `GET /api/limits` shows the budget without spending it.",
  '**CORS**: tool responses carry `Access-Control-Allow-Origin` (the operator\'s choice, `*` unless set), and `OPTIONS` on a tool path answers a browser\'s preflight with 204; preflights are not listed as operations below.',
  "**API keys** are optional: `Authorization: Bearer nt_...` spends the key's plan instead of the address's budget (the Authorize button sends one from this page).",
  "**Shared questions**: identical questions (resolver, name, type) in flight at the same moment are sent to the resolver once, and every request waiting for one gets that query's answer, so a shared answer's `rttMs` is the shared query's. A request that joins a question already in flight is still answered by its own `timeoutMs` (what is unanswered by then reads `timeout`), and leaving does not cancel the question for the others. Nothing is cached: once answered, the next request asks again. Ping's host names are resolved the same way.",
].join('\n\n');

// Operations grouped by who calls them; every operation carries exactly one of these.
export const TAGS = [
  { name: 'tools', description: 'Measurements: ping, DNS, traceroute and mtr. Rate limited; an API key is optional.' },
  { name: 'account', description: "The caller's own plan and budget." },
  { name: 'operations', description: 'For whoever runs the server and its monitoring: liveness, metrics, Prometheus probes, this document and its page.' },
];
