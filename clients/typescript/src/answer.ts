import { readRateLimit, type RateLimitInfo } from './rate-limit.js';
import type { DnsResult, LocationEntry, Problem, RecordType } from './types.js';

// Why a call has no value. `problem`: the server refused or failed with an RFC 9457 problem;
// `network`: no HTTP answer came (refused connection, DNS, CORS in a browser); `aborted`: the caller's
// signal; `unexpected`: an answer that is not the API's (a proxy's error page, say).
export type ClientError =
  | { kind: 'problem'; status: number; problem: Problem }
  | { kind: 'network'; message: string }
  | { kind: 'aborted'; message: string }
  | { kind: 'unexpected'; status: number; message: string };

interface Common {
  rateLimit: RateLimitInfo; // what this answer said about the budget ({} without an HTTP answer)
  requestId: string | null; // the server's X-Request-Id: finds the request in its log
  waits: number[]; // seconds waited before resending, as Retry-After said, one entry per wait
}

// Every call resolves to one of these; none throws for an API or network failure.
export type Answer<T> = ({ ok: true; status: number; value: T } & Common) | ({ ok: false; error: ClientError } & Common);

const isJson = (type: string | null, subtype: string) => type !== null && type.split(';')[0]!.trim().toLowerCase() === `application/${subtype}`;

// The most a JSON answer (or one stream line) may hold unless the caller says otherwise: the API's
// largest answers are a few KiB, and a server that never stops sending must not fill the caller's memory.
export const MAX_BODY_BYTES = 4 * 1024 * 1024;

// The body as text, or null once it passes `limit` bytes: the rest is not read. A body that breaks off
// rejects, as fetch's own text() does.
async function readText(response: Response, limit: number): Promise<string | null> {
  if (Number(response.headers.get('content-length')) > limit) return response.body?.cancel().catch(() => undefined), null;
  if (response.body === null) return '';
  const reader = response.body.getReader();
  const chunks: Uint8Array[] = [];
  let size = 0;
  for (let chunk = await reader.read(); !chunk.done; chunk = await reader.read()) {
    size += chunk.value.byteLength;
    if (size > limit) return reader.cancel().catch(() => undefined), null;
    chunks.push(chunk.value);
  }
  const whole = new Uint8Array(size);
  chunks.reduce((at, c) => (whole.set(c, at), at + c.byteLength), 0);
  return new TextDecoder('utf-8').decode(whole);
}

// One HTTP answer, read whole up to `limit` bytes: a value on 2xx JSON, a problem on a problem body,
// else `unexpected` (a body over the limit too).
export async function readAnswer<T>(response: Response, waits: number[], limit = MAX_BODY_BYTES): Promise<Answer<T>> {
  const common = { rateLimit: readRateLimit(response.headers), requestId: response.headers.get('x-request-id'), waits };
  const type = response.headers.get('content-type');
  const text = await readText(response, limit);
  if (text === null) return { ok: false, error: { kind: 'unexpected', status: response.status, message: `HTTP ${response.status}: the answer is larger than ${limit} bytes` }, ...common };
  let body: unknown;
  try {
    body = JSON.parse(text);
  } catch {
    body = undefined;
  }
  if (response.ok && isJson(type, 'json') && body !== undefined) return { ok: true, status: response.status, value: body as T, ...common };
  if (isJson(type, 'problem+json') && typeof body === 'object' && body !== null && 'code' in body) {
    return { ok: false, error: { kind: 'problem', status: response.status, problem: body as Problem }, ...common };
  }
  return { ok: false, error: { kind: 'unexpected', status: response.status, message: `HTTP ${response.status} with ${type ?? 'no content type'}: ${text.slice(0, 200)}` }, ...common };
}

export function failed(error: ClientError, waits: number[]): Answer<never> {
  return { ok: false, error, rateLimit: {}, requestId: null, waits };
}

// The resolvers behind the server gave no answer (upstream-failed: they refused or failed;
// upstream-timeout: they were silent). Nothing is known of the name: worth asking again later, unlike
// a name that does not exist (a dns 200 whose outcome is nxdomain, or ping's 422 host-not-found).
export function resolversFailed(error: ClientError): boolean {
  return error.kind === 'problem' && (error.problem.code === 'upstream-failed' || error.problem.code === 'upstream-timeout');
}

// The requested types no resolver answered in a dns 200 (outcome upstream-failed): their empty
// records say nothing about the zone.
export function unansweredTypes(result: DnsResult): RecordType[] {
  return (Object.entries(result.outcomes) as Array<[RecordType, string]>).filter(([, said]) => said === 'upstream-failed').map(([type]) => type);
}

// A location's problem, or null when the entry is that location's 200 body (no result has a `problem`).
export function entryProblem<R extends object>(entry: LocationEntry<R>): Problem | null {
  return 'problem' in entry ? (entry as { problem: Problem }).problem : null;
}
