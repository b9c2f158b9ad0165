import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { medians, pairBlocked, pairedRatio, roundOrder } from '../../bench/lib/pairs';
import { PAIRS } from '../../bench/lib/scenarios';
import { evaluateTargets } from '../../bench/lib/targets';
import { fullResults, missing, pair } from './fixtures';

test('a pair of two servers measured in its scenario can be measured', () => {
  assert.is(pairBlocked({ scenario: 'dns', first: 'nettools', second: 'nettools-redis' }, fullResults().scenarios), null);
});

test('a pair is blocked by a server that was unavailable in its scenario, with its reason', () => {
  const r = fullResults();
  r.scenarios[1]!.servers[2] = missing('nettools-redis', 'unavailable: 503 store-unavailable');
  assert.is(pairBlocked({ scenario: 'dns', first: 'nettools', second: 'nettools-redis' }, r.scenarios), 'nettools-redis dns: unavailable: 503 store-unavailable');
});

test('a pair is blocked by a server that was not run in its scenario', () => {
  assert.is(pairBlocked({ scenario: 'dns', first: 'nettools', second: 'nettools-keyed' }, fullResults().scenarios), 'nettools-keyed was not run for dns');
});

test('medians are taken of requests/s and of CPU per request separately', () => {
  const runs = pair('validation', 'nettools-keyed', [[100, 9], [300, 1], [200, 5]], []).firstRuns;
  assert.equal(medians(runs), { requestsPerSecond: 200, cpuUsPerRequest: 5 });
});

test('the median CPU per request is missing when any run has no CPU reading', () => {
  const runs = pair('validation', 'nettools-keyed', [[100, 9], [300, 1], [200, 5]], []).firstRuns;
  runs[0]!.cpuUsPerRequest = null;
  assert.equal(medians(runs), { requestsPerSecond: 200, cpuUsPerRequest: null });
});

test('the paired ratio is the median of each round\'s ratio, whatever the rounds\' speeds', () => {
  const a = [{ requestsPerSecond: 100, cpuUsPerRequest: 10 }, { requestsPerSecond: 50, cpuUsPerRequest: 20 }, { requestsPerSecond: 10, cpuUsPerRequest: 100 }];
  const b = [{ requestsPerSecond: 90, cpuUsPerRequest: 11 }, { requestsPerSecond: 45, cpuUsPerRequest: 26 }, { requestsPerSecond: 9, cpuUsPerRequest: 105 }];
  assert.is(pairedRatio(b, a, 'cpuUsPerRequest'), 1.1);
  assert.is(pairedRatio(b, a, 'requestsPerSecond'), 0.9);
});

test('the paired ratio is missing when a run has no reading or the rounds do not pair up', () => {
  const a = [{ requestsPerSecond: 100, cpuUsPerRequest: 10 }, { requestsPerSecond: 100, cpuUsPerRequest: null }];
  const b = [{ requestsPerSecond: 90, cpuUsPerRequest: 11 }, { requestsPerSecond: 90, cpuUsPerRequest: 11 }];
  assert.is(pairedRatio(b, a, 'cpuUsPerRequest'), null);
  assert.is(pairedRatio(b.slice(1), a, 'requestsPerSecond'), null);
});

test('the pairs a run measures are the ones the cost targets read', () => {
  const r = fullResults();
  r.pairs = PAIRS.map((p) => pair(p.scenario, p.second, [[100_000, 10]], [[100_000, 10]]));
  const costs = evaluateTargets(r).filter((t) => ['metrics-cost', 'key-cost', 'redis-cost'].includes(t.id));
  assert.equal(costs.map((t) => [t.id, t.status]), [
    ['metrics-cost', 'met'],
    ['key-cost', 'met'],
    ['redis-cost', 'met'],
  ]);
});

test.run();

test('the two servers of a pair take turns at running first', () => {
  assert.equal([0, 1, 2, 3].map((r) => roundOrder(r)[0]), ['first', 'second', 'first', 'second']);
  assert.equal(roundOrder(1), ['second', 'first']);
});
