// Tests wait for the event they are about, not for a guessed time: on a loaded machine a fixed pause is
// either too short (a flaky failure) or too long (a slow suite). The timeout only bounds a hang.
export interface WaitOptions {
  timeoutMs?: number;
  everyMs?: number;
}

export async function waitFor(
  what: string,
  condition: () => boolean | Promise<boolean>,
  opts: WaitOptions = {},
): Promise<void> {
  const timeoutMs = opts.timeoutMs ?? 10_000;
  const everyMs = opts.everyMs ?? 10;
  const started = Date.now();
  for (;;) {
    if (await condition()) return;
    const waited = Date.now() - started;
    if (waited >= timeoutMs) throw new Error(`timed out waiting for ${what} (waited ${waited} ms)`);
    await sleep(Math.min(everyMs, timeoutMs - waited));
  }
}

// Only for a pause that is the point of a test: checking that nothing happens within a time, or letting
// a configured age or timeout pass. Each caller says which in a comment.
export function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}
