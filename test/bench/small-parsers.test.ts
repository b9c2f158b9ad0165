import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { parseDnsperf } from '../../bench/lib/dnsperf';
import { countOption, parseOptions } from '../../bench/lib/options';
import { problemCode, unavailableReason } from '../../bench/lib/probe';
import { parseVmHWM, readPeakRssKiB, resetPeakRss } from '../../bench/lib/rss';

const dnsperfText = `Statistics:

  Queries sent:         235389
  Queries completed:    235389 (100.00%)
  Queries lost:         0 (0.00%)

  Response codes:       NOERROR 235389 (100.00%)
  Run time (s):         2.002971
  Queries per second:   117519.924153
`;

test('dnsperf statistics are read; output without them is no result', () => {
  assert.equal(parseDnsperf(dnsperfText), { sent: 235389, completed: 235389, lost: 0, runTimeS: 2.002971, queriesPerSecond: 117519.924153 });
  assert.is(parseDnsperf('Error: could not open datafile\n'), null);
});

test('--quick runs fewer connection counts and pair rounds for shorter, full runs 1/16/64/256 for 10 s', () => {
  const quick = parseOptions(['--quick']);
  const full = parseOptions([]);
  assert.ok(typeof quick === 'object' && typeof full === 'object');
  if (typeof quick !== 'object' || typeof full !== 'object') return;
  assert.equal(full.connections, [1, 16, 64, 256]);
  assert.is(full.durationS, 10);
  assert.ok(quick.connections.length < full.connections.length && quick.connections.includes(64));
  assert.ok(quick.durationS < full.durationS && quick.deadlineS < full.deadlineS);
  assert.ok(quick.pairRounds >= 1 && quick.pairRounds < full.pairRounds);
});

test('an unknown argument is refused by name', () => {
  assert.match(parseOptions(['--fast']) as string, /"--fast"/);
});

test('a probe that does not get the expected status and code says what it got', () => {
  const reply = { status: 503, code: 'engine-unavailable', body: '' };
  assert.is(unavailableReason(reply, 200, null), 'unavailable: 503 engine-unavailable');
  assert.is(unavailableReason({ status: 400, code: 'invalid-json', body: '' }, 400, 'validation-failed'), 'unavailable: 400 invalid-json');
  assert.is(unavailableReason({ status: 502, code: null, body: 'Bad Gateway' }, 200, null), 'unavailable: 502 (no code)');
  assert.is(unavailableReason({ status: 200, code: null, body: '{}' }, 200, null), null);
});

test('problemCode reads a problem body’s code and nothing else', () => {
  assert.is(problemCode('{"code":"validation-failed"}'), 'validation-failed');
  assert.is(problemCode('{"code":5}'), null);
  assert.is(problemCode('not json'), null);
});

test('VmHWM is read in KiB from /proc status text', () => {
  assert.is(parseVmHWM('Name:\tnode\nVmPeak:\t  900 kB\nVmHWM:\t   65432 kB\nVmRSS:\t 60000 kB\n'), 65432);
  assert.is(parseVmHWM('Name:\tnode\n'), null);
});

test('the peak RSS of a live process can be reset and read back', () => {
  assert.ok(resetPeakRss(process.pid));
  const peak = readPeakRssKiB(process.pid);
  assert.ok(peak !== null && peak > 0);
  assert.is(readPeakRssKiB(0x7ffffffe), null);
});

test('a count option is read after its name, falls back when absent, and refuses what is not a positive integer', () => {
  assert.is(countOption(['node', 'run.js', '--rounds', '7'], '--rounds', 10), 7);
  assert.is(countOption(['node', 'run.js'], '--rounds', 10), 10);
  assert.throws(() => countOption(['node', 'run.js', '--rounds', '0'], '--rounds', 10), /--rounds wants an integer of at least 1/);
  assert.throws(() => countOption(['node', 'run.js', '--rounds', '2.5'], '--rounds', 10), /--rounds wants an integer of at least 1/);
});

test('a count option may allow 0 when its bench says so, and still refuses below it', () => {
  assert.is(countOption(['node', 'run.js', '--pace-ms', '0'], '--pace-ms', 2, 0), 0);
  assert.throws(() => countOption(['node', 'run.js', '--pace-ms', '-1'], '--pace-ms', 2, 0), /--pace-ms wants an integer of at least 0/);
});

test.run();
