// POSTs a tool request asking for NDJSON and hands each event to `onEvent` the moment its line arrives.
// EventSource cannot POST, so the body is read as a stream by hand. Every failure comes back as a value.

export interface StreamEvent {
  event: string;
  data: any;
}

export type StreamEnd =
  | { kind: 'done' } // the stream ended after its summary or a problem event
  | { kind: 'refused'; status: number; problem: Problem; retryAfter: string | null } // a problem before the stream
  | { kind: 'stopped' } // the Stop button aborted it
  | { kind: 'failed'; message: string }; // the connection broke or the answer was not a stream

export interface Problem {
  code?: string;
  title?: string;
  detail?: string;
  status?: number;
  errors?: Array<{ pointer?: string; message?: string }>; // validation-failed: which field and why
}

const NDJSON = 'application/x-ndjson';

export async function runStream(path: string, body: unknown, signal: AbortSignal, onEvent: (e: StreamEvent) => void): Promise<StreamEnd> {
  try {
    const response = await fetch(path, {
      method: 'POST',
      headers: { 'content-type': 'application/json', accept: NDJSON },
      body: JSON.stringify(body),
      signal,
    });
    if (!(response.headers.get('content-type') ?? '').startsWith(NDJSON)) return await refusal(response);
    if (response.body === null) return { kind: 'failed', message: 'the answer had no body' };
    await readLines(response.body, (line) => onEvent(JSON.parse(line) as StreamEvent));
    return { kind: 'done' };
  } catch (err) {
    if (signal.aborted) return { kind: 'stopped' };
    return { kind: 'failed', message: err instanceof Error ? err.message : String(err) };
  }
}

async function refusal(response: Response): Promise<StreamEnd> {
  const text = await response.text();
  let problem: Problem;
  try {
    problem = JSON.parse(text) as Problem;
  } catch {
    problem = { title: `HTTP ${response.status}`, detail: text.slice(0, 200) };
  }
  return { kind: 'refused', status: response.status, problem, retryAfter: response.headers.get('retry-after') };
}

// One call per complete line; a line split across chunks waits for its end.
async function readLines(body: ReadableStream<Uint8Array>, onLine: (line: string) => void): Promise<void> {
  const reader = body.getReader();
  const decoder = new TextDecoder();
  let pending = '';
  for (;;) {
    const { value, done } = await reader.read();
    if (done) break;
    pending += decoder.decode(value, { stream: true });
    let end: number;
    while ((end = pending.indexOf('\n')) >= 0) {
      const line = pending.slice(0, end).trim();
      pending = pending.slice(end + 1);
      if (line !== '') onLine(line);
    }
  }
  const last = (pending + decoder.decode()).trim();
  if (last !== '') onLine(last);
}

// How a problem reads on the page: its title and detail, and when a rate limit lifts.
export function problemText(problem: Problem, retryAfter: string | null = null): string {
  const head = [problem.title, problem.detail].filter((s) => s !== undefined && s !== '').join(': ') || 'the server refused the request';
  const code = problem.code !== undefined ? ` (${problem.code})` : '';
  const fields = (problem.errors ?? []).map((e) => `${(e.pointer ?? '').replace(/^\//, '') || 'body'} ${e.message ?? 'is not valid'}`);
  const why = fields.length > 0 ? ` ${fields.join('; ')}.` : '';
  const wait = retryAfter !== null ? ` Try again in ${retryAfter} s.` : '';
  return `${head}${code}.${why}${wait}`;
}

// What a section's status line says when a run ends without its summary.
export function endText(end: StreamEnd): string | null {
  switch (end.kind) {
    case 'done':
      return null;
    case 'stopped':
      return 'Stopped.';
    case 'refused':
      return problemText(end.problem, end.retryAfter);
    case 'failed':
      return `Connection failed: ${end.message}`;
  }
}
