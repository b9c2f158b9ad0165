import type { Answer, ClientError } from '../answer.js';
import { EXIT } from './exit-codes.js';
import { oneLine } from './terminal.js';
import { hostNotFound, upstreamFailure } from './upstream.js';

interface Io {
  out(line: string): void;
  err(line: string): void;
}

// Whom the command asked, and for what: named in what it says.
export interface Asked {
  server: string;
  target?: string | undefined; // the host of ping or trace
}

type Failed = Pick<Extract<Answer<unknown>, { ok: false }>, 'error' | 'rateLimit'>;

// A call without a value, and its exit status: no usable answer (4); the resolvers behind the server gave
// none (5); a host name that does not resolve (1, a measured failure); any other problem (3). The
// problem's title and detail go to stderr, and with --json its body to stdout (`printProblem` says how:
// whole for a JSON answer, as a `problem` event line for a stream).
export function refused(answer: Failed, asked: Asked, io: Io, printProblem: ((problem: object) => void) | null): number {
  const error: ClientError = answer.error;
  if (error.kind !== 'problem') {
    io.err(`nettools: no answer from ${asked.server}: ${oneLine(error.message)}`);
    return EXIT.noAnswer;
  }
  const p = error.problem;
  printProblem?.(p);
  const missing = hostNotFound(p, asked.target);
  if (missing !== null) return io.err(`nettools: ${missing}`), EXIT.failed;
  const upstream = upstreamFailure(p);
  io.err(`nettools: ${upstream === null ? 'refused by the server' : 'the server'}: ${error.status} ${oneLine(p.title)} (${oneLine(p.code)})`);
  if (upstream !== null) return io.err(`nettools: ${upstream}`), EXIT.upstream;
  io.err(`nettools: ${oneLine(p.detail)}`);
  for (const e of p.errors ?? []) io.err(`nettools:   ${oneLine(e.pointer)}: ${oneLine(e.message)}`);
  if (answer.rateLimit.retryAfterSeconds !== undefined) io.err(`nettools: Retry-After ${answer.rateLimit.retryAfterSeconds} s`);
  return EXIT.refused;
}

export function verdict(failure: string | null, io: Io): number {
  if (failure === null) return EXIT.ok;
  io.err(`nettools: ${failure}`);
  return EXIT.failed;
}
