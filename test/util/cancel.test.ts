import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { CancelSource } from '../../src/util/cancel';

test('abort calls each listener once', () => {
  const source = new CancelSource();
  const calls: string[] = [];
  source.onAbort(() => calls.push('a'));
  source.onAbort(() => calls.push('b'));
  source.abort();
  source.abort();
  assert.equal(calls, ['a', 'b']);
  assert.ok(source.aborted);
});

test('a listener that stopped listening is not called', () => {
  const source = new CancelSource();
  const calls: string[] = [];
  const stop = source.onAbort(() => calls.push('gone'));
  source.onAbort(() => calls.push('kept'));
  stop();
  source.abort();
  assert.equal(calls, ['kept']);
});

test('listening after the abort is called at once', () => {
  const source = new CancelSource();
  source.abort();
  let called = false;
  source.onAbort(() => (called = true));
  assert.ok(called);
});

test('a listener that stops listening while the abort calls it does not keep the next one from being called', () => {
  const source = new CancelSource();
  const called: string[] = [];
  let stopFirst: () => void = () => {};
  stopFirst = source.onAbort(() => {
    called.push('first');
    stopFirst();
  });
  source.onAbort(() => called.push('second'));
  source.abort();
  assert.equal(called, ['first', 'second']);
});

test.run();
