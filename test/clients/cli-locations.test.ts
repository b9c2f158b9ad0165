import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { run } from '../../clients/typescript/src/cli/run';
import { startLocatedRig, stopLocatedRig, type LocatedRig } from '../support/located-rig';

// `nettools … --from` and `nettools locations` against a real hub with real agents on loopback: `ams`
// reaches 127.0.0.1, `strict` refuses it by its own target policy.
const test = suite<LocatedRig>('nettools command line with locations');

test.before(async (ctx) => {
  Object.assign(ctx, await startLocatedRig('127.0.0.153'));
});

test.after(async (ctx) => {
  await stopLocatedRig(ctx);
});

async function cli(args: string[]): Promise<{ code: number; out: string; err: string }> {
  const out: string[] = [];
  const err: string[] = [];
  const code = await run(args, { out: (l) => out.push(l), err: (l) => err.push(l), env: {} });
  return { code, out: out.join('\n'), err: err.join('\n') };
}

test('ping --from prints one block per location, headed by its name, and the verdict line', async ({ hub }) => {
  const r = await cli(['ping', '127.0.0.1', '-c', '1', '--from', 'hub,ams', '--server', hub.base]);
  assert.is(r.code, 0, r.err);
  const blocks = r.out.split(/^== /m).slice(1);
  assert.equal(blocks.map((b) => b.split('\n')[0]), ['hub ==', 'ams ==']);
  for (const b of blocks) assert.match(b, '1 packets transmitted, 1 received, 0% packet loss');
  assert.match(r.out, /^reached from 2 of 2 locations \(quorum 2\)$/m);
});

test('ping --from with a location that refuses the target prints its problem and exits 1', async ({ hub }) => {
  const r = await cli(['ping', '127.0.0.1', '-c', '1', '--from', 'ams,strict', '--server', hub.base]);
  assert.is(r.code, 1);
  assert.match(r.out, /^== strict ==\nproblem: 422 .*\(target-forbidden\)/m);
  assert.match(r.out, 'reached from 1 of 2 locations (quorum 2)');
  assert.match(r.err, 'nettools: 127.0.0.1 was reached from 1 of 2 locations, fewer than 2');
});

test('--quorum 1 exits 0 when one location of two reached the target', async ({ hub }) => {
  const r = await cli(['ping', '127.0.0.1', '-c', '1', '--from', 'ams,strict', '--quorum', '1', '--server', hub.base]);
  assert.is(r.code, 0, r.err);
  assert.match(r.out, 'reached from 1 of 2 locations (quorum 1)');
});

test('trace --from all --json prints the located body', async ({ hub }) => {
  const r = await cli(['trace', '127.0.0.1', '--max-hops', '2', '--from', 'all', '--quorum', '2', '--json', '--server', hub.base]);
  assert.is(r.code, 0, r.err);
  const body = JSON.parse(r.out);
  assert.equal(Object.keys(body.locations).sort(), ['ams', 'hub', 'strict']);
  assert.is(body.locations.hub.destinationReached, true);
  assert.is(body.locations.strict.problem.code, 'target-forbidden');
  assert.equal(body.verdict, { reached: 2, of: 3 });
});

test('mtr --from prints mtr\'s table per location and the verdict line', async ({ hub }) => {
  const r = await cli(['mtr', '127.0.0.1', '-c', '1', '--from', 'hub,ams', '--server', hub.base]);
  assert.is(r.code, 0, r.err);
  assert.equal(r.out.match(/^== [a-z]+ ==$/gm), ['== hub ==', '== ams ==']);
  assert.is(r.out.match(/^\s+1\.\|-- 127\.0\.0\.1 /gm)?.length, 2, r.out);
  assert.match(r.out, /^reached from 2 of 2 locations \(quorum 2\)$/m);
});

test('dns --from 2 prints two locations\' records and the consistency line', async ({ hub }) => {
  const r = await cli(['dns', 'example.test', '--type', 'A', '--from', '2', '--server', hub.base]);
  assert.is(r.code, 0, r.err);
  assert.is(r.out.match(/^== [a-z]+ ==$/gm)?.length, 2);
  assert.is(r.out.match(/example\.test\.\s+\d+\s+IN\s+A\s+192\.0\.2\.10/g)?.length, 2, r.out);
  assert.match(r.out, /^consistent across locations: 2 of 2 answered$/m);
});

test('a location that is not connected is the server\'s refusal: exit 3', async ({ hub }) => {
  const r = await cli(['ping', '127.0.0.1', '--from', 'nowhere', '--server', hub.base]);
  assert.is(r.code, 3);
  assert.match(r.err, '/locations: location nowhere is not connected');
});

test('--quorum without --from, and --quorum with dns, are usage errors', async ({ hub }) => {
  assert.is((await cli(['ping', '127.0.0.1', '--quorum', '1', '--server', hub.base])).code, 2);
  assert.is((await cli(['dns', 'example.test', '--from', 'all', '--quorum', '1', '--server', hub.base])).code, 2);
});

test('locations lists name, labels, tools, version and since as a table', async ({ hub }) => {
  const r = await cli(['locations', '--server', hub.base]);
  assert.is(r.code, 0, r.err);
  const lines = r.out.split('\n');
  assert.match(lines[0]!, /^NAME\s+LABELS\s+TOOLS\s+VERSION\s+SINCE$/);
  assert.equal(lines.slice(1).map((l) => l.split(/\s+/)[0]), ['hub', 'ams', 'strict']);
  assert.match(lines[2]!, /^ams\s+country=NL,city=Amsterdam\s+\S*ping\S*\s+\S+\s+\d{4}-\d\d-\d\dT/);
});

test('locations --json prints the API\'s list', async ({ hub }) => {
  const r = await cli(['locations', '--json', '--server', hub.base]);
  assert.is(r.code, 0, r.err);
  assert.equal(JSON.parse(r.out).map((l: { name: string }) => l.name), ['hub', 'ams', 'strict']);
});

test.run();
