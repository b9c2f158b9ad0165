import { readFileSync } from 'node:fs';
import type { Callback, Test } from 'uvu';

// A test that cannot run on this machine is registered as skipped, so that uvu counts it under
// "Skipped:", and says why: it never passes without checking anything. Decided when the file loads.
// `missing` is null where the test can run.
export function testUnless<T>(test: Test<T>, missing: string | null): (name: string, fn: Callback<T>) => void {
  if (missing === null) return (name, fn) => test(name, fn);
  return (name, fn) => {
    console.log(`  skipped: ${name} (${missing})`);
    test.skip(name, fn);
  };
}

// Raw ICMP sockets open as root (or with CAP_NET_RAW, which these tests do not look for).
export function notRoot(): string | null {
  return process.getuid?.() === 0 ? null : 'needs root: raw ICMP sockets';
}

// Where net.ipv4.ping_group_range admits one of this process's groups, nothing refuses it datagram
// ICMP sockets: a test of that refusal has nothing to check.
export function pingGroupAdmitsUs(): string | null {
  const [lo, hi] = readFileSync('/proc/sys/net/ipv4/ping_group_range', 'utf8').trim().split(/\s+/).map(Number) as [number, number];
  const admitted = (process.getgroups?.() ?? []).some((g) => g >= lo && g <= hi);
  return admitted ? `ping_group_range ${lo}-${hi} admits this process's groups: nothing refuses datagram ICMP sockets` : null;
}
