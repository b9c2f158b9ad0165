import { problemJson } from '../http/problem-json';
import { problemFor, type Refusal } from '../http/refusal';
import type { ProblemCode } from '../problems/codes';

// One plausible refusal per problem, turned into its body by the very functions that answer requests,
// so the examples in the document read exactly like the server's answers.
const SAMPLES: Readonly<Record<ProblemCode, Refusal>> = {
  'invalid-json': { code: 'invalid-json', detail: 'body must be a JSON object' },
  'validation-failed': { code: 'validation-failed', detail: 'the request body does not match the schema; see errors', errors: [{ pointer: '/count', message: 'must be <= 10' }] },
  'invalid-api-key': { code: 'invalid-api-key', reason: 'unknown', detail: 'unknown: no such key' },
  'not-found': { code: 'not-found', path: '/api/tools/pnig' },
  'method-not-allowed': { code: 'method-not-allowed', method: 'GET', path: '/api/tools/ping', allow: 'POST, OPTIONS' },
  'request-timeout': { code: 'request-timeout', timeoutMs: 10_000 },
  'payload-too-large': { code: 'payload-too-large', limit: 4096 },
  'unsupported-media-type': { code: 'unsupported-media-type', contentType: 'text/plain' },
  'host-not-found': { code: 'host-not-found', detail: 'ipv6-less.example has no AAAA record', dns: 'no-data' },
  'target-forbidden': { code: 'target-forbidden', detail: '10.1.2.3 is in the refused range private', address: '10.1.2.3', range: 'private' },
  'rate-limited': { code: 'rate-limited', limit: 30, windowMs: 60_000, retryAfterSeconds: 2 },
  'target-rate-limited': { code: 'target-rate-limited', detail: '192.0.2.10 already receives 20 echo requests per second from this server (its per-target echo budget); retry after 1 s', retryAfterSeconds: 1 },
  'too-many-concurrent': { code: 'too-many-concurrent', limit: 4 },
  overloaded: { code: 'overloaded', limit: 1024, retryAfterSeconds: 1 },
  'engine-unavailable': {
    code: 'engine-unavailable',
    detail:
      'no ICMP socket opens (IPv4: Operation not permitted; IPv6: Operation not permitted); grant the server CAP_NET_RAW (or run it as root), or widen net.ipv4.ping_group_range to cover its group',
  },
  'upstream-busy': { code: 'upstream-busy', detail: 'resolver quad9 has no query budget left this second; retry after 1 s', retryAfterSeconds: 1 },
  'rate-limit-store-unavailable': { code: 'rate-limit-store-unavailable', retryAfterSeconds: 1 },
  'upstream-failed': {
    code: 'upstream-failed',
    detail: 'no resolver answered any query for example.com: quad9 REFUSED, local SERVFAIL/timeout',
    resolvers: [
      {
        id: 'quad9',
        address: '9.9.9.9',
        queries: { A: { rcode: 'REFUSED', flags: ['qr', 'rd'], rttMs: 10.2, transport: 'udp', answers: [] }, MX: { rcode: 'REFUSED', flags: ['qr', 'rd'], rttMs: 10.4, transport: 'udp', answers: [] } },
      },
      { id: 'local', address: '192.0.2.53', queries: { A: { rcode: 'SERVFAIL', flags: ['qr', 'rd', 'ra'], rttMs: 30.5, transport: 'udp', answers: [] }, MX: { error: 'timeout' } } },
    ],
    durationMs: 2001.4,
  },
  'upstream-timeout': {
    code: 'upstream-timeout',
    detail: 'no resolver answered any query for example.com within 2000 ms',
    resolvers: [{ id: 'quad9', address: '9.9.9.9', queries: { A: { error: 'timeout' } } }],
    durationMs: 2001.4,
  },
  'shutting-down': { code: 'shutting-down', detail: 'the server is shutting down; the measurement ended here, send it again' },
  'location-offline': { code: 'location-offline', detail: 'location de-fra went away before its measurement was whole' },
  'internal-error': { code: 'internal-error', detail: 'unexpected error; this is a bug' },
};

export function problemExample(code: ProblemCode): unknown {
  const answer = problemFor(SAMPLES[code]);
  return JSON.parse(problemJson(answer.code, answer.detail, answer.extensions));
}
