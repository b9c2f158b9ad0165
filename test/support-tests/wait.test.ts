import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { sleep, waitFor } from '../support/wait';

test('waitFor returns once the condition holds', async () => {
  let calls = 0;
  await waitFor('the third call', () => ++calls >= 3, { everyMs: 1 });
  assert.is(calls, 3);
});

test('waitFor does not call the condition again after it held', async () => {
  let calls = 0;
  await waitFor('the first call', () => {
    calls++;
    return true;
  });
  await sleep(30);
  assert.is(calls, 1);
});

test('waitFor awaits an async condition', async () => {
  let calls = 0;
  await waitFor('an async yes', async () => ++calls >= 2, { everyMs: 1 });
  assert.is(calls, 2);
});

test('waitFor throws an error naming what it waited for and for how long', async () => {
  const started = Date.now();
  const err = await waitFor('the moon to turn blue', () => false, { timeoutMs: 50, everyMs: 5 }).then(
    () => undefined,
    (e: unknown) => e,
  );
  assert.instance(err, Error);
  assert.match((err as Error).message, /the moon to turn blue/);
  const waited = Number(/waited (\d+) ms/.exec((err as Error).message)?.[1]);
  assert.ok(waited >= 50, (err as Error).message);
  assert.ok(Date.now() - started >= 50);
});

test('waitFor passes on an error thrown by the condition', async () => {
  const err = await waitFor('a broken check', () => {
    throw new Error('check broke');
  }).then(
    () => undefined,
    (e: unknown) => e,
  );
  assert.match((err as Error).message, /check broke/);
});

test('sleep resolves after at least the given time', async () => {
  const started = Date.now();
  await sleep(20);
  assert.ok(Date.now() - started >= 19);
});

test.run();
