// Holds the event loop for `ms`, as a burst of work on a loaded server does: timers come due and
// datagrams arrive meanwhile, and nothing is read until it returns.
export function busy(ms: number): void {
  const until = Date.now() + ms;
  while (Date.now() < until) {
    // spinning on purpose
  }
}
