import { spawn } from 'node:child_process';
import { resolve } from 'node:path';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { cli, dnsResult, pingResult, query, STACK } from './hostile-answers';
import { cutOff, drip, endless, events, json, startHostile, type Hostile } from './hostile-server';

// A server that never stops, never finishes, cuts off or answers another shape: the CLI gives up with
// exit 4 and one line, never hangs, never holds the whole flood, never prints a stack trace.
const test = suite<{ hostile: Hostile }>('nettools against a hostile server');

test.before(async (ctx) => {
  ctx.hostile = await startHostile();
});

test.after(async (ctx) => {
  await ctx.hostile?.close();
});

const BIN = resolve(__dirname, '../../../clients/typescript/dist/cli/main.js');
const oneLine = (err: string) => assert.is(err.split('\n').length, 1, err);

test('a JSON answer without end is cut at the body limit: exit 4, one line', async ({ hostile }) => {
  hostile.answer(endless('application/json', '{"domain":"', 'x'.repeat(64 * 1024)));
  const r = await cli(['dns', 'example.test', '--server', hostile.base]);
  assert.is(r.code, 4);
  assert.match(r.err, /the answer is larger than \d+ bytes/);
  oneLine(r.err);
});

test('a stream line without a newline is cut at the line limit: exit 4, one line', async ({ hostile }) => {
  hostile.answer(endless('application/x-ndjson', '{"event":"start","data":"', 'x'.repeat(64 * 1024)));
  const r = await cli(['ping', '198.18.0.1', '--watch', '--server', hostile.base]);
  assert.is(r.code, 4);
  assert.match(r.err, /a stream line longer than \d+ bytes/);
  oneLine(r.err);
});

test('a drip gives up at the deadline (-w) with exit 4', async ({ hostile }) => {
  hostile.answer(drip('application/json'));
  const r = await cli(['dns', 'example.test', '-w', '0.5', '--server', hostile.base]);
  assert.is(r.code, 4);
  assert.match(r.err, 'within the deadline of 0.5 s');
  oneLine(r.err);
});

test('a dripping stream gives up at the deadline (--deadline) with exit 4', async ({ hostile }) => {
  hostile.answer(drip('application/x-ndjson'));
  const r = await cli(['ping', '198.18.0.1', '--watch', '--deadline', '0.5', '--server', hostile.base]);
  assert.is(r.code, 4);
  assert.match(r.err, 'within the deadline of 0.5 s');
});

test('a server that takes the request and never answers gives up at the deadline with exit 4', async ({ hostile }) => {
  hostile.answer(() => undefined);
  const r = await cli(['trace', '198.18.0.9', '-w', '0.5', '--server', hostile.base]);
  assert.is(r.code, 4);
  assert.match(r.err, 'within the deadline of 0.5 s');
});

test('a cut-off body exits 4 with one line and no stack trace', async ({ hostile }) => {
  hostile.answer(cutOff('application/json', JSON.stringify(pingResult()).slice(0, 40)));
  const r = await cli(['ping', '198.18.0.1', '--server', hostile.base]);
  assert.is(r.code, 4);
  assert.match(r.err, 'the answer broke off');
  assert.not.match(r.err, STACK);
  oneLine(r.err);
});

test('a 200 of the wrong shape exits 4 and names the first wrong field', async ({ hostile }) => {
  for (const [args, body, field] of [
    [['ping', '198.18.0.1'], { hello: 'world' }, '/host is not a string'],
    [['ping', '198.18.0.1'], pingResult({ packets: null }), '/packets is not an object'],
    [['dns', 'example.test'], dnsResult({ resolvers: [{ id: 'a', address: '127.0.0.1', queries: { A: { rcode: 'NOERROR', rttMs: 1 } } }] }), '/resolvers/0/queries/A/answers is not an array'],
    [['trace', '198.18.0.9'], [], '/ is not an object'],
  ] as const) {
    hostile.answer(json(200, body));
    const r = await cli([...args, '--server', hostile.base]);
    assert.is(r.code, 4, r.err);
    assert.match(r.err, `not a ${args[0]} result: ${field}`);
    assert.not.match(r.err, STACK);
    oneLine(r.err);
  }
});

test('records with fields of the wrong kind are printed as text, not thrown over', async ({ hostile }) => {
  const records = { MX: [{ priority: 'x', exchange: { a: 1 }, ttl: 1 }], TXT: [{ parts: 'abc', value: 7, ttl: 1 }], A: [{ address: 9, ttl: 1 }] };
  hostile.answer(json(200, dnsResult({ records, resolvers: [{ id: 'a', address: '127.0.0.1', queries: { MX: query('NOERROR', records.MX), TXT: query('NOERROR', records.TXT), A: query('NOERROR', records.A) } }] })));
  const r = await cli(['dns', 'example.test', '--expect', 'x', '--server', hostile.base]);
  assert.is(r.code, 1, r.err);
  assert.match(r.out, 'IN\tTXT\t"7"');
  assert.match(r.out, 'IN\tMX\t');
  assert.match(r.err, 'expected "x" not in the answer of a');
});

test('a stream event of the wrong shape exits 4', async ({ hostile }) => {
  hostile.answer(events({ event: 'start', data: { host: 1 } }));
  const r = await cli(['ping', '198.18.0.1', '--watch', '--server', hostile.base]);
  assert.is(r.code, 4);
  assert.match(r.err, 'the stream sent its start event: /host is not a string');
});

test('a stream that ends without its summary exits 4', async ({ hostile }) => {
  hostile.answer(events({ event: 'start', data: { host: '198.18.0.1', address: '198.18.0.1', ipVersion: 4 } }, { event: 'reply', data: { seq: 0, status: 'reply', rttMs: 1 } }));
  const r = await cli(['ping', '198.18.0.1', '--watch', '--server', hostile.base]);
  assert.is(r.code, 4);
  assert.match(r.err, 'the stream ended before its summary');
});

test('a stream cut off in the middle of an event exits 4', async ({ hostile }) => {
  hostile.answer(cutOff('application/x-ndjson', '{"event":"start","data":{"host":"198'));
  const r = await cli(['ping', '198.18.0.1', '--watch', '--server', hostile.base]);
  assert.is(r.code, 4);
  assert.not.match(r.err, STACK);
});

test('an answer that is not the API\'s (HTML, 200) exits 4', async ({ hostile }) => {
  hostile.answer((_req, res) => res.writeHead(200, { 'content-type': 'text/html' }).end('<h1>hi</h1>'));
  const r = await cli(['trace', '198.18.0.9', '--server', hostile.base]);
  assert.is(r.code, 4);
  assert.match(r.err, 'HTTP 200 with text/html');
});

test('the built command exits 4 on a wrong shape with one line on stderr, no stack trace', async ({ hostile }) => {
  hostile.answer(json(200, { hello: 'world' }));
  const r = await new Promise<{ code: number | null; err: string }>((done) => {
    const child = spawn(process.execPath, [BIN, 'ping', '198.18.0.1', '--server', hostile.base], { stdio: ['ignore', 'ignore', 'pipe'] });
    let err = '';
    child.stderr.on('data', (c: Buffer) => (err += c));
    child.on('exit', (code) => done({ code, err }));
  });
  assert.is(r.code, 4);
  assert.is(r.err.trimEnd().split('\n').length, 1, r.err);
  assert.not.match(r.err, STACK);
});

test.run();
