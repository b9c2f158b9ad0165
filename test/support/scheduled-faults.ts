// Loaded with `node --require` into a server under test (and so into each of its worker threads), never
// imported by a test: makes a continuation the server schedules for itself throw, for one marked request
// each (scheduled-fault-marks.ts), the way a bug would.
// - a long ping's later round, from its timer: its target budget throws on the round's 3 echoes to 127.0.0.2;
// - a resolver's answer in a host name's race: the answers to FAULTY_NAME come back unreadable;
// - the ICMP engine's call back: a ping of 127.0.0.3 gets a result that does not unpack.
// Every other request runs as it would.
import type { nativePing, PingDone } from '../../src/engines/icmp/native';
import { TargetBudget } from '../../src/ratelimit/target-budget';
import { Upstream } from '../../src/tools/upstream';
import { FAULTY_CALLBACK, FAULTY_NAME, FAULTY_ROUND } from './scheduled-fault-marks';

const reserve = TargetBudget.prototype.reserve;
TargetBudget.prototype.reserve = function (this: TargetBudget, address, units, done) {
  if (address.text === FAULTY_ROUND.address && units === FAULTY_ROUND.echoes) throw new Error('injected: the later round of a long ping');
  return reserve.call(this, address, units, done);
};

const query = Upstream.prototype.query;
Upstream.prototype.query = function (this: Upstream, request, fresh, done, ...rest) {
  if (request.domain === FAULTY_NAME) return queueMicrotask(() => done(undefined as never));
  return query.call(this, request, fresh, done, ...rest);
};

// The engine's TypeScript side starts each ping through this export, read at every call.
const native = require('../../src/engines/icmp/native') as { nativePing: typeof nativePing };
const start = native.nativePing;
native.nativePing = (engine, options, done, progress) => {
  const faulty = options.address.text === FAULTY_CALLBACK;
  return start(engine, options, faulty ? ((() => (done as (...args: unknown[]) => void)('not a packed result')) as PingDone) : done, progress);
};
