import { spawn } from 'node:child_process';
import { resolve } from 'node:path';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { run } from '../../clients/typescript/src/cli/run';
import { freeTcpPort } from '../support/ports';
import { waitFor } from '../support/wait';
import type { RunningServer } from '../support/server';
import { startRig, stopRig, type Rig } from './servers';
import { startMuteServer, startSilentResolver, type Silent } from './silent-resolver';

// `nettools ... --watch` against a real server: the streamed forms on the command line.
const test = suite<Rig & { silent53: Silent; mute: RunningServer }>('nettools --watch against a real server');
const BIN = resolve(__dirname, '../../../clients/typescript/dist/cli/main.js');

test.before(async (ctx) => {
  Object.assign(ctx, await startRig(141));
  ctx.silent53 = await startSilentResolver('127.0.0.144');
  ctx.mute = await startMuteServer(ctx.knots[0]!, ctx.silent53);
});

test.after(async (ctx) => {
  await ctx.mute?.stop();
  await ctx.silent53?.close();
  await stopRig(ctx);
});

interface Ran {
  code: number;
  out: string;
  err: string;
}

interface Options {
  onLine?: (line: string, lines: string[]) => void; // told of each stdout line as it is printed
  interrupt?: (stop: () => void) => void; // given the CLI's Ctrl-C handler
}

// The CLI in this process, with its output captured.
async function cli(args: string[], options: Options = {}): Promise<Ran> {
  const out: string[] = [];
  const err: string[] = [];
  const io = {
    out: (l: string) => (out.push(l), options.onLine?.(l, out)),
    err: (l: string) => void err.push(l),
    env: {},
    onInterrupt: (stop: () => void) => (options.interrupt?.(stop), () => undefined),
  };
  const code = await run(args, io);
  return { code, out: out.join('\n'), err: err.join('\n') };
}

test('ping --watch --interval runs a long streamed ping: 12 echoes 100 ms apart, past the JSON bound of 10', async ({ open }) => {
  const r = await cli(['ping', '127.0.0.1', '--count', '12', '--interval', '100', '--watch', '--server', open.base]);
  assert.is(r.code, 0, r.err);
  const replies = r.out.split('\n').filter((l) => l.startsWith('64 bytes'));
  assert.equal(replies.map((l) => Number(/icmp_seq=(\d+)/.exec(l)![1])), [...Array(12).keys()]);
  assert.match(r.out, /12 packets transmitted, 12 received, 0% packet loss/);
});

test('--interval must be a whole number (exit 2), and goes with ping only', async ({ open }) => {
  const r = await cli(['ping', '127.0.0.1', '--interval', 'fast', '--server', open.base]);
  assert.is(r.code, 2);
  assert.match(r.err, '--interval must be a whole number, not fast');
  const d = await cli(['dns', 'example.test', '--interval', '100', '--server', open.base]);
  assert.is(d.code, 2);
  assert.match(d.err, '--interval does not go with dns');
});

test('ping --watch prints each echo while the server is still measuring, then the statistics, and exits 0', async ({ open }) => {
  const inFlightAtLine: number[] = [];
  const r = await cli(['ping', '127.0.0.1', '--count', '3', '--watch', '--server', open.base], { onLine: (l) => l.startsWith('64 bytes') && inFlightAtLine.push(open.app.inFlight()) });
  assert.is(r.code, 0, r.err);
  const lines = r.out.split('\n');
  assert.is(lines[0], `PING 127.0.0.1 (127.0.0.1) via ${open.base}`);
  for (const seq of [0, 1, 2]) assert.match(lines[seq + 1]!, new RegExp(`^64 bytes from 127\\.0\\.0\\.1: icmp_seq=${seq} ttl=\\d+ time=\\d+\\.\\d{3} ms$`));
  assert.equal(lines.slice(4, 6), ['', '--- 127.0.0.1 ping statistics ---']);
  assert.match(lines[6]!, /^3 packets transmitted, 3 received, 0% packet loss, time \d+ms$/);
  assert.match(lines[7]!, /^rtt min\/avg\/max\/mdev = [\d.]+\/[\d.]+\/[\d.]+\/[\d.]+ ms$/);
  // The first echo's line came out while its request was still in the server's hands.
  assert.is(inFlightAtLine[0], 1);
  assert.is(r.err, '');
});

test('ping --watch of a host that never answers exits 1', async ({ open, silent }) => {
  const r = await cli(['ping', silent.nsV4, '--count', '1', '--watch', '--server', open.base]);
  assert.is(r.code, 1);
  assert.match(r.out, 'no reply for icmp_seq=0');
  assert.match(r.err, `nettools: ${silent.nsV4} (${silent.nsV4}) is unreachable`);
});

test('ping --watch with packet loss exits 1', async ({ open, lossy }) => {
  const r = await cli(['ping', lossy.nsV4, '--count', '2', '--watch', '--server', open.base]);
  assert.is(r.code, 1, r.out);
  assert.match(r.out, '2 packets transmitted, 1 received, 50% packet loss');
});

test("dns --watch prints each resolver's answer as it lands, then the usual result, and exits 0", async ({ open }) => {
  const r = await cli(['dns', 'example.test', '--type', 'MX', '--resolver', 'a,b', '--watch', '--server', open.base]);
  assert.is(r.code, 0, r.err);
  const lines = r.out.split('\n');
  assert.is(lines[0], ';; asking a (127.0.0.141), b (127.0.0.142) for MX of example.test');
  const landed = lines.slice(1, 5);
  for (const id of ['a', 'b']) {
    const at = landed.findIndex((l) => l.startsWith(`;; ${id} (`));
    assert.match(landed[at]!, new RegExp(`^;; ${id} \\(127\\.0\\.0\\.14\\d\\): MX NOERROR [\\d.]+ ms$`));
    assert.is(landed[at + 1], 'example.test.\t300\tIN\tMX\t10 mail.example.test.');
  }
  assert.is(lines[5], '');
  assert.match(lines[6]!, '; <<>> nettools dns example.test <<>>');
  assert.match(r.out, ';; ANSWER SECTION:\nexample.test.\t300\tIN\tMX\t10 mail.example.test.');
});

test('dns --watch with --expect missing from one resolver exits 1 as without --watch', async ({ open }) => {
  const r = await cli(['dns', 'example.test', '--type', 'TXT', '--expect', 'v=spf1 -all', '--resolver', 'a,c', '--watch', '--server', open.base]);
  assert.is(r.code, 1);
  assert.match(r.err, 'nettools: expected "v=spf1 -all" not in the answer of c');
});

test('--json --watch prints the events as NDJSON, one JSON a line, summary last', async ({ open }) => {
  const r = await cli(['ping', '127.0.0.1', '--count', '2', '--json', '--watch', '--server', open.base]);
  assert.is(r.code, 0, r.err);
  const events = r.out.split('\n').map((l) => JSON.parse(l));
  assert.equal(events.map((e) => e.event), ['start', 'reply', 'reply', 'summary']);
  assert.equal(events[3].data.replies, [events[1].data, events[2].data]);
});

test("a refusal with --watch exits 3 with the problem's title and detail; with --json a problem event line", async ({ open }) => {
  const r = await cli(['ping', '127.0.0.1', '--count', '5000', '--watch', '--server', open.base]);
  assert.is(r.code, 3);
  assert.match(r.err, 'nettools: refused by the server: 400 Request does not match the schema (validation-failed)');
  assert.match(r.err, 'nettools:   /count: must be <= 3600');
  assert.is(r.out, '');
  const j = await cli(['ping', '127.0.0.1', '--count', '5000', '--watch', '--json', '--server', open.base]);
  assert.is(j.code, 3);
  const line = JSON.parse(j.out);
  assert.is(line.event, 'problem');
  assert.is(line.data.code, 'validation-failed');
});

test('a problem after the start, upstream-timeout, exits 5 (the resolvers gave no answer) and says what each said', async ({ mute }) => {
  const r = await cli(['dns', 'example.test', '--type', 'A', '--resolver', 'm', '--watch', '--server', mute.base]);
  assert.is(r.code, 5, r.out);
  assert.match(r.out, ';; asking m (127.0.0.144) for A of example.test');
  assert.match(r.err, /nettools: the server: 504 .* \(upstream-timeout\)/);
  assert.match(r.err, /nettools: no resolver answered: m \(127\.0\.0\.144\): A \S+/);
});

test('Ctrl-C during ping --watch aborts the request, prints the statistics so far and exits 0 when none was lost', async ({ open }) => {
  let stop = () => {};
  const r = await cli(['ping', '127.0.0.1', '--count', '10', '--watch', '--server', open.base], {
    interrupt: (s) => (stop = s),
    onLine: (_l, lines) => lines.filter((l) => l.startsWith('64 bytes')).length === 2 && lines.length === 3 && stop(),
  });
  assert.is(r.code, 0, r.err);
  const lines = r.out.split('\n');
  assert.is(lines.filter((l) => l.startsWith('64 bytes')).length, 2);
  assert.match(r.out, /--- 127\.0\.0\.1 ping statistics ---\n2 packets transmitted, 2 received, 0% packet loss, time \d+ms\nrtt min/);
  await waitFor('the server to drop the aborted request', async () => open.app.inFlight() === 0);
});

test('Ctrl-C during ping --watch exits 1 when an echo decided so far was lost', async ({ open, lossy }) => {
  let stop = () => {};
  const r = await cli(['ping', lossy.nsV4, '--count', '10', '--watch', '--server', open.base], {
    interrupt: (s) => (stop = s),
    onLine: (l) => l.startsWith('no reply for icmp_seq=1') && stop(),
  });
  assert.is(r.code, 1, r.out);
  // Every second echo is dropped; those after the lost one may be decided before its timeout is.
  const [, sent, received] = /(\d+) packets transmitted, (\d+) received, [\d.]+% packet loss/.exec(r.out) ?? [];
  assert.ok(Number(sent) >= 2 && Number(received) < Number(sent), r.out);
  assert.match(r.err, new RegExp(`^nettools: [\\d.]+% packet loss to ${lossy.nsV4.replace(/\./g, '\\.')}`));
});

test('Ctrl-C during dns --watch before the summary exits 1', async ({ mute }) => {
  let stop = () => {};
  const r = await cli(['dns', 'example.test', '--type', 'A', '--resolver', 'a,m', '--watch', '--server', mute.base], { interrupt: (s) => (stop = s), onLine: (l) => l.startsWith(';; a (') && stop() });
  assert.is(r.code, 1);
  assert.match(r.err, 'nettools: interrupted with 1 of 2 answers in');
});

test('--watch with no server listening exits 4', async () => {
  const port = await freeTcpPort('127.0.0.1');
  const r = await cli(['ping', '127.0.0.1', '--watch', '--server', `http://127.0.0.1:${port}`]);
  assert.is(r.code, 4);
  assert.match(r.err, `nettools: no answer from http://127.0.0.1:${port}`);
});

test('the built bin on a real SIGINT during --watch prints the statistics so far and exits with their verdict', async ({ open }) => {
  const child = spawn(process.execPath, [BIN, 'ping', '127.0.0.1', '--count', '10', '--watch', '--server', open.base], { stdio: ['ignore', 'pipe', 'pipe'], env: { PATH: process.env['PATH'] ?? '' } });
  let out = '';
  let interrupted = false;
  child.stdout.on('data', (c: Buffer) => {
    out += c;
    if (!interrupted && (out.match(/^64 bytes/gm) ?? []).length >= 2) interrupted = child.kill('SIGINT');
  });
  const code = await new Promise<number | null>((done) => child.on('exit', (c) => done(c)));
  assert.is(code, 0, out);
  assert.match(out, /ping statistics ---\n[23] packets transmitted, [23] received, 0% packet loss/);
  assert.ok((out.match(/^64 bytes/gm) ?? []).length < 10);
});

test.run();
