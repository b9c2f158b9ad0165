import { addon } from './addon';

// The addon's TurnEnd (native/turn_end.cc): `fire` is called once at the end of the event-loop
// turn in which `arm` was last called, before uWebSockets.js frees the sockets closed in that turn.
export interface TurnEnd {
  arm(): void;
}

type TurnEndClass = new (fire: () => void) => TurnEnd;

export function createTurnEnd(fire: () => void): TurnEnd {
  const ctor = addon().TurnEnd;
  if (typeof ctor !== 'function') throw new Error('the native addon has no TurnEnd export');
  return new (ctor as TurnEndClass)(fire);
}
