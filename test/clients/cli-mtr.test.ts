// `nettools mtr` against a real server on loopback (one hop: the target) whose resolver is a loopback
// Knot holding a made-up ASN zone (test/support/loopback-asn.ts): mtr --report's table, --asn, --json,
// --watch as a stream of tables and as a redrawn screen, and the usage errors of its options.
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { run } from '../../clients/typescript/src/cli/run';
import type { KnotServer } from '../support/knot';
import { startAsnKnot, startAsnServer } from '../support/loopback-asn';
import type { RunningServer } from '../support/server';

const test = suite<{ knot: KnotServer; server: RunningServer }>('nettools mtr on loopback');

test.before(async (ctx) => {
  ctx.knot = await startAsnKnot('127.0.0.87');
  ctx.server = await startAsnServer(ctx.knot, true);
});

test.after(async (ctx) => {
  await ctx.server?.stop();
  await ctx.knot?.stop();
});

interface Ran {
  code: number;
  out: string[];
  err: string[];
  frames: string[][];
}

// The CLI in this process, its output captured; `screen`: as on a terminal, each redraw a frame.
async function cli(args: string[], screen = false): Promise<Ran> {
  const ran: Ran = { code: -1, out: [], err: [], frames: [] };
  const io = { out: (l: string) => void ran.out.push(l), err: (l: string) => void ran.err.push(l), env: {}, ...(screen ? { screen: (lines: string[]) => void ran.frames.push(lines) } : {}) };
  ran.code = await run(args, io);
  return ran;
}

const row = (address: string, sent: number, as = '') => new RegExp(`^  1\\.\\|-- ${as}${address.replace(/\./g, '\\.')} +0\\.0%${String(sent).padStart(6)}( +\\d+\\.\\d){5}$`);

test('mtr prints a header and the table mtr --report prints, and exits 0 when the destination answers', async ({ server }) => {
  const r = await cli(['mtr', '127.0.0.2', '-c', '2', '-i', '0.2', '--server', server.base]);
  assert.is(r.code, 0, r.err.join('\n'));
  assert.is(r.out[0], `mtr to 127.0.0.2 (127.0.0.2) via ${server.base}, 2 cycles`);
  assert.match(r.out[1]!, /^ {8}Host +Loss% +Snt +Last +Avg +Best +Wrst +StDev$/);
  assert.match(r.out[2]!, row('127.0.0.2', 2));
  assert.is(r.out.length, 3);
  assert.equal(r.err, []);
});

test('the figures stand under their column titles', async ({ server }) => {
  const r = await cli(['mtr', '127.0.0.2', '--cycles', '1', '--server', server.base]);
  const [head, line] = [r.out[1]!, r.out[2]!];
  for (const title of ['Loss%', 'Snt', 'Last', 'Avg', 'Best', 'Wrst', 'StDev']) {
    const end = head.indexOf(title) + title.length;
    assert.match(line.slice(end - 1, end), /\d|%/, title);
    assert.match(line.slice(end, end + 1), /^( |)$/, title);
  }
});

test('--asn adds an AS column: the origin AS from the zone, AS??? where there is none', async ({ server }) => {
  const found = await cli(['mtr', '127.0.0.2', '-c', '1', '--asn', '--server', server.base]);
  assert.match(found.out[1]!, /^ {8}AS {11}Host/);
  assert.match(found.out[2]!, row('127.0.0.2', 1, 'AS64500 {6}'));
  const none = await cli(['mtr', '127.0.0.3', '-c', '1', '--asn', '--server', server.base]);
  assert.match(none.out[2]!, row('127.0.0.3', 1, 'AS\\?\\?\\? {8}'));
});

test('--json prints the API answer, with the asn asked for', async ({ server }) => {
  const r = await cli(['mtr', '127.0.0.2', '-c', '2', '-i', '0.2', '--asn', '--json', '--server', server.base]);
  assert.is(r.code, 0);
  const body = JSON.parse(r.out.join('\n')) as { cycles: number; hops: Array<{ addresses: unknown[] }> };
  assert.is(body.cycles, 2);
  assert.equal(body.hops[0]!.addresses, [{ address: '127.0.0.2', asn: { number: 64500, prefix: '127.0.0.0/24' }, count: 2 }]);
});

test('--watch off a terminal prints one table per cycle, a blank line between, the figures growing', async ({ server }) => {
  const r = await cli(['mtr', '127.0.0.2', '-c', '3', '--interval', '200', '--watch', '--server', server.base]);
  assert.is(r.code, 0, r.err.join('\n'));
  const tables = r.out.join('\n').split('\n\n').map((t) => t.split('\n'));
  assert.equal(tables.map((t) => t[0]), [1, 2, 3].map((n) => `mtr to 127.0.0.2 (127.0.0.2) via ${server.base}, cycle ${n} of 3`));
  tables.forEach((t, i) => assert.match(t[2]!, row('127.0.0.2', i + 1)));
});

test('--watch on a terminal redraws the screen after each cycle and prints no line', async ({ server }) => {
  const r = await cli(['mtr', '127.0.0.2', '-c', '3', '--interval', '200', '--watch', '--server', server.base], true);
  assert.is(r.code, 0, r.err.join('\n'));
  assert.equal(r.out, []);
  assert.equal(r.frames.map((f) => f[0]), [1, 2, 3].map((n) => `mtr to 127.0.0.2 (127.0.0.2) via ${server.base}, cycle ${n} of 3`));
  r.frames.forEach((f, i) => assert.match(f[2]!, row('127.0.0.2', i + 1)));
});

test('--watch --json prints the events, one JSON a line', async ({ server }) => {
  const r = await cli(['mtr', '127.0.0.2', '-c', '2', '-i', '0.2', '--watch', '--json', '--server', server.base]);
  assert.equal(r.out.map((l) => (JSON.parse(l) as { event: string }).event), ['start', 'cycle', 'cycle', 'summary']);
});

test('trace --asn prints the hop AS after its address, as traceroute -A does', async ({ server }) => {
  const r = await cli(['trace', '127.0.0.2', '--asn', '--probes', '1', '--server', server.base]);
  assert.match(r.out[1]!, /^ 1  127\.0\.0\.2 \[AS64500\]  \d+\.\d{3} ms$/);
});

test('options of other commands, and malformed ones, are usage errors (exit 2)', async ({ server }) => {
  for (const [args, message] of [
    [['--probes', '2'], '--probes does not go with mtr'],
    [['-c', 'x'], '-c must be a whole number, not x'],
    [['-c', '2', '--cycles', '3'], 'choose one of -c and --cycles'],
    [['--consistent'], '--consistent does not go with mtr'],
  ] as const) {
    const r = await cli(['mtr', '127.0.0.2', ...args, '--server', server.base]);
    assert.is(r.code, 2, args.join(' '));
    assert.equal(r.err, [`nettools: ${message} (see nettools mtr --help)`]);
  }
});

test('a cycle count beyond the server bound is refused by the server: exit 3', async ({ server }) => {
  const r = await cli(['mtr', '127.0.0.2', '-c', '11', '--no-wait', '--server', server.base]);
  assert.is(r.code, 3);
  assert.match(r.err.join('\n'), '/cycles');
});

test('mtr --help prints its own options', async () => {
  const r = await cli(['mtr', '--help']);
  assert.is(r.code, 0);
  for (const option of ['--cycles N', '--interval MS', '--max-hops N', '--asn', '--names', 'mtr --report']) assert.match(r.out.join('\n'), option);
});

test.run();
