import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { axisFor, escapeXml, renderBarChart, type BarChart } from '../../bench/lib/svg';

const chart: BarChart = {
  title: 'validation: requests/s',
  subtitle: 'POST <body> & more',
  categories: ['1 conn', '64 conn'],
  series: [
    { name: 'nettools', values: [100, 400] },
    { name: 'baseline (unavailable: 503 engine-unavailable)', values: [null, null] },
    { name: 'ceiling', values: [200, 800] },
  ],
  yLabel: 'requests/s',
  scale: 'linear',
  format: (v) => String(v),
};

function bars(svg: string): Array<{ y: number; height: number }> {
  return [...svg.matchAll(/<rect class="bar" x="[\d.]+" y="([\d.]+)" width="[\d.]+" height="([\d.]+)" fill/g)].map((m) => ({ y: Number(m[1]), height: Number(m[2]) }));
}

test('one bar per value, "n/a" per missing value', () => {
  const svg = renderBarChart(chart);
  assert.is(bars(svg).length, 4);
  assert.is(svg.match(/>n\/a</g)?.length, 2);
});

test('bar heights are proportional to the values on a linear scale', () => {
  const [a, b, c, d] = bars(renderBarChart(chart)).map((x) => x.height);
  // Order of drawing: category 1 (nettools, ceiling), category 2 (nettools, ceiling).
  assert.ok(Math.abs((b as number) / (a as number) - 2) < 0.01);
  assert.ok(Math.abs((c as number) / (a as number) - 4) < 0.01);
  assert.ok(Math.abs((d as number) / (a as number) - 8) < 0.01);
});

test('titles, legends and labels are XML-escaped', () => {
  const svg = renderBarChart(chart);
  assert.ok(svg.includes('POST &lt;body&gt; &amp; more'));
  assert.not.ok(svg.includes('<body>'));
  assert.is(escapeXml(`a"b'c`), 'a&quot;b&apos;c');
});

test('the document is one svg element with balanced text elements', () => {
  const svg = renderBarChart(chart);
  assert.ok(svg.startsWith('<svg xmlns="http://www.w3.org/2000/svg"'));
  assert.ok(svg.trimEnd().endsWith('</svg>'));
  assert.is(svg.match(/<text/g)?.length, svg.match(/<\/text>/g)?.length);
});

test('a linear axis starts at 0 and reaches past the largest value', () => {
  const axis = axisFor([3, 47], 'linear', 0, 100);
  assert.is(axis.ticks[0], 0);
  assert.ok((axis.ticks[axis.ticks.length - 1] as number) >= 47);
  assert.is(axis.y(0), 100);
});

test('a log axis spans whole decades around the data', () => {
  const axis = axisFor([250, 4710, 49_000], 'log', 0, 300);
  assert.equal(axis.ticks, [100, 1000, 10_000, 100_000]);
  assert.is(axis.y(100), 300);
  assert.is(axis.y(100_000), 0);
  assert.ok(Math.abs(axis.y(1000) - 200) < 1e-9);
});

test('a chart with nothing measured still renders, with only n/a marks', () => {
  const svg = renderBarChart({ ...chart, series: [{ name: 'nettools', values: [null, null] }] });
  assert.is(bars(svg).length, 0);
  assert.is(svg.match(/>n\/a</g)?.length, 2);
});

test.run();
