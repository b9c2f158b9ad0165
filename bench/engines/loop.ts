import { performance } from 'node:perf_hooks';

export interface LoopResult {
  completed: number;
  failed: number;
  elapsedS: number;
}

// `inFlight` workers each run `once` back to back until the deadline: a closed loop that keeps
// exactly that many operations outstanding, bounded in time, stopping by itself.
export async function closedLoop(inFlight: number, durationS: number, once: () => Promise<boolean>): Promise<LoopResult> {
  const started = performance.now();
  const deadline = started + durationS * 1000;
  let completed = 0;
  let failed = 0;
  const worker = async () => {
    while (performance.now() < deadline) {
      try {
        if (await once()) completed++;
        else failed++;
      } catch {
        failed++;
      }
    }
  };
  await Promise.all(Array.from({ length: inFlight }, worker));
  return { completed, failed, elapsedS: (performance.now() - started) / 1000 };
}

// The same for an API that reports through a callback, driven the way its real caller drives it:
// the next operation starts from the callback, with no promise in between. A callback made at once
// (an operation that could not start) continues on the next turn, so a failing API cannot recurse.
export function closedLoopCallbacks(inFlight: number, durationS: number, once: (done: (ok: boolean) => void) => void): Promise<LoopResult> {
  return new Promise((resolve) => {
    const started = performance.now();
    const deadline = started + durationS * 1000;
    let completed = 0;
    let failed = 0;
    let running = inFlight;
    const next = (): void => {
      if (performance.now() >= deadline) {
        if (--running === 0) resolve({ completed, failed, elapsedS: (performance.now() - started) / 1000 });
        return;
      }
      let inCall = true;
      let ran = false;
      try {
        once((ok) => {
          if (ran) return;
          ran = true;
          if (ok) completed++;
          else failed++;
          if (inCall) setImmediate(next);
          else next();
        });
      } catch {
        failed++;
        if (!ran) setImmediate(next);
      }
      inCall = false;
    };
    for (let i = 0; i < inFlight; i++) next();
  });
}
