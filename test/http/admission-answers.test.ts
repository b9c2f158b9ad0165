import { test } from 'uvu';
import * as assert from 'uvu/assert';
import type { Exchange } from '../../src/http/exchange';
import { Admission, type AdmitRefusal } from '../../src/http/pipeline/admit';
import { StoreUnavailableError } from '../../src/ratelimit/failover-store';
import type { AnswerCallback, LimiterStore } from '../../src/ratelimit/limiter-store';
import { MemoryLimiterStore } from '../../src/ratelimit/memory-limiter-store';
import { testConfig } from '../support/server';

// Admission answers through its callback once, whatever its store answers: a refusal, an admission, or an
// Error for a fault; never a throw into the store that answered.

// An exchange reduced to what admission reads and writes.
const exchange = () => ({ startedAt: 0, slotKey: null, lines: () => {} }) as unknown as Exchange;

function collect(): { answers: Array<AdmitRefusal | null | Error>; done: (a: AdmitRefusal | null | Error) => void } {
  const answers: Array<AdmitRefusal | null | Error> = [];
  return { answers, done: (a) => void answers.push(a) };
}

const unavailable = (...args: unknown[]) => (args.at(-1) as AnswerCallback)(new StoreUnavailableError(1));
const closed: LimiterStore = { take: unavailable, spend: unavailable, peek: unavailable, size: 0, prune: () => false };

test('a shared store that cannot be reached is answered as a 503 refusal, once', () => {
  const admission = new Admission(testConfig(), { store: closed });
  const { answers, done } = collect();
  admission.admit(exchange(), 'c', 'default', done);
  assert.equal(answers, [{ code: 'rate-limit-store-unavailable', retryAfterSeconds: 1 }]);
  admission.close();
});

test('a bug after the decision is answered as an Error, once, and the store is not called back again', () => {
  const store = new MemoryLimiterStore({ max: 10 });
  const admission = new Admission(testConfig(), { store }, () => {
    throw new Error('a bug in the listener');
  });
  const { answers, done } = collect();
  assert.not.throws(() => admission.admit(exchange(), 'c', 'default', done));
  assert.is(answers.length, 1);
  assert.match(String(answers[0]), 'a bug in the listener');
  admission.close();
});

test('a token is spent through the callback as it is by admission', () => {
  const admission = new Admission(testConfig({ NETTOOLS_RATE_LIMIT: '1/60s' }));
  const { answers, done } = collect();
  admission.spend('c', 'default', done);
  admission.spend('c', 'default', done);
  assert.equal(answers.map((a) => (a === null ? null : (a as AdmitRefusal).code)), [null, 'rate-limited']);
  admission.close();
});

test.run();
