import { NettoolsClient, NettoolsError, type Problem } from './client/index.js';

// The page's calls go through the typed client, to the server that served the page. A refusal is shown
// as it came, with when to try again: the person decides, so the client never waits and resends.
export const client = new NettoolsClient({ baseUrl: new URL('/', location.href).href, retry: false });

// How a run ended when not with its summary: the status line's text and whether it is an error.
export interface Ending {
  text: string;
  kind: 'info' | 'error';
}

// Hands each event of a streamed call to `onEvent` as it arrives; null once the summary came.
export async function follow<E>(events: AsyncIterable<E>, onEvent: (e: E) => void): Promise<Ending | null> {
  try {
    for await (const e of events) onEvent(e);
    return null;
  } catch (err) {
    if (!(err instanceof NettoolsError)) return { text: `Connection failed: ${err instanceof Error ? err.message : String(err)}`, kind: 'error' };
    const { error } = err;
    switch (error.kind) {
      case 'aborted':
        return { text: 'Stopped.', kind: 'info' };
      case 'problem':
        return { text: problemText(error.problem, err.rateLimit.retryAfterSeconds), kind: 'error' };
      case 'network':
        return { text: `Connection failed: ${error.message}`, kind: 'error' };
      case 'unexpected':
        return { text: `${error.message}.`, kind: 'error' };
    }
  }
}

// How a problem reads on the page: its title and detail, the fields at fault, and when a limit lifts.
export function problemText(problem: Problem, retryAfterSeconds?: number): string {
  const head = [problem.title, problem.detail].filter((s) => s !== '').join(': ') || 'the server refused the request';
  const fields = (problem.errors ?? []).map((e) => `${e.pointer.replace(/^\//, '') || 'body'} ${e.message}`);
  const why = fields.length > 0 ? ` ${fields.join('; ')}.` : '';
  const wait = retryAfterSeconds !== undefined ? ` Try again in ${retryAfterSeconds} s.` : '';
  return `${head} (${problem.code}).${why}${wait}`;
}
