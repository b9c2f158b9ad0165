// Every problem the API can answer with: one table, one place. Response bodies, the OpenAPI document
// and the schema's enum are all built from it.
export const PROBLEMS = {
  'invalid-json': { status: 400, title: 'Request body is not a JSON object' },
  'validation-failed': { status: 400, title: 'Request does not match the schema' },
  'invalid-api-key': { status: 401, title: 'The API key is malformed, unknown, revoked or expired' },
  'not-found': { status: 404, title: 'No such resource' },
  'method-not-allowed': { status: 405, title: 'Method not allowed on this resource' },
  'request-timeout': { status: 408, title: 'Request body did not arrive in time' },
  'payload-too-large': { status: 413, title: 'Request body is too large' },
  'unsupported-media-type': { status: 415, title: 'Content type must be application/json' },
  'host-not-found': { status: 422, title: 'Host has no address of the wanted family' },
  'target-forbidden': { status: 422, title: 'Target address is in a refused range' },
  'rate-limited': { status: 429, title: 'Rate limit exceeded' },
  'target-rate-limited': { status: 429, title: "This target's budget on this server is spent for now" },
  'too-many-concurrent': { status: 429, title: 'Too many requests in flight for this client' },
  'overloaded': { status: 503, title: 'Server is at its in-flight capacity' },
  'engine-unavailable': { status: 503, title: 'The measurement engine is not available on this server' },
  'upstream-busy': { status: 503, title: "A resolver's query budget is spent" },
  'rate-limit-store-unavailable': { status: 503, title: 'The shared rate-limit store is unreachable' },
  'upstream-failed': { status: 502, title: 'No resolver gave an answer' },
  'upstream-timeout': { status: 504, title: 'No resolver answered' },
  'shutting-down': { status: 503, title: 'The server is shutting down' },
  'location-offline': { status: 503, title: 'The location went away before its measurement was whole' },
  'internal-error': { status: 500, title: 'Internal server error' },
} as const satisfies Record<string, { status: number; title: string }>;

export type ProblemCode = keyof typeof PROBLEMS;

export const PROBLEM_TYPE_BASE = 'https://nettools.dev/problems/';

// One field of a request that is wrong: a JSON Pointer into what the client sent, and why.
export interface FieldError {
  pointer: string;
  message: string;
}
