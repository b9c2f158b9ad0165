import { spawn } from 'node:child_process';
import { resolve } from 'node:path';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { PingTally } from '../../clients/typescript/src/cli/format-ping';
import { cli, dnsResult, pingResult, traceResult } from './hostile-answers';
import { json, startHostile, type Hostile } from './hostile-server';

// What ping, dig and traceroute users type, as the request the server receives; each command's own
// --help; a usage error in one line; and `npx nettools` from the repository.
const test = suite<{ hostile: Hostile }>('nettools options');
const ROOT = resolve(__dirname, '../../..');

test.before(async (ctx) => {
  ctx.hostile = await startHostile();
});

test.after(async (ctx) => {
  await ctx.hostile?.close();
});

test("ping takes ping's -c, -i S, -W S, -s and -6, and sends them as the API's fields", async ({ hostile }) => {
  hostile.answer(json(200, pingResult()));
  const r = await cli(['ping', 'host.example.test', '-c', '3', '-i', '0.5', '-W', '2', '-s', '100', '-6', '--server', hostile.base]);
  assert.is(r.code, 0, r.err);
  assert.equal(hostile.requests.at(-1), { host: 'host.example.test', count: 3, intervalMs: 500, timeoutMs: 2000, size: 100, ipVersion: 6 });
  await cli(['ping', '198.18.0.1', '--count', '2', '--interval', '300', '--timeout', '400', '--size', '0', '--ip-version', '4', '--server', hostile.base]);
  assert.equal(hostile.requests.at(-1), { host: '198.18.0.1', count: 2, intervalMs: 300, timeoutMs: 400, size: 0, ipVersion: 4 });
});

test('ping refuses two spellings of one option, and seconds that are not a number (exit 2)', async ({ hostile }) => {
  for (const [args, message] of [
    [['-i', '1', '--interval', '1000'], 'choose one of -i and --interval'],
    [['-W', 'soon'], '-W must be a number of seconds, not soon'],
    [['-c', '1', '--count', '2'], 'choose one of -c and --count'],
  ] as const) {
    const r = await cli(['ping', '198.18.0.1', ...args, '--server', hostile.base]);
    assert.is(r.code, 2, args.join(' '));
    assert.is(r.err, `nettools: ${message} (see nettools ping --help)`);
  }
});

test('dns --timeout is the per-query timeoutMs', async ({ hostile }) => {
  hostile.answer(json(200, dnsResult()));
  const r = await cli(['dns', 'example.test', '--timeout', '300', '--server', hostile.base]);
  assert.is(r.code, 0, r.err);
  assert.equal(hostile.requests.at(-1), { domain: 'example.test', timeoutMs: 300 });
});

test('trace --names asks for resolveNames and prints `name (address)` as traceroute does', async ({ hostile }) => {
  hostile.answer(json(200, traceResult()));
  const r = await cli(['trace', '198.18.0.9', '--names', '--server', hostile.base]);
  assert.is(r.code, 0, r.err);
  assert.equal(hostile.requests.at(-1), { host: '198.18.0.9', resolveNames: true });
  const lines = r.out.split('\n');
  assert.is(lines[1], ' 1  r1.example.test (198.18.0.2)  0.500 ms');
  assert.is(lines[2], ' 2  198.18.0.9 (198.18.0.9)  0.700 ms');
  const plain = await cli(['trace', '198.18.0.9', '--server', hostile.base]);
  assert.equal(hostile.requests.at(-1), { host: '198.18.0.9' });
  assert.is(plain.out.split('\n')[1], ' 1  198.18.0.2  0.500 ms');
});

test('`--` ends the options: what follows is the operand', async ({ hostile }) => {
  hostile.answer(json(200, dnsResult({ domain: '-x.example.test' })));
  const r = await cli(['dns', '--server', hostile.base, '--', '-x.example.test']);
  assert.is(r.code, 0, r.err);
  assert.equal(hostile.requests.at(-1), { domain: '-x.example.test' });
});

test("each command's --help prints its own options", async () => {
  const ping = await cli(['ping', '--help']);
  assert.is(ping.code, 0);
  assert.match(ping.out, 'nettools ping HOST');
  assert.match(ping.out, '-W S ');
  assert.match(ping.out, '-w, --deadline S');
  assert.not.match(ping.out, '--max-hops');
  const trace = await cli(['trace', '-h']);
  assert.match(trace.out, '--names');
  assert.not.match(trace.out, '--expect');
  const dns = await cli(['dns', '--help']);
  assert.match(dns.out, '--timeout MS       per resolver and query');
  assert.not.match(dns.out, '-W S');
});

test('a usage error is one line naming the fault and where help is, not the whole help', async () => {
  for (const [args, line] of [
    [['ping', '198.18.0.1', '--bogus'], 'nettools: unknown option --bogus (see nettools --help)'],
    [['dns', 'example.test', '--names'], 'nettools: --names does not go with dns (see nettools dns --help)'],
    [['whois', 'x'], 'nettools: unknown command whois (see nettools --help)'],
    [['ping', '198.18.0.1', '-w', '0'], 'nettools: --deadline must be more than 0 seconds (see nettools ping --help)'],
  ] as const) {
    const r = await cli([...args]);
    assert.is(r.code, 2);
    assert.is(r.err, line);
    assert.is(r.out, '');
  }
});

test('--watch ping keeps running statistics, not every reply: min, avg, max and mdev as ping computes them', () => {
  const tally = new PingTally();
  for (const [seq, rttMs] of [1, 2, 4, 9].entries()) tally.add({ seq, status: 'reply', rttMs });
  tally.add({ seq: 4, status: 'timeout' });
  assert.equal([tally.sent, tally.received], [5, 4]);
  const rtt = tally.rtt()!;
  assert.equal([rtt.minMs, rtt.avgMs, rtt.maxMs], [1, 4, 9]);
  assert.ok(Math.abs(rtt.stddevMs - Math.sqrt(9.5)) < 1e-9, String(rtt.stddevMs));
  assert.equal(Object.values(tally).filter((v) => typeof v === 'object'), [], 'holds no list');
});

// `npx nettools ...` as the docs write it, from the repository after `npm ci`; offline, so that a
// missing bin fails here instead of fetching some other package of that name.
function npx(args: string[]): Promise<{ code: number; out: string; err: string }> {
  return new Promise((done) => {
    const child = spawn('npx', ['nettools', ...args], { cwd: ROOT, stdio: ['ignore', 'pipe', 'pipe'], env: { PATH: process.env['PATH'] ?? '', HOME: process.env['HOME'] ?? '/tmp', npm_config_offline: 'true', npm_config_yes: 'false' } });
    let out = '';
    let err = '';
    child.stdout.on('data', (c: Buffer) => (out += c));
    child.stderr.on('data', (c: Buffer) => (err += c));
    child.on('exit', (code) => done({ code: code ?? -1, out, err }));
  });
}

test('`npx nettools` runs the command from the repository', async ({ hostile }) => {
  hostile.answer(json(200, pingResult()));
  const r = await npx(['ping', '198.18.0.1', '-c', '1', '--server', hostile.base]);
  assert.is(r.code, 0, r.err);
  assert.match(r.out, 'PING 198.18.0.1 (198.18.0.1) via');
});

test.run();
