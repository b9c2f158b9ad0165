import { NettoolsError } from '../error.js';
import { EXIT } from './exit-codes.js';
import { refused } from './refused.js';

export interface WatchIo {
  out(line: string): void;
  err(line: string): void;
  // Calls `stop` on the user's interrupt (Ctrl-C) until the returned function is called.
  onInterrupt?: ((stop: () => void) => () => void) | undefined;
}

// How one command shows its stream: each event (an exit status ends the watch), and what to say when
// the user interrupted it.
export interface Watcher<E> {
  event(e: E): number | null;
  interrupted(): number;
}

// One streamed call from the command line: every event to the watcher as it arrives (with --json also
// printed as it came, one JSON a line); Ctrl-C aborts the request, which stops the server's measurement.
export async function watch<E>(open: (signal: AbortSignal) => AsyncIterable<E>, cmd: { server: string; json: boolean }, io: WatchIo, watcher: Watcher<E>): Promise<number> {
  const controller = new AbortController();
  let interrupted = false;
  const release = io.onInterrupt?.(() => {
    interrupted = true;
    controller.abort();
  });
  try {
    for await (const e of open(controller.signal)) {
      if (cmd.json) io.out(JSON.stringify(e));
      const code = watcher.event(e);
      if (code !== null) return code;
    }
    return EXIT.noAnswer; // not reached: a stream ends with its summary or throws
  } catch (err) {
    if (!(err instanceof NettoolsError)) throw err;
    if (interrupted && err.error.kind === 'aborted') return watcher.interrupted();
    return refused(err, cmd.server, io, cmd.json ? (problem) => io.out(JSON.stringify({ event: 'problem', data: problem })) : null);
  } finally {
    release?.();
  }
}
