// An engine session (a ping in rounds, a trace) as the tool's promise: where a measurement tool crosses
// from the engine's call backs to its async code, through the one edge (util/answer.ts `promised`).
import { promised, type Answer } from '../util/answer';
import { NOT_LISTENING, type CancelToken } from '../util/cancel';

// `start` starts the session with `end`, which settles it once (also from inside `start`, when the engine
// refuses at once), and returns its stop function; settling stops the session, so a tool may end it
// early (a trace whose path is complete). The caller going away settles it with `aborted()`. A throw in
// what the engine calls back is the session's fault already (engines/icmp/pinger.ts), never this edge's.
export function engineSession<T>(cancel: CancelToken, aborted: () => T, start: (end: (outcome: T) => void) => () => void): Promise<T> {
  return promised((done: Answer<T>) => {
    let over = false;
    let stop = NOT_LISTENING;
    let stopListening = NOT_LISTENING;
    const end = (outcome: T): void => {
      if (over) return;
      over = true;
      stopListening();
      stop();
      done(outcome);
    };
    stop = start(end);
    if (over) return stop();
    stopListening = cancel.onAbort(() => end(aborted()));
  });
}
