import { PROBLEMS, type FieldError, type ProblemCode } from '../problems/codes';
import { retryAfterValue } from '../ratelimit/headers';
import type { FailureCode, FieldFault, ToolFailure } from '../tools/outcome';
import { escapePointer } from '../validation/validator';
import type { Exchange } from './exchange';
import { problemJson } from './problem-json';

// Why a stage of the pipeline stops a request. Tool failures join them, so that one function below
// decides every problem the server answers with.
export type StageRefusal =
  | { code: 'not-found'; path: string }
  | { code: 'method-not-allowed'; method: string; path: string; allow: string }
  | { code: 'unsupported-media-type'; contentType: string }
  | { code: 'payload-too-large'; limit: number }
  | { code: 'request-timeout'; timeoutMs: number }
  | { code: 'invalid-json'; detail: string }
  | { code: 'validation-failed'; detail: string; errors: FieldError[]; unlisted?: number }
  | { code: 'invalid-api-key'; reason: 'malformed' | 'unknown' | 'revoked' | 'expired'; detail: string }
  | { code: 'rate-limited'; limit: number; windowMs: number; retryAfterSeconds: number }
  | { code: 'too-many-concurrent'; limit: number }
  | { code: 'rate-limit-store-unavailable'; retryAfterSeconds: number }
  | { code: 'overloaded'; limit: number; retryAfterSeconds: number }
  | { code: 'engine-unavailable'; detail: string }
  | { code: 'internal-error'; detail: string };

export type Refusal = StageRefusal | ToolFailure;

export interface ProblemAnswer {
  code: ProblemCode;
  detail: string;
  extensions?: Record<string, unknown>;
  retryAfterSeconds?: number;
  // The rest of the request will not be read: the connection cannot be reused.
  closeConnection?: boolean;
  wwwAuthenticate?: string;
}

// The one place a refusal becomes a problem: its code, its sentence, its extensions and headers.
export function problemFor(r: Refusal): ProblemAnswer {
  switch (r.code) {
    case 'not-found':
      return { code: r.code, detail: `no resource at ${r.path}` };
    case 'method-not-allowed':
      return { code: r.code, detail: `${r.method} is not allowed on ${r.path}; allowed: ${r.allow}` };
    case 'unsupported-media-type':
      return { code: r.code, detail: `Content-Type must be application/json, got "${r.contentType || '(none)'}"` };
    case 'payload-too-large':
      return { code: r.code, detail: `body is limited to ${r.limit} bytes`, closeConnection: true };
    case 'request-timeout':
      return { code: r.code, detail: `the body did not arrive within ${r.timeoutMs} ms`, closeConnection: true };
    case 'invalid-json':
      return { code: r.code, detail: r.detail };
    case 'validation-failed':
      return { code: r.code, detail: r.detail, extensions: r.unlisted ? { errors: r.errors, unlistedErrors: r.unlisted } : { errors: r.errors } };
    case 'invalid-api-key':
      return { code: r.code, detail: `the API key is ${r.detail}`, wwwAuthenticate: 'Bearer error="invalid_token"' };
    case 'rate-limited':
      return { code: r.code, detail: `${r.limit} requests per ${r.windowMs / 1000} s; retry after ${r.retryAfterSeconds} s` };
    case 'too-many-concurrent':
      return { code: r.code, detail: `at most ${r.limit} requests per client may be in flight at once` };
    case 'rate-limit-store-unavailable':
      return { code: r.code, detail: 'the shared rate-limit store cannot be reached and this server refuses rather than serve unlimited; retry shortly', retryAfterSeconds: r.retryAfterSeconds };
    case 'overloaded':
      return { code: r.code, detail: `the server has ${r.limit} requests in flight; try again shortly`, retryAfterSeconds: r.retryAfterSeconds };
    default:
      return toolProblem(r);
  }
}

// The problem each tool failure is answered with. `aborted` has nobody left to read it; the metrics
// and the log see the failure's own code.
export const FAILURE_PROBLEMS: Readonly<Record<FailureCode, ProblemCode>> = {
  'host-not-found': 'host-not-found',
  'target-forbidden': 'target-forbidden',
  'target-rate-limited': 'target-rate-limited',
  'invalid-field': 'validation-failed',
  'engine-unavailable': 'engine-unavailable',
  'engine-busy': 'overloaded',
  'upstream-timeout': 'upstream-timeout',
  'upstream-failed': 'upstream-failed',
  'upstream-busy': 'upstream-busy',
  'store-unavailable': 'rate-limit-store-unavailable',
  'caller-rate-limited': 'rate-limited',
  'shutting-down': 'shutting-down',
  'location-offline': 'location-offline',
  aborted: 'internal-error',
  'internal-error': 'internal-error',
};

function toolProblem(r: ToolFailure | Extract<StageRefusal, { code: FailureCode }>): ProblemAnswer {
  const code = FAILURE_PROBLEMS[r.code];
  switch (r.code) {
    case 'invalid-field':
      return { code, detail: `${r.detail}; see errors`, extensions: { errors: r.fields.map(fieldError) } };
    case 'target-rate-limited':
    case 'engine-busy':
    case 'upstream-busy':
    case 'store-unavailable':
    case 'caller-rate-limited':
      return { code, detail: r.detail, retryAfterSeconds: r.retryAfterSeconds };
    case 'upstream-timeout':
    case 'upstream-failed':
      return { code, detail: r.detail, extensions: 'durationMs' in r ? { resolvers: r.resolvers, durationMs: r.durationMs } : { resolvers: r.resolvers } };
    case 'host-not-found':
      return { code, detail: r.detail, extensions: { dns: r.dns } };
    case 'target-forbidden':
      return { code, detail: r.detail, extensions: { range: r.range, ...(r.url !== undefined ? { url: r.url, redirects: r.redirects ?? [] } : {}) } };
    default:
      return { code, detail: r.detail };
  }
}

function fieldError(f: FieldFault): FieldError {
  return { pointer: f.path.map((p) => `/${escapePointer(String(p))}`).join(''), message: f.message };
}

export function sendProblem(ex: Exchange, answer: ProblemAnswer): void {
  if (answer.retryAfterSeconds !== undefined) ex.header('Retry-After', retryAfterValue(answer.retryAfterSeconds));
  if (answer.closeConnection) ex.closeConnection = true;
  if (answer.wwwAuthenticate !== undefined) ex.header('WWW-Authenticate', answer.wwwAuthenticate);
  ex.problemCode = answer.code;
  ex.send(PROBLEMS[answer.code].status, 'application/problem+json', problemJson(answer.code, answer.detail, answer.extensions));
}

export function refuse(ex: Exchange, refusal: Refusal): void {
  sendProblem(ex, problemFor(refusal));
}
