import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { closedLoop, closedLoopCallbacks } from '../../bench/engines/loop';
import { fpingRtt, iputilsRtt } from '../../bench/engines/icmp-references';
import { measureInChild } from '../../bench/engines/in-child';
import { measureNodeResolver } from '../../bench/engines/node-resolver';
import { stopAll } from '../../bench/lib/children';
import { runDnsperf } from '../../bench/lib/dnsperf';
import { BENCH_ZONE, startKnot, type KnotSet } from '../../bench/lib/knot';

// The reference measurements run for real, briefly, against loopback only. No speed is asserted:
// only that each produces a measurement from answers it really got.
let knot: KnotSet;
let workDir = '';

test.before(async () => {
  knot = await startKnot(1);
  workDir = mkdtempSync(path.join(tmpdir(), 'nettools-bench-test-'));
});

test.after(async () => {
  await stopAll();
  rmSync(workDir, { recursive: true, force: true });
});

const target = () => ({ address: knot.servers[0]!.address, port: knot.servers[0]!.port, name: BENCH_ZONE, durationS: 0.5, inFlight: 10 });

test('the closed loop keeps going until its deadline and counts successes and failures apart', async () => {
  let calls = 0;
  const r = await closedLoop(3, 0.05, async () => {
    calls++;
    await new Promise((resolve) => setImmediate(resolve));
    if (calls % 4 === 0) throw new Error('boom');
    return calls % 2 === 1;
  });
  assert.is(r.completed + r.failed, calls);
  assert.ok(r.completed > 0 && r.failed > 0);
  assert.ok(r.elapsedS >= 0.05);
});

test('the callback closed loop keeps going until its deadline and counts successes and failures apart', async () => {
  let calls = 0;
  const r = await closedLoopCallbacks(3, 0.05, (done) => {
    calls++;
    if (calls % 5 === 0) throw new Error('boom');
    if (calls % 4 === 0) return done(false); // at once, as an operation that cannot start reports
    setImmediate(() => done(calls % 2 === 1));
  });
  assert.is(r.completed + r.failed, calls);
  assert.ok(r.completed > 0 && r.failed > 0);
  assert.ok(r.elapsedS >= 0.05);
});

test('dns.Resolver against the loopback Knot answers and is counted', async () => {
  const r = await measureNodeResolver(target());
  assert.ok(r.ok, r.ok ? '' : r.unavailable);
  if (r.ok) {
    assert.ok(r.completed > 0);
    assert.is(r.failed, 0);
    assert.is(r.inFlight, 10);
  }
});

test('the native engine measured in a process of its own gets all four questions answered', async () => {
  const r = await measureInChild('native', target());
  assert.ok(r.ok, r.ok ? '' : r.unavailable);
  if (r.ok) {
    assert.ok(r.completed > 0);
    assert.is(r.failed, 0);
    assert.is(r.inFlight % 4, 0);
  }
});

test('dns.Resolver measured in a process of its own answers and is counted', async () => {
  const r = await measureInChild('node-resolver', target());
  assert.ok(r.ok, r.ok ? '' : r.unavailable);
  if (r.ok) assert.ok(r.completed > 0 && r.failed === 0);
});

test('an engine in a process of its own against a port where nothing answers is unavailable, not a number', async () => {
  const r = await measureInChild('native', { ...target(), port: 9, durationS: 0.2, inFlight: 4 });
  assert.not.ok(r.ok);
});

test('dns.Resolver against a port where nothing answers is unavailable, not a number', async () => {
  const r = await measureNodeResolver({ ...target(), port: 9, durationS: 0.2, inFlight: 2 });
  assert.not.ok(r.ok);
});

test('dnsperf against the loopback Knot reports its statistics', async () => {
  const r = await runDnsperf({ ...target(), durationS: 1, workDir });
  assert.ok(r.ok, r.ok ? '' : r.unavailable);
  if (r.ok) assert.ok(r.completed > 0 && r.queriesPerSecond > 0);
});

test('iputils ping and fping give loopback RTT medians from their replies', async () => {
  for (const r of [await iputilsRtt(3), await fpingRtt(3)]) {
    assert.ok(r.ok, r.ok ? '' : r.unavailable);
    if (r.ok) {
      assert.is(r.samples, 3);
      assert.ok(r.rttMedianUs !== null && r.rttMedianUs > 0);
    }
  }
});

test.run();
