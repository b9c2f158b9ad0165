import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { postJson, request } from '../support/http';
import { assertProblem } from '../support/problem';
import { PausedClockStore } from '../support/paused-clock-store';
import { startServer } from '../support/server';

// Echo budgets on a clock that stands still: a budget of 3 a second holds exactly 3 however long a
// ping takes on a loaded machine.

const PING = '/api/tools/ping';
const quick = { count: 2, intervalMs: 100, timeoutMs: 200 };

test('echoes to one address past the per-target budget are refused with 429 target-rate-limited and Retry-After', async () => {
  const server = await startServer({ NETTOOLS_ALLOW_PRIVATE_TARGETS: 'true', NETTOOLS_TARGET_ECHOES_PER_SECOND: '3' }, undefined, { targetStore: new PausedClockStore() });
  try {
    assert.is((await postJson(server.base, PING, { host: '127.0.0.1', ...quick })).status, 200);
    const refused = await postJson(server.base, PING, { host: '127.0.0.1', ...quick });
    const problem = assertProblem(refused, 429, 'target-rate-limited');
    assert.is(refused.headers['retry-after'], '1');
    assert.match(problem.detail, /per-target echo budget/);
  } finally {
    await server.stop();
  }
});

test('the budget is per target: another address is still served', async () => {
  const server = await startServer({ NETTOOLS_ALLOW_PRIVATE_TARGETS: 'true', NETTOOLS_TARGET_ECHOES_PER_SECOND: '3' }, undefined, { targetStore: new PausedClockStore() });
  try {
    assert.is((await postJson(server.base, PING, { host: '127.0.0.1', ...quick })).status, 200);
    assert.is((await postJson(server.base, PING, { host: '127.0.0.2', ...quick })).status, 200);
  } finally {
    await server.stop();
  }
});

test('the budget is shared by all clients', async () => {
  const server = await startServer({ NETTOOLS_ALLOW_PRIVATE_TARGETS: 'true', NETTOOLS_TARGET_ECHOES_PER_SECOND: '3' }, undefined, { targetStore: new PausedClockStore() });
  try {
    assert.is((await postJson(server.base, PING, { host: '127.0.0.9', ...quick })).status, 200);
    const other = await request(server.base, PING, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ host: '127.0.0.9', ...quick }),
      localAddress: '127.0.0.2',
    });
    assertProblem(other, 429, 'target-rate-limited');
  } finally {
    await server.stop();
  }
});

test('spellings of one address share its budget', async () => {
  const server = await startServer({ NETTOOLS_ALLOW_PRIVATE_TARGETS: 'true', NETTOOLS_TARGET_ECHOES_PER_SECOND: '3' }, undefined, { targetStore: new PausedClockStore() });
  try {
    assert.is((await postJson(server.base, PING, { host: '::1', ...quick })).status, 200);
    assertProblem(await postJson(server.base, PING, { host: '[0:0:0:0:0:0:0:1]', ...quick }), 429, 'target-rate-limited');
  } finally {
    await server.stop();
  }
});

test('a count above the whole per-target budget is a validation error at /count', async () => {
  const server = await startServer({ NETTOOLS_ALLOW_PRIVATE_TARGETS: 'true', NETTOOLS_TARGET_ECHOES_PER_SECOND: '3' }, undefined, { targetStore: new PausedClockStore() });
  try {
    const body = assertProblem(await postJson(server.base, PING, { host: '127.0.0.1', count: 4 }), 400, 'validation-failed');
    assert.is(body.errors[0].pointer, '/count');
  } finally {
    await server.stop();
  }
});

test.run();
