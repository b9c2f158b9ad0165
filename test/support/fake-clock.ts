// A clock the test moves by hand, for code that takes `now: () => number`.
export interface FakeClock {
  now: () => number;
  advance(ms: number): void;
}

export function fakeClock(start = 1_000_000): FakeClock {
  let t = start;
  return {
    now: () => t,
    advance(ms: number) {
      t += ms;
    },
  };
}
