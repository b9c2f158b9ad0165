import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { evaluateTargets, pointAt } from '../../bench/lib/targets';
import type { BenchResults, PairRuns } from '../../bench/lib/types';
import { fullResults, measured, missing, pair, point } from './fixtures';

const byId = (r: BenchResults, id: string) => evaluateTargets(r).find((t) => t.id === id)!;

test('every target is met when the numbers clear every bar', () => {
  const targets = evaluateTargets(fullResults());
  assert.equal(targets.map((t) => [t.id, t.status]), [
    ['validation', 'met'],
    ['metrics-cost', 'met'],
    ['key-cost', 'met'],
    ['redis-cost', 'met'],
    ['dns-cpu', 'met'],
    ['dns-tail', 'met'],
    ['ping', 'met'],
    ['dns-engine', 'met'],
    ['rss', 'met'],
    ['ping-rtt', 'met'],
  ]);
});

const pairOf = (r: BenchResults, scenario: string, second: string) => r.pairs.find((p) => p.scenario === scenario && p.second === second) as PairRuns;

test('metrics cost is judged round by round on CPU per request, and the detail shows the medians and req/s beside it', () => {
  const r = fullResults();
  const t = byId(r, 'metrics-cost');
  assert.is(t.status, 'met');
  assert.is(t.detail, "3 rounds of 2 s runs, the two taking turns at going first, cost = median of the rounds' ratios, with metrics vs without: 2.4% cost; medians 8.4 vs 8.2 µs CPU per request, 120.0k vs 122.0k req/s");
});

test('metrics cost is met when CPU per request says 3% even though req/s says 10%', () => {
  const r = fullResults();
  const i = r.pairs.indexOf(pairOf(r, 'validation', 'nettools-nometrics'));
  r.pairs[i] = pair('validation', 'nettools-nometrics', [[90_000, 10.3], [91_000, 10.3], [89_000, 10.3]], [[100_000, 10.0], [99_000, 10.0], [101_000, 10.0]]);
  const t = byId(r, 'metrics-cost');
  assert.is(t.status, 'met');
  assert.match(t.detail, /3\.0% cost; medians 10\.3 vs 10\.0 µs CPU per request, 90\.0k vs 100\.0k req\/s/);
});

test('metrics cost is not met when CPU per request says over 5% even though req/s is level', () => {
  const r = fullResults();
  const i = r.pairs.indexOf(pairOf(r, 'validation', 'nettools-nometrics'));
  r.pairs[i] = pair('validation', 'nettools-nometrics', [[100_000, 10.8], [100_000, 10.8], [100_000, 10.8]], [[100_000, 10.0], [100_000, 10.0], [100_000, 10.0]]);
  const t = byId(r, 'metrics-cost');
  assert.is(t.status, 'not met');
  assert.match(t.detail, /8\.0% cost; medians 10\.8 vs 10\.0 µs CPU per request, 100\.0k vs 100\.0k req\/s/);
});

test('metrics cost ignores a lucky single point of the metrics-off server in the scenario table', () => {
  const r = fullResults();
  r.scenarios[0]!.servers[3] = measured('nettools-nometrics', [point(64, 400_000, 800)]);
  assert.is(byId(r, 'metrics-cost').status, 'met');
});

test('metrics cost is not evaluated without its alternating runs, and says so', () => {
  const r = fullResults();
  r.pairs = r.pairs.filter((p) => p.second !== 'nettools-nometrics');
  const t = byId(r, 'metrics-cost');
  assert.is(t.status, 'not evaluated');
  assert.is(t.detail, 'no alternating runs of nettools and nettools-nometrics (validation) in this run');
});

test('metrics cost is not evaluated when its pair could not be measured, with the reason recorded', () => {
  const r = fullResults();
  const i = r.pairs.indexOf(pairOf(r, 'validation', 'nettools-nometrics'));
  r.pairs[i] = { scenario: 'validation', first: 'nettools', second: 'nettools-nometrics', unavailable: 'nettools-nometrics validation: unavailable: 503 internal' };
  const t = byId(r, 'metrics-cost');
  assert.is(t.status, 'not evaluated');
  assert.match(t.detail, /503 internal/);
});

test('a CPU cost is not evaluated when a run has no CPU reading', () => {
  const r = fullResults();
  pairOf(r, 'validation', 'nettools-keyed').secondRuns[1]!.cpuUsPerRequest = null;
  const t = byId(r, 'key-cost');
  assert.is(t.status, 'not evaluated');
  assert.match(t.detail, /no CPU reading/);
});

test('validation is not met below 2x the baseline, and the detail shows the ratio', () => {
  const r = fullResults();
  const i = r.pairs.indexOf(pairOf(r, 'validation', 'baseline'));
  r.pairs[i] = pair('validation', 'baseline', [[55_000, 10], [55_000, 10], [55_000, 10]], [[30_000, 33], [30_000, 33], [30_000, 33]]);
  const t = byId(r, 'validation');
  assert.is(t.status, 'not met');
  assert.match(t.detail, /1\.83x the baseline's req\/s \(needs 2x; medians 55\.0k vs its 30\.0k req\/s/);
});

test('validation reads each ratio round by round: the median of the rounds, not the ratio of the medians', () => {
  const r = fullResults();
  const i = r.pairs.indexOf(pairOf(r, 'validation', 'baseline'));
  // Medians 60k vs 40k (1.5x); within each round 2.5x, 2.5x and 1x: the median round is 2.5x.
  r.pairs[i] = pair('validation', 'baseline', [[50_000, 10], [100_000, 10], [60_000, 10]], [[20_000, 33], [40_000, 33], [60_000, 33]]);
  const t = byId(r, 'validation');
  assert.is(t.status, 'met');
  assert.match(t.detail, /3 rounds of 2 s runs each, the two taking turns at going first, ratio = median of the rounds' ratios: 2\.50x/);
});

test('validation is not met under 80% of the byte-identical ceiling, and shows the plain one for reference', () => {
  const r = fullResults();
  const i = r.pairs.indexOf(pairOf(r, 'validation', 'ceiling-identical'));
  r.pairs[i] = pair('validation', 'ceiling-identical', [[120_000, 8.3], [120_000, 8.3], [120_000, 8.3]], [[160_000, 7], [160_000, 7], [160_000, 7]]);
  const t = byId(r, 'validation');
  assert.is(t.status, 'not met');
  assert.match(t.detail, /75% of the byte-identical ceiling's \(needs 80%; medians 120\.0k vs its 160\.0k req\/s, server CPU 8\.3 vs 7\.0 µs per request\)/);
  assert.match(t.detail, /80% of the plain ceiling in the scenario's run/);
});

test('validation is not evaluated without the alternating runs beside the byte-identical ceiling', () => {
  const r = fullResults();
  r.pairs = r.pairs.filter((p) => !(p.scenario === 'validation' && p.second === 'ceiling-identical'));
  const t = byId(r, 'validation');
  assert.is(t.status, 'not evaluated');
  assert.match(t.detail, /no alternating runs of nettools and ceiling-identical \(validation\)/);
});

test('dns is judged on server CPU per request against the baseline: over 40% is not met', () => {
  const r = fullResults();
  assert.match(byId(r, 'dns-cpu').detail, /: 15%; medians 25\.0 vs 166\.7 µs per request/);
  const i = r.pairs.indexOf(pairOf(r, 'dns', 'baseline'));
  r.pairs[i] = pair('dns', 'baseline', [[12_000, 70], [12_000, 70], [12_000, 70]], [[6_000, 166.7], [6_000, 166.7], [6_000, 166.7]]);
  assert.is(byId(r, 'dns-cpu').status, 'not met');
});

test('dns CPU reads the median of the rounds\' ratios, with the scenario\'s points beside it', () => {
  const r = fullResults();
  const i = r.pairs.indexOf(pairOf(r, 'dns', 'baseline'));
  // Medians 100 vs 200 µs (50%); within each round 35%, 35% and 100%: the median round is 35%.
  r.pairs[i] = pair('dns', 'baseline', [[10_000, 70], [10_000, 100], [10_000, 140]], [[5_000, 200], [5_000, 286], [5_000, 140]]);
  const t = byId(r, 'dns-cpu');
  assert.is(t.status, 'met');
  assert.match(t.detail, /: 35%; medians 100\.0 vs 200\.0 µs per request.*in the scenario's run 25\.0 vs 166\.7 µs/);
});

test('the dns tail at 256 connections needs p99 <= 100 ms and no failed request', () => {
  const r = fullResults();
  r.scenarios[1]!.servers[0] = measured('nettools', [point(64, 40_000, 4000), point(256, 41_000, 60_000, { timeout: 3 })]);
  assert.match(byId(r, 'dns-tail').detail, /3 failed/);
  assert.is(byId(r, 'dns-tail').status, 'not met');
  r.scenarios[1]!.servers[0] = measured('nettools', [point(64, 40_000, 4000), point(256, 41_000, 140_000)]);
  assert.is(byId(r, 'dns-tail').status, 'not met');
  r.scenarios[1]!.servers[0] = measured('nettools', [point(64, 40_000, 4000)]);
  assert.is(byId(r, 'dns-tail').status, 'not evaluated');
});

test('ping needs 30x and a p99 under 5 ms', () => {
  const r = fullResults();
  r.scenarios[2]!.servers[0] = measured('nettools', [point(64, 14_500, 4000)]);
  assert.is(byId(r, 'ping').status, 'not met');
  r.scenarios[2]!.servers[0] = measured('nettools', [point(64, 30_000, 5000)]);
  assert.is(byId(r, 'ping').status, 'not met');
  assert.match(byId(r, 'ping').detail, /p99 5\.00 ms \(needs < 5 ms\)/);
});

test('peak RSS at 256 connections is judged on the highest scenario', () => {
  const r = fullResults();
  const heavy = point(256, 41_000, 60_000);
  heavy.peakRssKiB = 160 * 1024;
  r.scenarios[1]!.servers[0] = measured('nettools', [point(64, 40_000, 4000), heavy]);
  assert.is(byId(r, 'rss').status, 'not met');
  assert.match(byId(r, 'rss').detail, /highest 160 MB \(dns\)/);
});

test('an unavailable endpoint leaves its target not evaluated, with the reason', () => {
  const r = fullResults();
  r.scenarios[1]!.servers[0] = missing('nettools', 'unavailable: 503 engine-unavailable');
  const t = byId(r, 'dns-cpu');
  assert.is(t.status, 'not evaluated');
  assert.match(t.detail, /503 engine-unavailable/);
});

test('a run with unexpected statuses is not evaluated rather than counted as speed', () => {
  const r = fullResults();
  r.scenarios[2]!.servers[0] = measured('nettools', [point(64, 900_000, 50, { unexpectedStatus: 12 })]);
  const t = byId(r, 'ping');
  assert.is(t.status, 'not evaluated');
  assert.match(t.detail, /12 bad responses/);
});

test('a target at 64 connections is not evaluated when 64 was not run', () => {
  const r = fullResults();
  r.scenarios[0]!.servers[0] = measured('nettools', [point(1, 20_000, 100)]);
  assert.is(byId(r, 'validation').status, 'not evaluated');
  assert.not.ok(pointAt(r, 'validation', 'nettools', 64).ok);
});

test('the DNS engine must reach 85% of dnsperf and beat dns.Resolver', () => {
  const r = fullResults();
  r.engines.dns[0] = { name: 'native', result: { ok: true, queriesPerSecond: 250_000, completed: 1, failed: 0, inFlight: 100, durationS: 5 } };
  assert.is(byId(r, 'dns-engine').status, 'not met');
  r.engines.dns[0] = { name: 'native', result: { ok: true, queriesPerSecond: 260_000, completed: 1, failed: 0, inFlight: 100, durationS: 5 } };
  r.engines.dns[2] = { name: 'node-resolver', result: { ok: true, queriesPerSecond: 270_000, completed: 1, failed: 0, inFlight: 100, durationS: 5 } };
  assert.is(byId(r, 'dns-engine').status, 'not met');
});

test('the DNS engine target says when its figures are medians of alternating runs', () => {
  const r = fullResults();
  assert.not.match(byId(r, 'dns-engine').detail, /medians/);
  r.engines.dns[0] = { ...r.engines.dns[0]!, runs: 3 };
  assert.match(byId(r, 'dns-engine').detail, /90% of dnsperf's 300\.0k \(medians of 3 alternating runs each\)/);
});

test('the DNS engine target reads the median of its rounds\' ratios when it and dnsperf took turns', () => {
  const r = fullResults();
  // Medians of the runs: 120k vs 280k (43%); within each round 90%, 90% and 40%: the median round is 90%.
  r.engines.dns[0] = { name: 'native', runs: 3, roundQps: [90_000, 180_000, 120_000], result: { ok: true, queriesPerSecond: 120_000, completed: 1, failed: 0, inFlight: 100, durationS: 3 } };
  r.engines.dns[1] = { name: 'dnsperf', runs: 3, roundQps: [100_000, 200_000, 300_000], result: { ok: true, queriesPerSecond: 200_000, completed: 1, failed: 0, inFlight: 100, durationS: 3 } };
  const t = byId(r, 'dns-engine');
  assert.is(t.status, 'met');
  assert.match(t.detail, /90% of dnsperf's 200\.0k \(median of 3 rounds' ratios/);
});

test('a DNS engine round whose run failed counts as a ratio of 0', () => {
  const r = fullResults();
  r.engines.dns[0] = { name: 'native', runs: 3, roundQps: [0, 0, 270_000], result: { ok: true, queriesPerSecond: 270_000, completed: 1, failed: 0, inFlight: 100, durationS: 3 } };
  r.engines.dns[1] = { name: 'dnsperf', runs: 3, roundQps: [300_000, 300_000, 300_000], result: { ok: true, queriesPerSecond: 300_000, completed: 1, failed: 0, inFlight: 100, durationS: 3 } };
  assert.is(byId(r, 'dns-engine').status, 'not met');
});

test('an engine that is not built leaves the DNS engine target not evaluated', () => {
  const r = fullResults();
  r.engines.dns[0] = { name: 'native', result: { ok: false, unavailable: 'unavailable: engine not built' } };
  const t = byId(r, 'dns-engine');
  assert.is(t.status, 'not evaluated');
  assert.match(t.detail, /engine not built/);
});

test('the RTT target uses the endpoint’s median and allows 20 µs either way', () => {
  const r = fullResults();
  assert.match(byId(r, 'ping-rtt').detail, /endpoint median 25\.0 µs vs iputils 13\.0 µs \(\+12\.0 µs\)/);
  r.engines.icmp[1] = { name: 'nettools-endpoint', result: { ok: true, echoesPerSecond: null, rttMedianUs: 34, samples: 20 } };
  assert.is(byId(r, 'ping-rtt').status, 'not met');
});

test('the RTT target falls back to the native engine when the endpoint is unavailable', () => {
  const r = fullResults();
  r.engines.icmp[1] = { name: 'nettools-endpoint', result: { ok: false, unavailable: 'unavailable: 503 engine-unavailable' } };
  const t = byId(r, 'ping-rtt');
  assert.is(t.status, 'met');
  assert.match(t.detail, /native engine median 20\.0 µs/);
});

test('the RTT target is not evaluated with neither the endpoint nor the engine', () => {
  const r = fullResults();
  r.engines.icmp[0] = { name: 'native', result: { ok: false, unavailable: 'unavailable: engine not built' } };
  r.engines.icmp[1] = { name: 'nettools-endpoint', result: { ok: false, unavailable: 'unavailable: 503 engine-unavailable' } };
  assert.is(byId(r, 'ping-rtt').status, 'not evaluated');
});

test('the key path is judged round by round on CPU per request, and is not met above 5% cost', () => {
  const r = fullResults();
  assert.is(byId(r, 'key-cost').status, 'met');
  assert.is(byId(r, 'key-cost').detail, "3 rounds of 2 s runs, the two taking turns at going first, cost = median of the rounds' ratios, keyed vs anonymous: 3.6% cost; medians 8.6 vs 8.3 µs CPU per request, 117.0k vs 120.0k req/s");
  pairOf(r, 'validation', 'nettools-keyed').secondRuns.forEach((run) => (run.cpuUsPerRequest = 8.8));
  assert.is(byId(r, 'key-cost').status, 'not met');
});

test('the key path is met when CPU per request says 3% even though req/s says 10%', () => {
  const r = fullResults();
  const i = r.pairs.indexOf(pairOf(r, 'validation', 'nettools-keyed'));
  r.pairs[i] = pair('validation', 'nettools-keyed', [[100_000, 10.0], [100_000, 10.0], [100_000, 10.0]], [[90_000, 10.3], [90_000, 10.3], [90_000, 10.3]]);
  assert.is(byId(r, 'key-cost').status, 'met');
});

test('the key path is not met when CPU per request says 8% even though req/s says 2%', () => {
  const r = fullResults();
  const i = r.pairs.indexOf(pairOf(r, 'validation', 'nettools-keyed'));
  r.pairs[i] = pair('validation', 'nettools-keyed', [[100_000, 10.0], [100_000, 10.0], [100_000, 10.0]], [[98_000, 10.8], [98_000, 10.8], [98_000, 10.8]]);
  const t = byId(r, 'key-cost');
  assert.is(t.status, 'not met');
  assert.match(t.detail, /8\.0% cost; medians 10\.8 vs 10\.0 µs CPU per request, 98\.0k vs 100\.0k req\/s/);
});

test('a cost is read round by round: a run on a faster moment of the machine does not hide it', () => {
  const r = fullResults();
  const i = r.pairs.indexOf(pairOf(r, 'validation', 'nettools-keyed'));
  // Each round the keyed server costs 8% more; in the third the machine was faster for the keyed run.
  r.pairs[i] = pair('validation', 'nettools-keyed', [[100_000, 10.0], [80_000, 14.0], [60_000, 18.0]], [[93_000, 10.8], [74_000, 15.12], [90_000, 12.0]]);
  const t = byId(r, 'key-cost');
  assert.is(t.status, 'not met');
  assert.match(t.detail, /8\.0% cost; medians 12\.0 vs 14\.0 µs CPU per request/);
});

test('the key path is not evaluated when the keyed server was not measured', () => {
  const r = fullResults();
  r.pairs = r.pairs.filter((p) => p.second !== 'nettools-keyed');
  const t = byId(r, 'key-cost');
  assert.is(t.status, 'not evaluated');
  assert.match(t.detail, /nettools-keyed/);
});

test('the Redis cost is read round by round from alternating runs of validation and dns, with CPU beside it', () => {
  const r = fullResults();
  const t = byId(r, 'redis-cost');
  assert.is(t.status, 'met');
  assert.match(t.detail, /validation \(3 rounds of 2 s runs, the two taking turns at going first, cost = median of the rounds' ratios\): 9\.9% fewer req\/s; medians 108\.0k vs 120\.0k req\/s, nettools CPU 9\.3 vs 8\.3 µs per request/);
  assert.match(t.detail, /dns \(3 rounds of 2 s runs, the two taking turns at going first, cost = median of the rounds' ratios\): 10\.0% fewer req\/s; medians 36\.0k vs 40\.0k req\/s, nettools CPU 27\.8 vs 25\.0 µs per request/);
  assert.match(t.detail, /redis-server's own CPU is in neither and ran on the same cores/);
});

test('the Redis cost ignores the single points at 64 connections in the scenario table', () => {
  const r = fullResults();
  r.scenarios[1]!.servers[2] = measured('nettools-redis', [point(64, 20_000, 4500)]);
  assert.is(byId(r, 'redis-cost').status, 'met');
});

test('the Redis cost is not met when either scenario loses over 15% req/s, whatever the CPU says', () => {
  const r = fullResults();
  const i = r.pairs.indexOf(pairOf(r, 'dns', 'nettools-redis'));
  r.pairs[i] = pair('dns', 'nettools-redis', [[40_000, 25.0], [40_000, 25.0], [40_000, 25.0]], [[33_000, 25.0], [50_000, 25.0], [32_000, 25.0]]);
  const t = byId(r, 'redis-cost');
  assert.is(t.status, 'not met');
  assert.match(t.detail, /dns \(3 rounds of 2 s runs, the two taking turns at going first, cost = median of the rounds' ratios\): 17\.5% fewer req\/s; medians 33\.0k vs 40\.0k req\/s/);
});

test('the Redis cost is not evaluated when either scenario has no alternating runs, with the reason', () => {
  const r = fullResults();
  const i = r.pairs.indexOf(pairOf(r, 'dns', 'nettools-redis'));
  r.pairs[i] = { scenario: 'dns', first: 'nettools', second: 'nettools-redis', unavailable: 'nettools-redis dns: unavailable: 503 store-unavailable' };
  const t = byId(r, 'redis-cost');
  assert.is(t.status, 'not evaluated');
  assert.match(t.detail, /503 store-unavailable/);
  r.pairs.splice(i, 1);
  assert.is(byId(r, 'redis-cost').detail, 'no alternating runs of nettools and nettools-redis (dns) in this run');
});

test.run();
