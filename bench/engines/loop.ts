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
