import { NettoolsError } from '../error.js';
import type { Deadline } from './deadline.js';
import { EXIT } from './exit-codes.js';
import { refused, type Asked } from './refused.js';
import { eventFault, locatedEventFault, type Tool } from './shapes.js';

export interface WatchIo {
  out(line: string): void;
  err(line: string): void;
  // Calls `stop` on the user's interrupt (Ctrl-C) until the returned function is called.
  onInterrupt?: ((stop: () => void) => () => void) | undefined;
  // Only when stdout is a terminal: clears it and draws these lines from its top (mtr --watch).
  screen?: ((lines: string[]) => void) | undefined;
}

// How one command shows its stream: each event (an exit status ends the watch), and what to say when
// the user interrupted it.
export interface Watcher<E> {
  event(e: E): number | null;
  interrupted(): number;
}

// What a watch needs of its command: whom it asked, how to print, and when to give up.
export interface WatchCommand extends Asked {
  json: boolean;
  tool: Tool;
  deadline: Deadline;
  located?: boolean; // asked with locations: each event of a location, then the `locations` event
}

// One streamed call from the command line: every event to the watcher as it arrives (with --json also
// printed as it came, one JSON a line); Ctrl-C aborts the request, which stops the server's measurement.
// Each event is checked for its shape before the watcher sees it.
export async function watch<E>(open: (signal: AbortSignal) => AsyncIterable<E>, cmd: WatchCommand, io: WatchIo, watcher: Watcher<E>): Promise<number> {
  const controller = new AbortController();
  let interrupted = false;
  const release = io.onInterrupt?.(() => {
    interrupted = true;
    controller.abort();
  });
  const expire = () => controller.abort();
  cmd.deadline.signal.addEventListener('abort', expire, { once: true });
  try {
    for await (const e of open(controller.signal)) {
      const fault = cmd.located === true ? locatedEventFault(cmd.tool, e) : eventFault(cmd.tool, e);
      if (fault !== null) return io.err(`nettools: no usable answer from ${cmd.server}: the stream sent ${fault}`), EXIT.noAnswer;
      if (cmd.json) io.out(JSON.stringify(e));
      const code = watcher.event(e);
      if (code !== null) return code;
    }
    return EXIT.noAnswer; // not reached: a stream ends with its summary or throws
  } catch (err) {
    if (!(err instanceof NettoolsError)) throw err;
    if (interrupted && err.error.kind === 'aborted') return watcher.interrupted();
    if (cmd.deadline.expired) return io.err(`nettools: no answer from ${cmd.server} within the deadline of ${cmd.deadline.ms / 1000} s`), EXIT.noAnswer;
    return refused(err, cmd, io, cmd.json ? (problem) => io.out(JSON.stringify({ event: 'problem', data: problem })) : null);
  } finally {
    cmd.deadline.signal.removeEventListener('abort', expire);
    release?.();
  }
}
