import type { IcmpTarget } from './icmp-target';

// The fault schedule, one 60 s cycle repeated: a Knot resolver stops answering (SIGSTOP) from second 15
// to 30 and comes back (SIGCONT); the namespace ping target ignores echoes from 35 to 50. The garbage
// resolver misbehaves all the time and is not scheduled.

export const CYCLE_S = 60;
const WINDOWS: Array<{ name: string; from: number; to: number }> = [
  { name: 'resolver-paused', from: 15, to: 30 },
  { name: 'icmp-target-silent', from: 35, to: 50 },
];

export function faultsAt(t: number): string[] {
  const at = t % CYCLE_S;
  return WINDOWS.filter((w) => at >= w.from && at < w.to).map((w) => w.name);
}

export interface FaultSwitches {
  pausedResolverPid: number;
  icmpTarget: IcmpTarget;
}

export class FaultInjector {
  private active = new Set<string>();
  // A switch that could not be thrown (the resolver process gone, ip failing): the run cannot vouch
  // for its faults any more, which fails it.
  readonly problems: string[] = [];
  constructor(private readonly switches: FaultSwitches) {}

  // Brings the faults in line with the schedule at second t; returns the ones in force.
  apply(t: number): string[] {
    const want = new Set(faultsAt(t));
    for (const name of ['resolver-paused', 'icmp-target-silent']) {
      if (want.has(name) !== this.active.has(name)) this.set(name, want.has(name));
    }
    return [...this.active];
  }

  clear(): void {
    for (const name of [...this.active]) this.set(name, false);
  }

  private set(name: string, on: boolean): void {
    try {
      if (name === 'resolver-paused') process.kill(this.switches.pausedResolverPid, on ? 'SIGSTOP' : 'SIGCONT');
      else this.switches.icmpTarget.setSilent(on);
    } catch (err) {
      if (this.problems.length < 10) this.problems.push(`${on ? 'starting' : 'ending'} ${name}: ${err instanceof Error ? err.message : String(err)}`);
    }
    if (on) this.active.add(name);
    else this.active.delete(name);
  }
}
