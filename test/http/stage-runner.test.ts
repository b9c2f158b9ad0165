import { test } from 'uvu';
import * as assert from 'uvu/assert';
import type { Exchange } from '../../src/http/exchange';
import { guarded, later, runStages, type Stage } from '../../src/http/pipeline/runner';
import type { Answer } from '../../src/util/answer';

// An exchange reduced to what the runner reads: whether it is still open, and where faults go.
function fakeExchange() {
  const faults: unknown[] = [];
  const ex = { open: true, fail: (err: unknown) => faults.push(err) } as unknown as Exchange & { open: boolean };
  return { ex, faults };
}

const step = (name: string, seen: string[]): Stage<any> => ({ name, run: (_r, next) => (seen.push(name), next()) });

test('stages run in their order, each handing on to the next', () => {
  const seen: string[] = [];
  runStages([step('a', seen), step('b', seen), step('c', seen)], fakeExchange());
  assert.equal(seen, ['a', 'b', 'c']);
});

test('a stage that answers ends the request: later stages do not run', () => {
  const seen: string[] = [];
  const { ex } = fakeExchange();
  const answer: Stage<any> = { name: 'answer', run: () => ((ex as { open: boolean }).open = false) };
  runStages([step('a', seen), answer, step('c', seen)], { ex });
  assert.equal(seen, ['a']);
});

test('a stage that calls next() twice is the exchange\'s fault, and the rest of the route runs once', () => {
  const seen: string[] = [];
  const { ex, faults } = fakeExchange();
  const twice: Stage<any> = { name: 'twice', run: (_r, next) => (next(), next()) };
  runStages([twice, step('after', seen)], { ex });
  assert.equal([seen, faults.map((f) => (f as Error).message)], [['after'], ["stage 'twice' called next() twice"]]);
});

test('a throw in a stage goes to the exchange, and no later stage runs', () => {
  const seen: string[] = [];
  const { ex, faults } = fakeExchange();
  const boom: Stage<any> = { name: 'boom', run: () => { throw new Error('boom'); } };
  runStages([boom, step('after', seen)], { ex });
  assert.equal([seen, (faults[0] as Error).message], [[], 'boom']);
});

test('a stage waiting on a promise is named to the suspended hook, once, and the rest runs when it resolves', async () => {
  const seen: string[] = [];
  const suspended: string[] = [];
  const wait: Stage<any> = { name: 'wait', run: (r, next) => later(r.ex, Promise.resolve(1), () => next()) };
  runStages([step('a', seen), wait, step('c', seen)], fakeExchange(), (_r, at) => suspended.push(at));
  assert.equal([seen, suspended], [['a'], ['wait']]);
  await new Promise((r) => setImmediate(r));
  assert.equal(seen, ['a', 'c']);
});

test('a throw in a stage run from a resolved promise goes to the exchange', async () => {
  const { ex, faults } = fakeExchange();
  const wait: Stage<any> = { name: 'wait', run: (r, next) => later(r.ex, Promise.resolve(1), () => next()) };
  const boom: Stage<any> = { name: 'boom', run: () => { throw new Error('late boom'); } };
  runStages([wait, boom], { ex });
  await new Promise((r) => setImmediate(r));
  assert.is((faults[0] as Error).message, 'late boom');
});

test('a rejection goes to the exchange', async () => {
  const { ex, faults } = fakeExchange();
  runStages([{ name: 'reject', run: (r) => later(r.ex, Promise.reject(new Error('store down')), () => {}) }], { ex });
  await new Promise((r) => setImmediate(r));
  assert.is((faults[0] as Error).message, 'store down');
});

// A store that answers when the test says so, as one across the network does.
function storeAnsweringLater<T>(): { ask(done: Answer<T>): void; answer(a: T | Error): void } {
  let waiting: Answer<T> | null = null;
  return { ask: (done) => void (waiting = done), answer: (a) => (waiting as Answer<T>)(a) };
}

test("a stage waiting on a store's callback is named to the suspended hook, and the rest runs from its answer", () => {
  const seen: string[] = [];
  const suspended: string[] = [];
  const store = storeAnsweringLater<number>();
  const wait: Stage<any> = { name: 'wait', run: (r, next) => store.ask(guarded(r.ex, () => next())) };
  runStages([step('a', seen), wait, step('c', seen)], fakeExchange(), (_r, at) => suspended.push(at));
  assert.equal([seen, suspended], [['a'], ['wait']]);
  store.answer(1);
  assert.equal(seen, ['a', 'c']);
});

test("a store's Error answer goes to the exchange, and no later stage runs", () => {
  const seen: string[] = [];
  const { ex, faults } = fakeExchange();
  const store = storeAnsweringLater<number>();
  runStages([{ name: 'wait', run: (r, next) => store.ask(guarded(r.ex, () => next())) }, step('after', seen)], { ex });
  store.answer(new Error('store down'));
  assert.equal([seen, (faults[0] as Error).message], [[], 'store down']);
});

test("a throw in the continuation of a store's answer goes to the exchange, not back to the store", () => {
  const { ex, faults } = fakeExchange();
  const store = storeAnsweringLater<number>();
  runStages([{ name: 'wait', run: (r) => store.ask(guarded(r.ex, () => { throw new Error('late boom'); })) }], { ex });
  assert.not.throws(() => store.answer(1));
  assert.is((faults[0] as Error).message, 'late boom');
});

test('no suspended hook when every stage ran while the handler was on the stack', () => {
  const suspended: string[] = [];
  runStages([step('a', [])], fakeExchange(), (_r, at) => suspended.push(at));
  assert.equal(suspended, []);
});

test.run();
