import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { MAX_LISTED_ERRORS } from '../../src/validation/validator';
import { assertMatchesSchema } from '../support/contract';
import { postJson } from '../support/http';
import { assertProblem } from '../support/problem';
import { startServer, type RunningServer } from '../support/server';

// A body with thousands of wrong parts gets an answer of a few hundred bytes: at most ten errors are
// listed, and `unlistedErrors` counts the rest. No resolver is asked: every body here is refused first.
const test = suite<{ server: RunningServer }>('a 400 lists a bounded number of errors');

test.before(async (ctx) => {
  ctx.server = await startServer({ NETTOOLS_RATE_LIMIT: '1000/1s' });
});

test.after(async (ctx) => {
  await ctx.server?.stop();
});

test('a 4 KiB body of a thousand wrong items gets ten errors and the count of the rest', async ({ server }) => {
  const body = JSON.stringify({ domain: 'a.test', types: Array(1000).fill(1), resolvers: Array(500).fill('x') });
  assert.ok(body.length <= 4096);
  const reply = await postJson(server.base, '/api/tools/dns', body);
  const problem = assertProblem(reply, 400, 'validation-failed');
  assertMatchesSchema('Problem', problem);
  assert.is(problem.errors.length, MAX_LISTED_ERRORS);
  // Every item is wrong twice (its type, and not in the enum): counted once per distinct error.
  assert.ok(problem.unlistedErrors >= 1500 - MAX_LISTED_ERRORS, String(problem.unlistedErrors));
  assert.match(problem.detail, `the first ${MAX_LISTED_ERRORS} of ${MAX_LISTED_ERRORS + problem.unlistedErrors}`);
  assert.ok(reply.text.length < 2048, `${reply.text.length} bytes`);
});

test('a body with hundreds of unknown fields gets ten of them listed', async ({ server }) => {
  const body = JSON.stringify(Object.fromEntries(Array.from({ length: 400 }, (_, i) => [`f${i}`, 1])));
  const problem = assertProblem(await postJson(server.base, '/api/tools/ping', body), 400, 'validation-failed');
  assert.equal(problem.errors.slice(0, 2), [{ pointer: '/host', message: 'is required' }, { pointer: '/f0', message: 'is not a known field' }]);
  assert.is(problem.errors.length + problem.unlistedErrors, 401);
});

test('a body with a few errors lists each of them and no count', async ({ server }) => {
  const problem = assertProblem(await postJson(server.base, '/api/tools/ping', { host: 'a b', count: 99, size: -1 }), 400, 'validation-failed');
  assert.equal(problem.errors.map((e: { pointer: string }) => e.pointer).sort(), ['/count', '/host', '/size']);
  assert.not.ok('unlistedErrors' in problem);
  assert.is(problem.detail, 'the request body does not match the schema; see errors');
});

test.run();
