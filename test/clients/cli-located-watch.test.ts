import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { run } from '../../clients/typescript/src/cli/run';
import { startLocatedRig, stopLocatedRig, type LocatedRig } from '../support/located-rig';
import { listenTcp, type TcpListener } from '../support/tcp-listener';
import { startTlsSites, type TlsSites } from '../support/tls-sites';

// `--from` with `--watch`, and `--from` on `nettools tcp` and `nettools tls`, against a real hub with real
// agents on loopback: `ams` reaches 127.0.0.1, `strict` refuses it by its own target policy.
interface Ctx extends LocatedRig {
  listener: TcpListener;
  sites: TlsSites;
}

const test = suite<Ctx>('nettools command line: --from with --watch, tcp and tls');

test.before(async (ctx) => {
  Object.assign(ctx, await startLocatedRig('127.0.0.154'));
  ctx.listener = await listenTcp('127.0.0.1');
  ctx.sites = await startTlsSites();
});

test.after(async (ctx) => {
  await ctx.listener?.stop();
  await ctx.sites?.stop();
  await stopLocatedRig(ctx);
});

interface Options {
  onLine?: (line: string, lines: string[]) => void;
  interrupt?: (stop: () => void) => void;
}

async function cli(args: string[], options: Options = {}): Promise<{ code: number; out: string; err: string }> {
  const out: string[] = [];
  const err: string[] = [];
  const code = await run(args, {
    out: (l) => (out.push(l), options.onLine?.(l, out)),
    err: (l) => void err.push(l),
    env: {},
    onInterrupt: (stop) => (options.interrupt?.(stop), () => undefined),
  });
  return { code, out: out.join('\n'), err: err.join('\n') };
}

const lines = (out: string, prefix: string) => out.split('\n').filter((l) => l.startsWith(prefix));

test('ping --from --watch prints each location\'s replies as they come, led by its name, then each one\'s statistics and the verdict', async ({ hub }) => {
  const r = await cli(['ping', '127.0.0.1', '-c', '3', '--interval', '100', '--from', 'hub,ams', '--watch', '--server', hub.base]);
  assert.is(r.code, 0, r.err);
  for (const name of ['hub', 'ams']) {
    assert.is(lines(r.out, `[${name}] 64 bytes from 127.0.0.1`).length, 3, r.out);
    assert.is(lines(r.out, `[${name}] 3 packets transmitted, 3 received, 0% packet loss`).length, 1, r.out);
  }
  assert.match(r.out, /\n\nreached from 2 of 2 locations \(quorum 2\)$/);
});

test('ping --from --watch prints a location\'s refusal as its problem line and exits 1 below the quorum', async ({ hub }) => {
  const r = await cli(['ping', '127.0.0.1', '-c', '2', '--interval', '100', '--from', 'ams,strict', '--watch', '--server', hub.base]);
  assert.is(r.code, 1);
  assert.match(r.out, /^\[strict\] problem: 422 .*\(target-forbidden\)/m);
  assert.is(lines(r.out, '[ams] 64 bytes from').length, 2);
  assert.match(r.out, 'reached from 1 of 2 locations (quorum 2)');
  assert.match(r.err, 'nettools: 127.0.0.1 was reached from 1 of 2 locations, fewer than 2');
});

test('--quorum 1 with --watch exits 0 when one location of two reached the target', async ({ hub }) => {
  const r = await cli(['ping', '127.0.0.1', '-c', '1', '--from', 'ams,strict', '--quorum', '1', '--watch', '--server', hub.base]);
  assert.is(r.code, 0, r.err);
});

test('ping --from --watch --json prints every event as it came, one JSON a line, the locations event last', async ({ hub }) => {
  const r = await cli(['ping', '127.0.0.1', '-c', '2', '--interval', '100', '--from', 'hub,ams', '--watch', '--json', '--server', hub.base]);
  assert.is(r.code, 0, r.err);
  const events = r.out.split('\n').map((l) => JSON.parse(l) as { event: string; data: Record<string, unknown> });
  assert.is(events.filter((e) => e.event === 'reply').length, 4);
  assert.ok(events.slice(0, -1).every((e) => e.data['location'] === 'hub' || e.data['location'] === 'ams'));
  assert.is(events.at(-1)!.event, 'locations');
  assert.equal(events.at(-1)!.data['verdict'], { reached: 2, of: 2 });
});

test('Ctrl-C during ping --from --watch prints each location\'s statistics so far and exits 0 when all were answered', async ({ hub }) => {
  let stop = () => {};
  // A target of its own: the per-target echo budget of 127.0.0.1 is the other tests'.
  const r = await cli(['ping', '127.0.0.2', '-c', '8', '--interval', '500', '--from', 'hub,ams', '--watch', '--server', hub.base], {
    interrupt: (s) => (stop = s),
    onLine: (_l, out) => ['hub', 'ams'].every((n) => out.some((l) => l.startsWith(`[${n}] 64 bytes`))) && stop(),
  });
  assert.is(r.code, 0, r.err);
  for (const name of ['hub', 'ams']) assert.match(r.out, new RegExp(`^\\[${name}\\] \\d+ packets transmitted, \\d+ received, 0% packet loss`, 'm'));
  assert.not.match(r.out, 'reached from');
});

test('dns --from --watch prints each location\'s answers and the consistency line', async ({ hub }) => {
  const r = await cli(['dns', 'example.test', '--type', 'A', '--from', 'hub,ams', '--watch', '--server', hub.base]);
  assert.is(r.code, 0, r.err);
  for (const name of ['hub', 'ams']) assert.ok(lines(r.out, `[${name}] example.test.`).some((l) => /IN\s+A\s+192\.0\.2\.10/.test(l)), r.out);
  assert.match(r.out, /\n\nconsistent across locations: 2 of 2 answered$/);
});

test('tcp --from --watch prints each location\'s attempts as they end, and the verdict', async ({ hub, listener }) => {
  const r = await cli(['tcp', '127.0.0.1', String(listener.port), '-c', '2', '--interval', '200', '--from', 'hub,ams', '--watch', '--server', hub.base]);
  assert.is(r.code, 0, r.err);
  for (const name of ['hub', 'ams']) assert.is(r.out.split('\n').filter((l) => l.startsWith(`[${name}] `) && l.includes(`127.0.0.1:${listener.port}`) && /seq=\d/.test(l)).length, 2, r.out);
  assert.match(r.out, 'reached from 2 of 2 locations (quorum 2)');
});

test('tcp --from prints one block per location and the verdict line; a location that refuses the target fails the quorum', async ({ hub, listener }) => {
  const r = await cli(['tcp', '127.0.0.1', String(listener.port), '-c', '1', '--from', 'hub,ams,strict', '--server', hub.base]);
  assert.is(r.code, 1);
  assert.equal(r.out.match(/^== [a-z]+ ==$/gm), ['== hub ==', '== ams ==', '== strict ==']);
  assert.match(r.out, /^== strict ==\nproblem: 422 .*\(target-forbidden\)/m);
  assert.match(r.out, 'reached from 2 of 3 locations (quorum 3)');
  const quorum = await cli(['tcp', '127.0.0.1', String(listener.port), '-c', '1', '--from', 'hub,ams,strict', '--quorum', '2', '--json', '--server', hub.base]);
  assert.is(quorum.code, 0, quorum.err);
  assert.equal(JSON.parse(quorum.out).verdict, { reached: 2, of: 3 });
});

test('tls --from prints each location\'s handshake and the verdict line', async ({ hub, sites }) => {
  const r = await cli(['tls', '127.0.0.1', String(sites.ports.good), '--servername', 'good.tls.test', '--from', 'hub,ams', '--server', hub.base]);
  assert.equal(r.out.match(/^== [a-z]+ ==$/gm), ['== hub ==', '== ams ==']);
  assert.match(r.out, 'reached from 2 of 2 locations (quorum 2)');
  // Neither trusts the test CA: each location says so, and the quorum of handshakes decides the exit.
  assert.is(r.code, 0, r.err);
});

test('http --from prints each location\'s answer, a status not expected on stderr per location, and the quorum of answers decides the exit', async ({ hub }) => {
  const url = `${hub.base}/health`;
  const r = await cli(['http', url, '--from', 'hub,ams,strict', '--quorum', '2', '--expect-status', '200', '--server', hub.base]);
  assert.equal(r.out.match(/^== [a-z]+ ==$/gm), ['== hub ==', '== ams ==', '== strict ==']);
  assert.match(r.out, /^== strict ==\nproblem: 422 .*\(target-forbidden\)/m);
  assert.match(r.out, 'reached from 2 of 3 locations (quorum 2)');
  assert.is(r.code, 0, r.err);
  const wrong = await cli(['http', url, '--from', 'hub,ams', '--expect-status', '204', '--server', hub.base]);
  assert.is(wrong.code, 0, wrong.out);
  for (const name of ['hub', 'ams']) assert.match(wrong.err, `nettools: at ${name}: `);
});

test.run();
