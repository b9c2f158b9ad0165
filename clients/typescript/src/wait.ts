// Resolves after `seconds`, or early with false when `signal` aborts.
export function wait(seconds: number, signal?: AbortSignal): Promise<boolean> {
  if (signal?.aborted) return Promise.resolve(false);
  return new Promise((resolve) => {
    const done = (finished: boolean) => {
      clearTimeout(timer);
      signal?.removeEventListener('abort', stop);
      resolve(finished);
    };
    const stop = () => done(false);
    const timer = setTimeout(() => done(true), seconds * 1000);
    signal?.addEventListener('abort', stop, { once: true });
  });
}
