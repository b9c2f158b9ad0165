// Echo reports and results call into JavaScript from inside the engine's timer turn (timeouts) and its
// socket reads (replies). Whatever they do there, cancel another ping, close the engine, start a new ping,
// the engine carries on soundly and calls nobody it should not. Silent hosts in network namespaces.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import type { EchoOptions, EchoOutcome, Pinger } from '../../src/engines/icmp';
import { openPinger } from '../../src/engines/icmp/pinger';
import { netnsTracker, type Netns } from '../support/netns';
import { ip } from '../support/address';

let pinger: Pinger;
let silent: Netns;
const { netns, dropAll } = netnsTracker();

test.before(() => {
  pinger = openPinger();
  silent = netns();
  silent.exec(['iptables', '-A', 'INPUT', '-p', 'icmp', '--icmp-type', 'echo-request', '-j', 'DROP']);
});

test.after(() => {
  dropAll();
  pinger.close();
});

const outcomeOf = (p: Pinger, options: EchoOptions, onEcho?: (seq: number) => void): Promise<EchoOutcome> =>
  new Promise((resolve) => p.start(options, resolve, onEcho && ((echo) => onEcho(echo.seq))));

const lost = (count: number): EchoOptions => ({ address: ip(silent.nsV4), count, intervalMs: 60, timeoutMs: 30, size: 56 });
const looped = (count: number): EchoOptions => ({ address: ip('127.0.0.1'), count, intervalMs: 20, timeoutMs: 1000, size: 56 });

test('a ping cancelled from inside another ping\'s timeout report gets no further report and no result', async () => {
  let stopB = (): void => undefined;
  const bReports: number[] = [];
  let bReportsAtCancel = -1;
  let bDone = false;
  // A outlasts B by one interval: by A's result, B's last timeout would have been reported.
  const a = outcomeOf(pinger, lost(4), (seq) => {
    if (seq !== 0) return;
    bReportsAtCancel = bReports.length;
    stopB();
  });
  stopB = pinger.start(lost(3), () => (bDone = true), (echo) => bReports.push(echo.seq));
  const outcome = await a;
  assert.ok(outcome.ok);
  if (outcome.ok) assert.equal(outcome.echo.replies.map((r) => r.status), Array(4).fill('timeout'));
  assert.is(bReports.length, bReportsAtCancel);
  assert.is(bDone, false);
  assert.is(pinger.stats().sessions, 0);
});

// `pings` pings of `options` on an engine of their own, each of whose reports closes that engine; the same
// ping on the shared engine, started after them, ends past every report they had due. What they reported
// once the witness ended, and how each of them ended.
async function closedFromAReport(options: EchoOptions, pings: number): Promise<{ reports: number[]; outcomes: EchoOutcome[] }> {
  const own = openPinger();
  const reports: number[] = [];
  const outcomes = Promise.all(
    Array.from({ length: pings }, () =>
      outcomeOf(own, options, (seq) => {
        reports.push(seq);
        own.close();
      }),
    ),
  );
  const witness = await outcomeOf(pinger, options);
  assert.ok(witness.ok);
  return { reports, outcomes: await outcomes };
}

test('closing the engine from inside a timeout report, with other pings due in the same turn, reports nothing more', async () => {
  const { reports, outcomes } = await closedFromAReport(lost(3), 3);
  assert.equal(reports, [0]);
  for (const o of outcomes) assert.equal(o.ok ? 'ok' : o.error.code, 'engine-closed');
});

test('closing the engine from inside a reply report, with other replies read in the same turn, reports nothing more', async () => {
  const { reports, outcomes } = await closedFromAReport(looped(3), 20);
  assert.equal(reports, [0]);
  for (const o of outcomes) assert.equal(o.ok ? 'ok' : o.error.code, 'engine-closed');
});

test('a ping started from inside another ping\'s timeout report runs to its result', async () => {
  const started: Array<Promise<EchoOutcome>> = [];
  const first = await outcomeOf(pinger, lost(2), (seq) => {
    if (seq === 0) started.push(outcomeOf(pinger, looped(3)));
  });
  assert.ok(first.ok);
  assert.is(started.length, 1);
  const second = await started[0]!;
  assert.ok(second.ok);
  if (second.ok) assert.equal(second.echo.replies.map((r) => r.status), ['reply', 'reply', 'reply']);
});

test('a ping started from inside another ping\'s reply report runs to its result', async () => {
  const started: Array<Promise<EchoOutcome>> = [];
  const first = await outcomeOf(pinger, looped(2), (seq) => {
    if (seq === 0) started.push(outcomeOf(pinger, { ...looped(3), address: ip('::1') }));
  });
  assert.ok(first.ok);
  assert.is(started.length, 1);
  const second = await started[0]!;
  assert.ok(second.ok);
  if (second.ok) assert.equal(second.echo.replies.map((r) => r.status), ['reply', 'reply', 'reply']);
});

test.run();
