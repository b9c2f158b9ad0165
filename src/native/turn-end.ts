import { addon } from './addon';

// The addon's TurnEnd (native/turn_end.cc): `fire` is called once at the end of the event-loop
// turn in which `arm` was last called, before uWebSockets.js frees the sockets closed in that turn.
export interface TurnEnd {
  arm(): void;
}

export function createTurnEnd(fire: () => void): TurnEnd {
  return new (addon().TurnEnd)(fire);
}
