// `nettools trace` against a real server that traces through a routed path of namespaces (trace-rig.ts):
// traceroute -n's lines, --watch, --json, and each exit status.
import { spawn } from 'node:child_process';
import { resolve } from 'node:path';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { run } from '../../clients/typescript/src/cli/run';
import { freeTcpPort } from '../support/ports';
import { parsePromText, sampleValue } from '../support/prom-text';
import { startServer, type RunningServer } from '../support/server';
import type { TracePath } from '../support/trace-path';
import { waitFor } from '../support/wait';
import { startTraceRig, type TraceRig } from './trace-rig';

const test = suite<{ rig: TraceRig; closed: RunningServer }>('nettools trace through three routers');
const BIN = resolve(__dirname, '../../../clients/typescript/dist/cli/main.js');

test.before(async (ctx) => {
  ctx.rig = await startTraceRig();
  ctx.closed = await startServer(); // private targets off: every path address is refused
});

test.after(async (ctx) => {
  await ctx.closed?.stop();
  await ctx.rig?.stop();
});

interface Ran {
  code: number;
  out: string;
  err: string;
}

// The CLI in this process, with its output captured; `onLine` is told of each stdout line as it is printed.
async function cli(args: string[], onLine?: (line: string, stop: () => void) => void): Promise<Ran> {
  const out: string[] = [];
  const err: string[] = [];
  let stop = () => {};
  const io = {
    out: (l: string) => (out.push(l), onLine?.(l, stop)),
    err: (l: string) => void err.push(l),
    env: {},
    onInterrupt: (s: () => void) => ((stop = s), () => undefined),
  };
  const code = await run(args, io);
  return { code, out: out.join('\n'), err: err.join('\n') };
}

const esc = (s: string) => s.replace(/[.:]/g, '\\$&');
const hop = (ttl: number, address: string, probes: number, mark = '') => new RegExp(`^ ${ttl}  ${esc(address)}${`  \\d+\\.\\d{3} ms${mark}`.repeat(probes)}$`);

// The callback's time with a rule in one namespace's iptables, removed after.
async function withRule<T>(p: TracePath, ns: string, rule: string[], work: () => Promise<T>): Promise<T> {
  p.exec(ns, ['iptables', '-A', ...rule]);
  try {
    return await work();
  } finally {
    p.exec(ns, ['iptables', '-D', ...rule]);
  }
}
const silentDestination = ['INPUT', '-p', 'icmp', '--icmp-type', 'echo-request', '-j', 'DROP'];
const silentRouter = ['OUTPUT', '-p', 'icmp', '--icmp-type', 'time-exceeded', '-j', 'DROP'];

test('trace prints a header and one line per hop as traceroute -n does, and exits 0 when the destination answers', async ({ rig }) => {
  const p = rig.path;
  const r = await cli(['trace', p.destination.v4, '--server', rig.base]);
  assert.is(r.code, 0, r.err);
  const lines = r.out.split('\n');
  assert.is(lines[0], `traceroute to ${p.destination.v4} (${p.destination.v4}) via ${rig.base}, 30 hops max, 2 probes per hop`);
  [...p.routers.map((n) => n.v4), p.destination.v4].forEach((address, i) => assert.match(lines[i + 1]!, hop(i + 1, address, 2)));
  assert.is(lines.length, 5);
  assert.is(r.err, '');
});

test('trace -6 --probes 3 traces over IPv6 with three probes a hop', async ({ rig }) => {
  const p = rig.path;
  const r = await cli(['trace', p.destination.v6, '-6', '--probes', '3', '--server', rig.base]);
  assert.is(r.code, 0, r.err);
  const lines = r.out.split('\n');
  assert.match(lines[0]!, `, 30 hops max, 3 probes per hop`);
  [...p.routers.map((n) => n.v6), p.destination.v6].forEach((address, i) => assert.match(lines[i + 1]!, hop(i + 1, address, 3)));
});

test('a destination that never answers: * for its hops up to --max-hops, and exit 1', async ({ rig }) => {
  const p = rig.path;
  const r = await withRule(p, p.destination.ns, silentDestination, () => cli(['trace', p.destination.v4, '--max-hops', '5', '--probes', '1', '--timeout', '300', '--server', rig.base]));
  assert.is(r.code, 1, r.err);
  const lines = r.out.split('\n');
  assert.match(lines[0]!, ', 5 hops max, 1 probe per hop');
  assert.match(lines[3]!, hop(3, p.routers[2]!.v4, 1));
  assert.equal(lines.slice(4), [' 4  *', ' 5  *']);
  assert.is(r.err, `nettools: ${p.destination.v4} (${p.destination.v4}) not reached in 5 hops`);
});

test('a router refusing with admin-prohibited is marked !X as traceroute marks it, and exits 1 naming it', async ({ rig }) => {
  const p = rig.path;
  const r2 = p.routers[1]!;
  const rule = ['FORWARD', '-d', p.destination.v4, '-j', 'REJECT', '--reject-with', 'icmp-admin-prohibited'];
  const r = await withRule(p, r2.ns, rule, () => cli(['trace', p.destination.v4, '--timeout', '500', '--server', rig.base]));
  assert.is(r.code, 1, r.out);
  const lines = r.out.split('\n');
  assert.match(lines[2]!, hop(2, r2.v4, 2));
  assert.match(lines[3]!, hop(3, r2.v4, 2, ' !X'));
  assert.is(lines.length, 4);
  assert.is(r.err, `nettools: ${p.destination.v4} (${p.destination.v4}) not reached: ${r2.v4} answered admin-prohibited at hop 3`);
});

test('over IPv6 a router refusing with adm-prohibited is marked !X too', async ({ rig }) => {
  const p = rig.path;
  const r2 = p.routers[1]!;
  const rule = ['FORWARD', '-d', p.destination.v6, '-j', 'REJECT', '--reject-with', 'adm-prohibited'];
  p.exec(r2.ns, ['ip6tables', '-A', ...rule]);
  try {
    const r = await cli(['trace', p.destination.v6, '--timeout', '500', '--server', rig.base]);
    assert.is(r.code, 1, r.out);
    assert.match(r.out.split('\n')[3]!, hop(3, r2.v6, 2, ' !X'));
    assert.is(r.err, `nettools: ${p.destination.v6} (${p.destination.v6}) not reached: ${r2.v6} answered admin-prohibited at hop 3`);
  } finally {
    p.exec(r2.ns, ['ip6tables', '-D', ...rule]);
  }
});

// Streams of traceroute the server holds open now, read through the same relay.
async function streamsOpen(base: string): Promise<number> {
  return sampleValue(parsePromText(await (await fetch(`${base}/metrics`)).text()), 'nettools_streams_open', { tool: 'traceroute' });
}

test('trace --watch prints each hop while the trace still runs, then exits 0', async ({ rig }) => {
  const p = rig.path;
  // The second router is silent: hop 1 is decided at once, the rest only after hop 2's timeout.
  let openAtFirstHop: Promise<number> | null = null;
  const r = await withRule(p, p.routers[1]!.ns, silentRouter, () =>
    cli(['trace', p.destination.v4, '--timeout', '3000', '--probes', '1', '--watch', '--server', rig.base], (l) => void (l.startsWith(' 1 ') && (openAtFirstHop = streamsOpen(rig.base)))),
  );
  assert.is(r.code, 0, r.err);
  assert.is(await openAtFirstHop, 1);
  const lines = r.out.split('\n');
  assert.is(lines[0], `traceroute to ${p.destination.v4} (${p.destination.v4}) via ${rig.base}, 30 hops max, 1 probe per hop`);
  assert.match(lines[1]!, hop(1, p.routers[0]!.v4, 1));
  assert.is(lines[2], ' 2  *');
  assert.match(lines[4]!, hop(4, p.destination.v4, 1));
  assert.is(lines.length, 5);
});

test("--json prints the API's JSON answer", async ({ rig }) => {
  const r = await cli(['trace', rig.path.destination.v4, '--probes', '1', '--json', '--server', rig.base]);
  assert.is(r.code, 0, r.err);
  const result = JSON.parse(r.out);
  assert.is(result.destinationReached, true);
  assert.equal(result.hops.map((h: { ttl: number }) => h.ttl), [1, 2, 3, 4]);
});

test('--json --watch prints the events as NDJSON, one JSON a line, summary last', async ({ rig }) => {
  const r = await cli(['trace', rig.path.destination.v4, '--probes', '1', '--json', '--watch', '--server', rig.base]);
  assert.is(r.code, 0, r.err);
  const events = r.out.split('\n').map((l) => JSON.parse(l));
  assert.equal(events.map((e) => e.event), ['start', 'hop', 'hop', 'hop', 'hop', 'summary']);
  assert.equal(events[5].data.hops, events.slice(1, 5).map((e) => e.data));
});

test('Ctrl-C during trace --watch aborts the trace on the server and exits 1', async ({ rig }) => {
  const p = rig.path;
  const r = await withRule(p, p.routers[1]!.ns, silentRouter, () => cli(['trace', p.destination.v4, '--timeout', '3000', '--watch', '--server', rig.base], (l, stop) => l.startsWith(' 1 ') && stop()));
  assert.is(r.code, 1, r.out);
  assert.is(r.out.split('\n').length, 2);
  assert.is(r.err, 'nettools: interrupted after 1 hop, destination not reached');
  await waitFor('the server to drop the aborted trace', async () => (await streamsOpen(rig.base)) === 0);
});

test("a refusal exits 3 with the problem's title and detail: validation, and target-forbidden", async ({ rig, closed }) => {
  const v = await cli(['trace', rig.path.destination.v4, '--max-hops', '99', '--server', rig.base]);
  assert.is(v.code, 3);
  assert.match(v.err, 'nettools: refused by the server: 400 Request does not match the schema (validation-failed)');
  assert.match(v.err, 'nettools:   /maxHops: must be <= 32');
  assert.is(v.out, '');
  const f = await cli(['trace', rig.path.destination.v4, '--watch', '--server', closed.base]);
  assert.is(f.code, 3);
  assert.match(f.err, /^nettools: refused by the server: 422 .* \(target-forbidden\)\nnettools: \S/);
});

test('no server listening exits 4', async ({ rig }) => {
  const port = await freeTcpPort('127.0.0.1');
  const r = await cli(['trace', rig.path.destination.v4, '--server', `http://127.0.0.1:${port}`]);
  assert.is(r.code, 4);
  assert.match(r.err, `nettools: no answer from http://127.0.0.1:${port}`);
});

for (const [args, message] of [
  [['trace'], 'trace needs a HOST'],
  [['trace', '198.18.0.1', '--max-hops', 'ten'], '--max-hops must be a whole number, not ten'],
  [['trace', '198.18.0.1', '-4', '-6'], 'choose one address family: -4 or -6'],
  [['trace', '198.18.0.1', '--ip-version', '5'], '--ip-version must be 4 or 6, not 5'],
  [['ping', '198.18.0.1', '--names'], '--names does not go with ping'],
  [['dns', 'example.test', '--probes', '2'], '--probes does not go with dns'],
] as const) {
  test(`usage: ${args.join(' ')} exits 2 saying "${message}"`, async () => {
    const r = await cli([...args, '--server', 'http://127.0.0.1:9']);
    assert.is(r.code, 2);
    assert.match(r.err, `nettools: ${message}`);
  });
}

test('the built bin on a real SIGINT during trace --watch exits 1 after the hops so far', async ({ rig }) => {
  const p = rig.path;
  let out = '';
  let err = '';
  const code = await withRule(p, p.routers[1]!.ns, silentRouter, async () => {
    const child = spawn(process.execPath, [BIN, 'trace', p.destination.v4, '--timeout', '3000', '--watch', '--server', rig.base], { stdio: ['ignore', 'pipe', 'pipe'], env: { PATH: process.env['PATH'] ?? '' } });
    let interrupted = false;
    child.stdout.on('data', (c: Buffer) => {
      out += c;
      if (!interrupted && /^ 1 /m.test(out)) interrupted = child.kill('SIGINT');
    });
    child.stderr.on('data', (c: Buffer) => void (err += c));
    return new Promise<number | null>((done) => child.on('exit', (c) => done(c)));
  });
  assert.is(code, 1, err);
  assert.is(out.trim().split('\n').length, 2, out);
  assert.is(err, 'nettools: interrupted after 1 hop, destination not reached\n');
});

test.run();
