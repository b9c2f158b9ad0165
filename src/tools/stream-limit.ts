import type { ToolFailure } from './outcome';

// How long a streamed series (ping's echoes, tcp's attempts) may run in all: its last send's start plus
// its timeout, against NETTOOLS_STREAM_MAX_SECONDS.
export function beyondSeriesLimit(request: { count: number; intervalMs: number; timeoutMs: number }, maxSeconds: number): ToolFailure | null {
  const ms = (request.count - 1) * request.intervalMs + request.timeoutMs;
  if (ms <= maxSeconds * 1000) return null;
  const message = `(count - 1) x intervalMs + timeoutMs must be <= ${maxSeconds * 1000} ms on this server (NETTOOLS_STREAM_MAX_SECONDS)`;
  return { code: 'invalid-field', detail: `the stream would run ${ms} ms, longer than this server allows`, fields: [{ path: ['count'], message }] };
}
