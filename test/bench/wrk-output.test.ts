import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { loadErrors, parseWrkOutput, requestsPerSecond, type WrkSummary } from '../../bench/lib/wrk';

const summary: WrkSummary = {
  durationUs: 2_000_000,
  requests: 5000,
  bytes: 1_000_000,
  errors: { connect: 0, read: 1, write: 0, status: 4990, timeout: 2 },
  latencyUs: { min: 20, mean: 310.5, max: 9000, p50: 250, p90: 400, p99: 900, p999: 4000 },
};

const humanText = `Running 2s test @ http://127.0.0.1:1234/api/tools/ping
  1 threads and 64 connections
  Thread Stats   Avg      Stdev     Max   +/- Stdev
    Latency   310.50us  100.00us   9.00ms   90.00%
  5000 requests in 2.00s, 0.95MB read
  Non-2xx or 3xx responses: 4990
Requests/sec:   2500.00
`;

test('the WRK_JSON line printed by done() is found among wrk human output', () => {
  const parsed = parseWrkOutput(`${humanText}WRK_JSON ${JSON.stringify(summary)}\n`);
  assert.ok(parsed.ok);
  if (parsed.ok) assert.equal(parsed.summary, summary);
});

test('output without the WRK_JSON line is an error, not zeros', () => {
  const parsed = parseWrkOutput(humanText);
  assert.not.ok(parsed.ok);
  if (!parsed.ok) assert.match(parsed.error, /no WRK_JSON line/);
});

test('a WRK_JSON line that is not JSON is an error', () => {
  const parsed = parseWrkOutput('WRK_JSON {"durationUs":\n');
  assert.not.ok(parsed.ok);
  if (!parsed.ok) assert.match(parsed.error, /not JSON/);
});

test('a summary with a missing field is refused', () => {
  const { bytes: _bytes, ...rest } = summary;
  const parsed = parseWrkOutput(`WRK_JSON ${JSON.stringify(rest)}`);
  assert.not.ok(parsed.ok);
  if (!parsed.ok) assert.match(parsed.error, /bytes/);
});

test('percentiles out of order are refused', () => {
  const bad = { ...summary, latencyUs: { ...summary.latencyUs, p90: 100 } };
  const parsed = parseWrkOutput(`WRK_JSON ${JSON.stringify(bad)}`);
  assert.not.ok(parsed.ok);
  if (!parsed.ok) assert.match(parsed.error, /order/);
});

test('a zero duration is refused (it would divide by zero)', () => {
  const parsed = parseWrkOutput(`WRK_JSON ${JSON.stringify({ ...summary, durationUs: 0 })}`);
  assert.not.ok(parsed.ok);
});

test('requests per second divide requests by the measured duration', () => {
  assert.is(requestsPerSecond(summary), 2500);
});

test('when 400 is expected, responses under 400 are the unexpected ones', () => {
  assert.equal(loadErrors(summary, 400), { connect: 0, read: 1, write: 0, timeout: 2, unexpectedStatus: 10 });
});

test('when 200 is expected, every status >= 400 is unexpected', () => {
  assert.is(loadErrors(summary, 200).unexpectedStatus, 4990);
});

test.run();
