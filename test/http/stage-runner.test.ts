import { test } from 'uvu';
import * as assert from 'uvu/assert';
import type { Exchange } from '../../src/http/exchange';
import { guarded, later, NEXT, runStages, type Stage } from '../../src/http/pipeline/runner';
import type { Answer } from '../../src/util/answer';

// An exchange reduced to what the runner reads: whether it is still open, and where faults go.
function fakeExchange() {
  const faults: unknown[] = [];
  const ex = { open: true, fail: (err: unknown) => faults.push(err) } as unknown as Exchange & { open: boolean };
  return { ex, faults };
}

const step = (name: string, seen: string[]): Stage<any> => ({ name, run: () => (seen.push(name), NEXT) });

test('stages run in their order, each handing on to the next', () => {
  const seen: string[] = [];
  runStages([step('a', seen), step('b', seen), step('c', seen)], fakeExchange());
  assert.equal(seen, ['a', 'b', 'c']);
});

test('a stage that answers ends the request: later stages do not run', () => {
  const seen: string[] = [];
  const { ex } = fakeExchange();
  const answer: Stage<any> = { name: 'answer', run: () => void ((ex as { open: boolean }).open = false) };
  runStages([step('a', seen), answer, step('c', seen)], { ex });
  assert.equal(seen, ['a']);
});

test('a stage that resumes twice is the exchange\'s fault, and the rest of the route runs once', () => {
  const seen: string[] = [];
  const { ex, faults } = fakeExchange();
  const twice: Stage<any> = { name: 'twice', run: (_r, ctl) => { const next = ctl.pause(); next(); next(); } };
  runStages([twice, step('after', seen)], { ex });
  assert.equal([seen, faults.map((f) => (f as Error).message)], [['after'], ["stage 'twice' handed on twice"]]);
});

test('a stage that resumes and also returns NEXT is the exchange\'s fault, and the rest of the route runs once', () => {
  const seen: string[] = [];
  const { ex, faults } = fakeExchange();
  const both: Stage<any> = { name: 'both', run: (_r, ctl) => (ctl.pause()(), NEXT) };
  runStages([both, step('after', seen)], { ex });
  assert.equal([seen, faults.map((f) => (f as Error).message)], [['after'], ["stage 'both' handed on twice"]]);
});

test('a stage that pauses twice is the exchange\'s fault, and the rest of the route does not run', () => {
  const seen: string[] = [];
  const { ex, faults } = fakeExchange();
  const twice: Stage<any> = { name: 'twice', run: (_r, ctl) => { ctl.pause(); ctl.pause(); } };
  runStages([twice, step('after', seen)], { ex });
  assert.equal([seen, faults.map((f) => (f as Error).message)], [[], ["stage 'twice' handed on twice"]]);
});

test('a stage that resumes twice from a later callback is the exchange\'s fault, and the rest runs once', () => {
  const seen: string[] = [];
  const { ex, faults } = fakeExchange();
  const store = storeAnsweringLater<number>();
  const twice: Stage<any> = { name: 'twice', run: (r, ctl) => { const next = ctl.pause(); store.ask(guarded(r.ex, () => { next(); next(); })); } };
  const wait: Stage<any> = { name: 'wait', run: (_r, ctl) => void ctl.pause() };
  runStages([twice, wait, step('after', seen)], { ex });
  store.answer(1);
  assert.equal([seen, faults.map((f) => (f as Error).message)], [[], ["stage 'twice' handed on twice"]]);
});

test('pause() outside a stage\'s run is the caller\'s error', () => {
  let kept: { pause(): unknown } | null = null;
  runStages([{ name: 'keeps', run: (_r, ctl) => void (kept = ctl) }], fakeExchange());
  assert.throws(() => (kept as { pause(): unknown }).pause(), /outside a stage/);
});

test('a store that answers at once resumes the route inside the stage, and it runs on to the end', () => {
  const seen: string[] = [];
  const suspended: string[] = [];
  const now: Stage<any> = { name: 'now', run: (r, ctl) => guarded(r.ex, () => ctl.pause()())(1) };
  runStages([step('a', seen), now, step('c', seen)], fakeExchange(), (_r, at) => suspended.push(at));
  assert.equal([seen, suspended], [['a', 'c'], []]);
});

test('a route of more stages than the runner tracks is refused before any runs', () => {
  const seen: string[] = [];
  const stages = Array.from({ length: 16 }, (_, i) => step(`s${i}`, seen));
  assert.throws(() => runStages(stages, fakeExchange()), /at most 15/);
  assert.equal(seen, []);
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
  const wait: Stage<any> = { name: 'wait', run: (r, ctl) => later(r.ex, Promise.resolve(1), ctl.pause()) };
  runStages([step('a', seen), wait, step('c', seen)], fakeExchange(), (_r, at) => suspended.push(at));
  assert.equal([seen, suspended], [['a'], ['wait']]);
  await new Promise((r) => setImmediate(r));
  assert.equal(seen, ['a', 'c']);
});

test('a throw in a stage run from a resolved promise goes to the exchange', async () => {
  const { ex, faults } = fakeExchange();
  const wait: Stage<any> = { name: 'wait', run: (r, ctl) => later(r.ex, Promise.resolve(1), ctl.pause()) };
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
  const wait: Stage<any> = { name: 'wait', run: (r, ctl) => store.ask(guarded(r.ex, ctl.pause())) };
  runStages([step('a', seen), wait, step('c', seen)], fakeExchange(), (_r, at) => suspended.push(at));
  assert.equal([seen, suspended], [['a'], ['wait']]);
  store.answer(1);
  assert.equal(seen, ['a', 'c']);
});

test("a store's Error answer goes to the exchange, and no later stage runs", () => {
  const seen: string[] = [];
  const { ex, faults } = fakeExchange();
  const store = storeAnsweringLater<number>();
  runStages([{ name: 'wait', run: (r, ctl) => store.ask(guarded(r.ex, ctl.pause())) }, step('after', seen)], { ex });
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
