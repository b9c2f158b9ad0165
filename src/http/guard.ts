import type { Exchange } from './exchange';

// Work a handler started and does not wait for: a value now, or a promise. A rejection is a bug on
// this request's path (a store's error, a throw in a later stage): the exchange's fault handler answers
// 500 for it, where otherwise it would be an unhandled rejection, and Node ends the process for those.
export function guardLater(ex: Exchange, started: unknown): void {
  if (started instanceof Promise) started.catch((err: unknown) => ex.fail(err));
}
