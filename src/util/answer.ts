// The one way a store, a budget or a stage answers: a callback, called exactly once, with the answer or
// why there is none. A store in this process calls it before returning (no promise, no microtask on the
// request path); one across the network calls it later. A callback must not throw into its caller: a
// store calls it last, with its own state already written, and never calls it again.
export type Answer<T> = (answer: T | Error) => void;

// The one edge where something that answers by callback meets an async function (a tool's run): a
// promise of the answer, rejected with its Error.
export function promised<T>(start: (done: Answer<T>) => void): Promise<T> {
  return new Promise((resolve, reject) => start((answer) => (answer instanceof Error ? reject(answer) : resolve(answer))));
}
