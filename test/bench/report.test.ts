import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { buildCharts } from '../../bench/lib/charts';
import { README_BEGIN, README_END, renderReadmeSection, spliceReadme } from '../../bench/lib/report';
import { evaluateTargets } from '../../bench/lib/targets';
import { fullResults, measured, missing, point } from './fixtures';

test('the README section is replaced between its markers and nothing else changes', () => {
  const readme = `# x\n\n## Benchmarks\n\nintro\n\n${README_BEGIN}\nold numbers\n${README_END}\n\n## Layout\n`;
  const out = spliceReadme(readme, 'new numbers');
  assert.is(out, `# x\n\n## Benchmarks\n\nintro\n\n${README_BEGIN}\nnew numbers\n${README_END}\n\n## Layout\n`);
  assert.is(spliceReadme(out, 'newer'), out.replace('new numbers', 'newer'));
});

test('a README without the markers is refused rather than appended to', () => {
  assert.throws(() => spliceReadme('# x\n', 'numbers'), /markers/);
});

test('the section carries the ratios against the baseline and the ceiling', () => {
  const r = fullResults();
  r.targets = evaluateTargets(r);
  const text = renderReadmeSection(r);
  assert.match(text, /\| validation \| 64 \| 120\.0k \| 30\.0k \| 150\.0k \| 4\.00x \| 0\.80x \|/);
  assert.match(text, /\| ping \| 64 \| 30\.0k \| 500 \| — \| 60x \| — \|/);
  assert.match(text, /\*\*met\*\*/);
});

test('nettools variants get their own rows beside the default, only when they were measured', () => {
  const r = fullResults();
  r.targets = evaluateTargets(r);
  assert.not.match(renderReadmeSection(r), 'NETTOOLS_WORKERS=2');
  r.scenarios[0]!.servers.push(measured('nettools-workers2', [point(64, 150_000, 700)]));
  const text = renderReadmeSection(r);
  assert.match(text, '| scenario | nettools | NETTOOLS_WORKERS=2 |');
  assert.match(text, /\| validation \| 120\.0k req\/s, [^|]+ \| 150\.0k req\/s, [^|]+ \|/);
});

test('an unavailable server shows its reason in the table and in the chart legend', () => {
  const r = fullResults();
  r.scenarios[1]!.servers[0] = missing('nettools', 'unavailable: 503 engine-unavailable');
  r.targets = evaluateTargets(r);
  assert.match(renderReadmeSection(r), /\| dns \| 64 \| unavailable: 503 engine-unavailable \| 6\.00k \|/);
  const chart = buildCharts(r).find((c) => c.name === 'dns-throughput.svg')!;
  assert.match(chart.svg, /nettools \(unavailable: 503 engine-unavailable\)/);
});

test('a run with failed responses is marked in the table with their count', () => {
  const r = fullResults();
  r.scenarios[1]!.servers[1] = measured('baseline', [point(1, 3000, 900), point(64, 4160, 321_000, { unexpectedStatus: 3850, timeout: 2 })]);
  r.targets = evaluateTargets(r);
  assert.match(renderReadmeSection(r), /\| dns \| 64 \| 40\.0k \| 4\.16k \(3852 failed\) \|/);
});

test('server CPU per request and busy share are shown at 64 connections, with the resolvers for dns', () => {
  const r = fullResults();
  const dnsOurs = r.scenarios[1]!.servers[0] as { points: Array<{ resolversBusyPercent: number | null }> };
  dnsOurs.points[1]!.resolversBusyPercent = 31.6;
  r.targets = evaluateTargets(r);
  const text = renderReadmeSection(r);
  // 120k req/s: 5 + 3.33 µs per request (the fixture's user and system shares).
  assert.match(text, /\| validation \| 8\.3 µs \(100%\) \| 33\.3 µs \(100%\) \| 6\.7 µs \(100%\) \| — \|/);
  assert.match(text, /\| dns \| 25\.0 µs \(100%\) \| 166\.7 µs \(100%\) \| — \| 32% \|/);
  assert.match(r.targets.find((t) => t.id === 'dns-cpu')!.detail, /nettools 100% busy, Knot resolvers 32%/);
  assert.match(r.targets.find((t) => t.id === 'validation')!.detail, /server CPU 8\.3 vs 7\.0 µs per request/);
});

test('two charts per scenario: throughput per connection count and latency percentiles', () => {
  const names = buildCharts(fullResults()).map((c) => c.name);
  assert.equal(names, ['validation-throughput.svg', 'validation-latency.svg', 'dns-throughput.svg', 'dns-latency.svg', 'ping-throughput.svg', 'ping-latency.svg']);
});

test.run();
