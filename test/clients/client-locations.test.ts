import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { entryProblem, NettoolsClient, NettoolsError, type PingLocatedEvent } from '../../clients/typescript/src/index';
import { assertMatchesSchema } from '../support/contract';
import { startLocatedRig, stopLocatedRig, type LocatedRig } from '../support/located-rig';

// The typed client asks a real hub with real agents: a request with `locations` answers each location's
// own body or problem and the verdict, JSON or streamed.
const test = suite<LocatedRig>('typed client with locations against a hub and its agents');

test.before(async (ctx) => {
  Object.assign(ctx, await startLocatedRig('127.0.0.151'));
});

test.after(async (ctx) => {
  await stopLocatedRig(ctx);
});

const client = (rig: LocatedRig) => new NettoolsClient({ baseUrl: rig.hub.base });

test('locations() lists the hub first, then each connected agent with its labels', async (rig) => {
  const answer = await client(rig).locations();
  assert.ok(answer.ok, JSON.stringify(answer));
  assert.equal(answer.value.map((l) => l.name), ['hub', 'ams', 'strict']);
  for (const l of answer.value) assertMatchesSchema('Location', l);
  assert.equal(answer.value[1]!.labels, { country: 'NL', city: 'Amsterdam' });
});

test('ping() with locations answers each location\'s result by name and the reached verdict', async (rig) => {
  const answer = await client(rig).ping({ host: '127.0.0.1', count: 1, locations: ['hub', 'ams'] });
  assert.ok(answer.ok, JSON.stringify(answer));
  assertMatchesSchema('PingLocated', answer.value);
  assert.equal(Object.keys(answer.value.locations), ['hub', 'ams']);
  const ams = answer.value.locations['ams']!;
  assert.is(entryProblem(ams), null);
  assert.ok(!('problem' in ams) && ams.reachable);
  assert.equal(answer.value.verdict, { reached: 2, of: 2 });
});

test('a location that refuses the target is its entry\'s problem, and the verdict counts it', async (rig) => {
  const answer = await client(rig).ping({ host: '127.0.0.1', count: 1, locations: ['hub', 'strict'] });
  assert.ok(answer.ok, JSON.stringify(answer));
  assert.is(entryProblem(answer.value.locations['strict']!)?.code, 'target-forbidden');
  assert.equal(answer.value.verdict, { reached: 1, of: 2 });
});

test('dns() with "all" answers every location and the consistency verdict', async (rig) => {
  const answer = await client(rig).dns({ domain: 'example.test', types: ['A'], locations: 'all' });
  assert.ok(answer.ok, JSON.stringify(answer));
  assert.equal(Object.keys(answer.value.locations).sort(), ['ams', 'hub', 'strict']);
  assert.equal(answer.value.verdict, { consistent: true, answered: 3, of: 3 });
});

test('a location that is not connected is the 400 validation-failed at /locations', async (rig) => {
  const answer = await client(rig).traceroute({ host: '127.0.0.1', locations: ['nowhere'] });
  assert.ok(!answer.ok && answer.error.kind === 'problem');
  assert.is(answer.error.problem.code, 'validation-failed');
  assert.is(answer.error.problem.errors?.[0]?.pointer, '/locations');
});

test('pingStream() with locations yields each location\'s events with its name, its problem too, and ends with locations', async (rig) => {
  const events: PingLocatedEvent[] = [];
  for await (const e of client(rig).pingStream({ host: '127.0.0.1', count: 2, intervalMs: 100, locations: ['ams', 'strict'] })) events.push(e);
  const last = events.at(-1)!;
  assert.is(last.event, 'locations');
  for (const e of events.slice(0, -1)) assert.ok(e.event !== 'locations' && (e.data.location === 'ams' || e.data.location === 'strict'), JSON.stringify(e));
  const at = (location: string) => events.filter((e) => e.event !== 'locations' && e.data.location === location).map((e) => e.event);
  assert.equal(at('ams'), ['start', 'reply', 'reply', 'summary']);
  assert.equal(at('strict'), ['problem']);
  assert.ok(last.event === 'locations' && last.data.verdict.reached === 1 && last.data.verdict.of === 2);
});

test('a located stream refused before its start still throws the problem', async (rig) => {
  try {
    for await (const _ of client(rig).mtrStream({ host: '127.0.0.1', cycles: 1, locations: ['nowhere'] })) assert.unreachable('no event');
    assert.unreachable('thrown');
  } catch (err) {
    assert.ok(err instanceof NettoolsError);
    assert.is(err.error.kind === 'problem' && err.error.problem.code, 'validation-failed');
  }
});

test.run();
