import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { medianRun } from '../../bench/engines/median-run';
import type { DnsEngineRow } from '../../bench/lib/types';

const run = (queriesPerSecond: number): DnsEngineRow['result'] => ({ ok: true, queriesPerSecond, completed: queriesPerSecond, failed: 0, inFlight: 100, durationS: 1 });

test('the median run is the middle one by queries per second, whatever the order', () => {
  assert.equal(medianRun([run(70), run(90), run(50)]), run(70));
});

test('of an even count the lower middle run is taken', () => {
  assert.equal(medianRun([run(40), run(10), run(30), run(20)]), run(20));
});

test('a run that could not be measured is the answer, not outvoted', () => {
  const failed: DnsEngineRow['result'] = { ok: false, unavailable: 'unavailable: dnsperf failed' };
  assert.equal(medianRun([run(70), failed, run(90)]), failed);
});

test('no run at all is unavailable', () => {
  assert.not.ok(medianRun([]).ok);
});

test.run();
