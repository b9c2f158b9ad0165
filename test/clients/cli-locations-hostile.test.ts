import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { cli, CONTROL, pingResult, STACK } from './hostile-answers';
import { json, startHostile, type Hostile } from './hostile-server';

// A server that answers --from or `nettools locations` with another shape, or with terminal controls in a
// location's name: exit 4 and one line, or the name printed with its controls neutralised.
const test = suite<{ hostile: Hostile }>('nettools --from and locations against a hostile server');

test.before(async (ctx) => {
  ctx.hostile = await startHostile();
});

test.after(async (ctx) => {
  await ctx.hostile?.close();
});

test('--from sends the locations asked for, as the API takes them', async ({ hostile }) => {
  hostile.answer(json(200, { locations: { fra1: pingResult() }, verdict: { reached: 1, of: 1 } }));
  hostile.requests.length = 0;
  for (const from of ['fra1,nyc1', 'all', '3']) await cli(['ping', '198.18.0.1', '--from', from, '--server', hostile.base]);
  assert.equal(hostile.requests.map((r) => (r as { locations: unknown }).locations), [['fra1', 'nyc1'], 'all', 3]);
});

test('a located answer whose entry is not a ping result exits 4 with one line', async ({ hostile }) => {
  hostile.answer(json(200, { locations: { fra1: { reachable: 'yes' } }, verdict: { reached: 1, of: 1 } }));
  const r = await cli(['ping', '198.18.0.1', '--from', 'fra1', '--server', hostile.base]);
  assert.is(r.code, 4);
  assert.match(r.err, 'not a ping answer with locations: /locations/fra1/host is not a string');
  assert.is(r.err.split('\n').length, 1);
});

test('a located answer without its verdict exits 4', async ({ hostile }) => {
  hostile.answer(json(200, { locations: { fra1: pingResult() } }));
  const r = await cli(['ping', '198.18.0.1', '--from', 'fra1', '--server', hostile.base]);
  assert.is(r.code, 4);
  assert.match(r.err, '/verdict is not an object');
});

test("a location's name with terminal controls is printed neutralised", async ({ hostile }) => {
  hostile.answer(json(200, { locations: { 'fra\u001b[2J1': pingResult() }, verdict: { reached: 1, of: 1 } }));
  const r = await cli(['ping', '198.18.0.1', '--from', 'all', '--server', hostile.base]);
  assert.is(r.code, 0, r.err);
  assert.match(r.out, /^== fra.*1 ==$/m);
  assert.not.match(r.out, CONTROL);
});

test('locations answered with something else than a list exits 4 with one line', async ({ hostile }) => {
  hostile.answer(json(200, { name: 'local' }));
  const r = await cli(['locations', '--server', hostile.base]);
  assert.is(r.code, 4);
  assert.match(r.err, 'not a list of locations');
  assert.not.match(r.err, STACK);
});

test.run();
