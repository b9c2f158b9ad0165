import { createTurnEnd, type TurnEnd } from '../native/turn-end';

// Responses go out together at the end of the event-loop turn that produced them, not one by one as
// each is ready. Written at once, a loopback or LAN client is woken per response and its next request
// wakes this server again; written as a batch after every ready socket was read, both sides wake once per
// batch, which costs both sides less CPU per request under load (figures in bench/README.md). The wait is
// the rest of the current turn: no timer.
// The end of the turn is the addon's TurnEnd, not setImmediate: uWS leaks every socket that a response
// closes from a setImmediate callback (see native/turn_end.cc).

export interface TurnEndWrite {
  writeNow(): void;
}

let queue: TurnEndWrite[] = [];
let scheduled = false;
let turnEnd: TurnEnd | null = null;

export function writeAtTurnEnd(item: TurnEndWrite): void {
  queue.push(item);
  if (!scheduled) {
    scheduled = true;
    (turnEnd ??= createTurnEnd(flush)).arm();
  }
}

function flush(): void {
  scheduled = false;
  const list = queue;
  queue = [];
  // One write that throws must not leave the others unsent (and their requests hanging).
  let failure: unknown = null;
  for (const item of list) {
    try {
      item.writeNow();
    } catch (error) {
      failure ??= error;
    }
  }
  if (failure !== null) throw failure;
}
