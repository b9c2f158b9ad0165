// The engine hands the echoes one of its frames decided to the pinger in one call, as records that state
// their own size (native/icmp/icmp_result_js.h); the pinger gives each to its own ping. An engine of the
// test's own stands in for the addon here, so that a batch can hold exactly what each case needs.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import type { EchoOutcome, EchoReply, Pinger } from '../../src/engines/icmp';
import { pingerOn } from '../../src/engines/icmp/pinger';
import type { EchoReports, NativeIcmpEngine, NativeStats, PingDone } from '../../src/native/icmp-engine';
import { ip } from '../support/address';

const NAMES = ['reply', 'timeout', 'unreachable', 'time-exceeded'];
const NO_TEXT = -2;

// Sessions numbered from 1 as started; what was cancelled; the reports function the pinger gave it.
class HandPackedEngine implements NativeIcmpEngine {
  reports: EchoReports = () => assert.unreachable('no reports function was given');
  cancelled: number[] = [];
  private next = 1;
  ping(_address: Uint8Array, _family: number, _count: number, _intervalMs: number, _timeoutMs: number, _size: number, _ttl: number, _done: PingDone, report?: boolean): number {
    assert.is(report, true, 'a ping with onEcho asks for reports');
    return this.next++;
  }
  trace(): number {
    return this.next++;
  }
  extend(): void {}
  cancel(session: number): void {
    this.cancelled.push(session);
  }
  close(): void {}
  socketKinds(): ReturnType<NativeIcmpEngine['socketKinds']> {
    return { v4: { kind: 'raw', id: 1 }, v6: { kind: 'raw', id: 1 } };
  }
  stats(): NativeStats {
    const none = { inFlight: 0, drops: 0, stray: 0, strayErrors: 0, sent: 0, traceSent: 0 };
    return { v4: { ...none }, v6: { ...none }, sessions: 0 };
  }
}

// One report: its size (numbers after these three, ASCII characters, own texts), session, index, then the
// echo's eight numbers with no sender; a reason goes into the ASCII texts.
function record(session: number, index: number, echo: { status: number; rttMs?: number; reason?: string }): { numbers: number[]; ascii: string } {
  const reason = echo.reason ?? '';
  const numbers = [session, index, echo.status, echo.rttMs ?? -1, -1, -1, NO_TEXT, echo.reason === undefined ? NO_TEXT : reason.length, -1, -1];
  return { numbers: [numbers.length, reason.length, 0, ...numbers], ascii: reason };
}

function batch(...records: Array<{ numbers: number[]; ascii: string }>): [Float64Array, string] {
  const numbers = records.flatMap((r) => r.numbers);
  return [Float64Array.from([numbers.length, ...numbers]), records.map((r) => r.ascii).join('')];
}

interface Watched {
  echoes: EchoReply[];
  outcome: EchoOutcome | null;
  stop: () => void;
}

function setUp(): { engine: HandPackedEngine; pinger: Pinger; watch: (onEcho?: (echo: EchoReply) => void) => Watched } {
  const engine = new HandPackedEngine();
  const pinger = pingerOn((reports) => {
    engine.reports = reports;
    return engine;
  }, NAMES);
  const watch = (onEcho?: (echo: EchoReply) => void): Watched => {
    const w: Watched = { echoes: [], outcome: null, stop: () => undefined };
    w.stop = pinger.start({ address: ip('127.0.0.1'), count: 3, intervalMs: 1000, timeoutMs: 1000, size: 56 }, (o) => (w.outcome = o), (echo) => {
      w.echoes.push(echo);
      onEcho?.(echo);
    });
    return w;
  };
  return { engine, pinger, watch };
}

test('each report of a batch reaches its own ping, in the order the batch holds them', () => {
  const { engine, watch } = setUp();
  const one = watch();
  const two = watch();
  engine.reports(...batch(record(2, 0, { status: 0, rttMs: 0.5 }), record(1, 0, { status: 1 }), record(2, 1, { status: 2, rttMs: 1.25, reason: 'host-unreachable' })));
  assert.equal(one.echoes, [{ seq: 0, status: 'timeout' }]);
  // An error shows its reason, not a round trip (stats.ts toReply).
  assert.equal(two.echoes, [{ seq: 0, status: 'reply', rttMs: 0.5 }, { seq: 1, status: 'unreachable', reason: 'host-unreachable' }]);
});

test('a ping whose echo handler throws ends with a fault, and the reports after it in the batch still reach theirs', () => {
  const { engine, watch } = setUp();
  const one = watch(() => {
    throw new Error('a bug in the handler');
  });
  const two = watch();
  engine.reports(...batch(record(1, 0, { status: 0, rttMs: 0.5 }), record(2, 0, { status: 0, rttMs: 0.75 })));
  assert.ok(one.outcome !== null && !one.outcome.ok && one.outcome.error.code === 'fault', JSON.stringify(one.outcome));
  assert.equal(engine.cancelled, [1]);
  assert.equal(two.echoes, [{ seq: 0, status: 'reply', rttMs: 0.75 }]);
  assert.is(two.outcome, null);
});

test('a report read only in part (an unknown status, its reason never reached) does not shift the one after it', () => {
  const { engine, watch } = setUp();
  const one = watch();
  const two = watch();
  engine.reports(...batch(record(1, 0, { status: 9, reason: 'never-read' }), record(2, 0, { status: 3, rttMs: 2, reason: 'ttl-exceeded' })));
  assert.ok(one.outcome !== null && !one.outcome.ok && one.outcome.error.code === 'fault', JSON.stringify(one.outcome));
  assert.equal(two.echoes, [{ seq: 0, status: 'time-exceeded', reason: 'ttl-exceeded' }]);
});

test('a ping stopped by an earlier report of the same batch gets none of the later ones', () => {
  const { engine, watch } = setUp();
  let two: Watched | null = null;
  watch(() => two?.stop());
  two = watch();
  engine.reports(...batch(record(1, 0, { status: 0, rttMs: 0.5 }), record(2, 0, { status: 0, rttMs: 0.5 })));
  assert.equal(two.echoes, []);
  assert.is(two.outcome, null);
  assert.equal(engine.cancelled, [2]);
});

test('a batch that cannot be read is the fault of every ping that reports, and nothing is thrown back to the engine', () => {
  const { engine, watch } = setUp();
  const one = watch();
  const two = watch();
  const [numbers, ascii] = batch(record(1, 0, { status: 0, rttMs: 0.5 }));
  numbers[1] = 40; // the record claims more numbers than the batch holds
  engine.reports(numbers, ascii);
  for (const w of [one, two]) assert.ok(w.outcome !== null && !w.outcome.ok && w.outcome.error.code === 'fault', JSON.stringify(w.outcome));
  assert.equal(engine.cancelled.sort(), [1, 2]);
  assert.equal(one.echoes, []);
});

test('reports for a session nobody waits for (ended, or never reporting) are passed over', () => {
  const { engine, watch } = setUp();
  const one = watch();
  engine.reports(...batch(record(7, 0, { status: 0, rttMs: 0.5 }), record(1, 0, { status: 0, rttMs: 0.25 })));
  assert.equal(one.echoes, [{ seq: 0, status: 'reply', rttMs: 0.25 }]);
});

test.run();
