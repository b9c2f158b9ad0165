import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { busyPercent, cpuUse, parseProcStat, readCpuTicks } from '../../bench/lib/cpu';

// /proc/<pid>/stat with a command name holding spaces and a parenthesis; utime 1200, stime 300,
// cutime 50, cstime 25 (fields 14-17).
const STAT = '4242 (node (a b)) S 1 4242 4242 0 -1 4194304 5000 0 0 0 1200 300 50 25 20 0 11 0 100 1000000 5000 18446744073709551615';

test('user and system ticks are read after the command name, reaped children included', () => {
  assert.equal(parseProcStat(STAT), { user: 1250, system: 325 });
});

test('stat text without the closing parenthesis or with missing fields is no reading', () => {
  assert.is(parseProcStat('4242 node S 1'), null);
  assert.is(parseProcStat('4242 (node) S 1 2 3'), null);
});

test('CPU per request and busy share come from tick differences, requests and wall time', () => {
  // 100 user + 50 system ticks = 1.5 s of CPU over 2 s of wall time and 100000 requests.
  const use = cpuUse({ user: 1000, system: 500 }, { user: 1100, system: 550 }, 100_000, 2);
  assert.ok(use);
  assert.is(use!.userUsPerRequest, 10);
  assert.is(use!.systemUsPerRequest, 5);
  assert.is(use!.busyPercent, 75);
});

test('no reading, no requests or no time is no CPU figure', () => {
  assert.is(cpuUse(null, { user: 1, system: 1 }, 10, 1), null);
  assert.is(cpuUse({ user: 1, system: 1 }, { user: 2, system: 2 }, 0, 1), null);
  assert.is(busyPercent([{ user: 0, system: 0 }, null], [{ user: 1, system: 1 }, { user: 1, system: 1 }], 1), null);
});

test('several processes add up to one busy share', () => {
  assert.is(busyPercent([{ user: 0, system: 0 }, { user: 10, system: 0 }], [{ user: 20, system: 10 }, { user: 30, system: 0 }], 1), 50);
});

test('this process can be read, and its CPU only grows', () => {
  const before = readCpuTicks(process.pid);
  const until = Date.now() + 50;
  while (Date.now() < until); // burn a few ticks
  const after = readCpuTicks(process.pid);
  assert.ok(before && after);
  assert.ok(after!.user + after!.system >= before!.user + before!.system);
});

test.run();
