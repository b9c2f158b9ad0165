import type { ClientError } from './answer.js';
import type { RateLimitInfo } from './rate-limit.js';

// What a streamed call throws: the same `ClientError` a non-streamed call returns as its `error`,
// with what the answer said about the budget. Streams throw because a `for await` loop has no other way
// to end with a reason.
export class NettoolsError extends Error {
  override readonly name = 'NettoolsError';

  constructor(
    readonly error: ClientError,
    readonly rateLimit: RateLimitInfo = {},
    readonly requestId: string | null = null,
    readonly waits: number[] = [],
  ) {
    super(error.kind === 'problem' ? `${error.status} ${error.problem.code}: ${error.problem.detail}` : error.message);
  }
}
