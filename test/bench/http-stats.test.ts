import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { comparePhases, curlPhases, nettoolsPhases, parseCurlOutput, PHASES, type PhaseTimes } from '../../bench/lib/http-stats';
import { countsByLabel, httpChecksByOutcome } from '../../bench/lib/tcp-stats';

// namelookup connect appconnect pretransfer starttransfer total http_code num_connects, as curl -w writes it.
const HTTPS = '0.000020 0.000120 0.002120 0.002200 0.002500 0.002600 200 1';
const HTTP = '0.000020 0.000120 0.000000 0.000150 0.000450 0.000500 200 1';

test("curl's cumulative https times become per-phase microseconds from the end of the one before", () => {
  assert.equal(curlPhases(HTTPS, true), { connect: 100, tls: 2000, firstByte: 300, request: 380, transfer: 100, total: 2580 });
});

test('over http there is no tls phase and the request phase starts at the TCP connection', () => {
  assert.equal(curlPhases(HTTP, false), { connect: 100, firstByte: 300, request: 330, transfer: 50, total: 480 });
});

test('a reused connection, a status other than 200 or an https line without a handshake is not a sample', () => {
  assert.match(curlPhases(HTTP.replace(/ 1$/, ' 0'), false) as string, /opened 0 connections/);
  assert.match(curlPhases(HTTP.replace(' 200 ', ' 404 '), false) as string, /status 404/);
  assert.match(curlPhases(HTTP, true) as string, /no TLS handshake/);
  assert.match(curlPhases('0.1 0.2 x 0.3 0.4 0.5 200 1', false) as string, /not a number/);
  assert.match(curlPhases('0.1 0.2', false) as string, /8 fields/);
});

test("curl's output gives one sample per transfer, and fewer lines than transfers is a failure", () => {
  assert.equal(parseCurlOutput(`${HTTP}\n${HTTP}\n`, false, 2), { ok: true, samples: [curlPhases(HTTP, false) as PhaseTimes, curlPhases(HTTP, false) as PhaseTimes] });
  assert.equal(parseCurlOutput(`${HTTP}\n`, false, 2), { ok: false, error: 'curl wrote 1 timing lines, 2 transfers asked' });
});

test("nettools' ms timings become µs phases, total without resolveMs and request the unreported rest", () => {
  const phases = nettoolsPhases({ resolveMs: 0.02, connectMs: 0.1, tlsMs: 2, firstByteMs: 0.3, transferMs: 0.1, totalMs: 2.6 });
  assert.equal(phases, { connect: 100, tls: 2000, firstByte: 300, request: 380, transfer: 100, total: 2580 });
});

test('nettools timings without a phase an answered check has are refused', () => {
  assert.match(nettoolsPhases({ resolveMs: 0, connectMs: 1, totalMs: 2 }) as string, /lack firstByteMs, transferMs/);
});

test('each phase compares p50 and p99 as nettools over curl, met when the p50 is at most 5 % over curl', () => {
  const curl = Array.from({ length: 100 }, (_, i) => ({ connect: 100 + i, tls: 100 + i, total: 1000 + i }));
  const nettools = curl.map((s, i) => ({ connect: s.connect * 1.05, tls: s.tls * 1.06, total: i >= 98 ? 5000 : s.total }));
  const [connect, tls, total] = comparePhases(nettools, curl);
  assert.equal([connect!.phase, connect!.p50Ratio, connect!.met], ['connect', 1.05, true]);
  assert.equal([tls!.phase, tls!.met], ['tls', false]);
  assert.equal([total!.phase, total!.p50Ratio, total!.met], ['total', 1, true]);
  assert.is(total!.p99Ratio, 5000 / 1098);
});

test('a phase nettools reads below curl is met: the target is the overhead added', () => {
  const [connect] = comparePhases([{ connect: 80 }], [{ connect: 100 }]);
  assert.equal([connect!.p50Ratio, connect!.met], [0.8, true]);
});

test('a phase missing on either side is left out, and a zero reference gives no ratio', () => {
  const rows = comparePhases([{ connect: 5, tls: 10 }], [{ connect: 0 }]);
  assert.equal(rows.map((r) => [r.phase, r.p50Ratio, r.met]), [['connect', null, false]]);
  assert.is(PHASES.length, 6);
});

test("the http check counter is read by outcome, hyphenated outcomes included", () => {
  const metrics = '# HELP x\nnettools_http_check_requests_total{outcome="answered"} 12\nnettools_http_check_requests_total{outcome="connect-refused"} 3\nnettools_tcp_attempts_total{result="connected"} 9\n';
  assert.equal(httpChecksByOutcome(metrics), { answered: 12, 'connect-refused': 3 });
  assert.equal(countsByLabel(metrics, 'nettools_tcp_attempts_total', 'result'), { connected: 9 });
});

test.run();
