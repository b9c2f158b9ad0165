import type { Answer, ClientError } from '../answer.js';
import { EXIT } from './exit-codes.js';

interface Io {
  out(line: string): void;
  err(line: string): void;
}

type Failed = Pick<Extract<Answer<unknown>, { ok: false }>, 'error' | 'rateLimit'>;

// A call without a value: the problem's title and detail on stderr, and with --json its body on stdout
// (`printProblem` says how: whole for a JSON answer, as a `problem` event line for a stream).
export function refused(answer: Failed, server: string, io: Io, printProblem: ((problem: object) => void) | null): number {
  const error: ClientError = answer.error;
  if (error.kind !== 'problem') {
    io.err(`nettools: no answer from ${server}: ${error.message}`);
    return EXIT.noAnswer;
  }
  const p = error.problem;
  printProblem?.(p);
  io.err(`nettools: refused by the server: ${error.status} ${p.title} (${p.code})`);
  io.err(`nettools: ${p.detail}`);
  for (const e of p.errors ?? []) io.err(`nettools:   ${e.pointer}: ${e.message}`);
  if (answer.rateLimit.retryAfterSeconds !== undefined) io.err(`nettools: Retry-After ${answer.rateLimit.retryAfterSeconds} s`);
  return EXIT.refused;
}

export function verdict(failure: string | null, io: Io): number {
  if (failure === null) return EXIT.ok;
  io.err(`nettools: ${failure}`);
  return EXIT.failed;
}
