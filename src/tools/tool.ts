import type { ProblemCode } from '../http/problems';

// What a tool hands back to the HTTP layer: a 200 body, or a problem by code.
export type ToolResult =
  | { kind: 'ok'; body: object }
  | { kind: 'problem'; code: ProblemCode; detail: string; extensions?: Record<string, unknown>; retryAfterSeconds?: number };

// `request` is already validated, defaulted and normalised by the HTTP layer.
// `signal` aborts when the client goes away: stop work, free sockets, resolve soon.
export type ToolHandler<Request> = (request: Request, signal: AbortSignal) => Promise<ToolResult>;
