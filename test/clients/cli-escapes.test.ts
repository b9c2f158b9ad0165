import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { CONTROL, cli, dnsResult, pingResult, problem, query, traceResult } from './hostile-answers';
import { events, json, startHostile, type Hostile } from './hostile-server';

// Whoever writes a domain's TXT records, or runs the server, must not reach the terminal of whoever
// looks: record data as dig writes it (`\DDD`), every server string with its controls neutralised, and
// --json with them escaped (still the same JSON).
const test = suite<{ hostile: Hostile }>('nettools prints no terminal control from records or servers');

test.before(async (ctx) => {
  ctx.hostile = await startHostile();
});

test.after(async (ctx) => {
  await ctx.hostile?.close();
});

const NASTY = ['\u001b[2J', '\u001b]8;;http://198.18.0.66/\u0007link\u001b]8;;\u0007', '\u001b]52;c;cm0gLXJmIH4=\u0007', '\u001b]0;owned\u0007', '\u0007', '\u0000', '\u009b31m', '\u202egnp.exe', '\u007f'];
const txt = (parts: string[]) => ({ value: parts.join(''), parts, ttl: 300 });

test('TXT data is printed as dig prints it: bytes outside printable ASCII as \\DDD, quotes and backslashes escaped', async ({ hostile }) => {
  const records = [txt(NASTY), txt(['say "hi" \\ é'])];
  hostile.answer(json(200, dnsResult({ records: { TXT: records }, resolvers: [{ id: 'a', address: '127.0.0.1', queries: { TXT: query('NOERROR', records) } }] })));
  const r = await cli(['dns', 'example.test', '--type', 'TXT', '--server', hostile.base]);
  assert.is(r.code, 0, r.err);
  assert.not.match(r.out + r.err, CONTROL);
  assert.match(r.out, 'example.test.\t300\tIN\tTXT\t"\\027[2J" "\\027]8;;http://198.18.0.66/\\007link\\027]8;;\\007" "\\027]52;c;cm0gLXJmIH4=\\007" "\\027]0;owned\\007" "\\007" "\\000" "\\194\\15531m" "\\226\\128\\174gnp.exe" "\\127"');
  assert.match(r.out, '"say \\"hi\\" \\\\ \\195\\169"');
});

test('TXT data in a streamed answer (--watch) is escaped alike', async ({ hostile }) => {
  const records = [txt(NASTY)];
  const start = { event: 'start', data: { domain: 'example.test', resolvers: [{ id: 'a', address: '127.0.0.1' }], types: ['TXT'] } };
  const answer = { event: 'answer', data: { resolver: 'a', address: '127.0.0.1', type: 'TXT', query: query('NOERROR', records) } };
  hostile.answer(events(start, answer, { event: 'summary', data: dnsResult({ records: { TXT: records } }) }));
  const r = await cli(['dns', 'example.test', '--type', 'TXT', '--watch', '--server', hostile.base]);
  assert.is(r.code, 0, r.err);
  assert.not.match(r.out + r.err, CONTROL);
  assert.match(r.out, '"\\027[2J"');
});

test("every string a server returns reaches stdout and stderr neutralised, and cannot forge a line", async ({ hostile }) => {
  const evil = '\u001b]0;owned\u0007\u009b2J\u202e\nnettools: all good';
  hostile.answer(json(200, pingResult({ host: evil, address: evil, reachable: false, rtt: null, packets: { sent: 1, received: 0, duplicates: 0, lossPercent: 100 }, replies: [{ seq: 0, status: 'unreachable', from: evil, reason: evil }] })));
  const ping = await cli(['ping', '198.18.0.1', '--server', hostile.base]);
  assert.is(ping.code, 1);
  hostile.answer(json(200, traceResult({ host: evil, hops: [{ ttl: 1, probes: [{ address: evil, rttMs: 1, icmp: { type: 3, code: 13, name: evil } }], name: evil }], destinationReached: false })));
  const trace = await cli(['trace', '198.18.0.9', '--names', '--server', hostile.base]);
  assert.is(trace.code, 1);
  hostile.answer(json(400, problem(400, 'validation-failed', { title: evil, detail: evil, errors: [{ pointer: evil, message: evil }] })));
  const refused = await cli(['dns', 'example.test', '--server', hostile.base]);
  assert.is(refused.code, 3);
  for (const r of [ping, trace, refused]) {
    assert.not.match(r.out + r.err, CONTROL);
    assert.not.ok(`${r.out}\n${r.err}`.split('\n').includes('nettools: all good'), r.err);
    assert.match(r.out + r.err, '\\u001b]0;owned\\u0007\\u009b2J\\u202e\\nnettools: all good');
  }
});

test('--json escapes C1, DEL and bidi controls too, and stays the same JSON', async ({ hostile }) => {
  const records = [txt(NASTY)];
  const body = dnsResult({ records: { TXT: records }, resolvers: [{ id: 'a\u202e', address: '127.0.0.1', queries: { TXT: query('NOERROR', records) } }] });
  hostile.answer(json(200, body));
  const r = await cli(['dns', 'example.test', '--type', 'TXT', '--json', '--server', hostile.base]);
  assert.is(r.code, 0, r.err);
  assert.not.match(r.out, CONTROL);
  assert.match(r.out, '\\u009b31m');
  assert.match(r.out, '\\u202e');
  assert.match(r.out, '\\u007f');
  assert.equal(JSON.parse(r.out), body);
});

test('--json --watch escapes every event line alike', async ({ hostile }) => {
  hostile.answer(events({ event: 'start', data: { host: '\u009b2J', address: '198.18.0.1', ipVersion: 4 } }, { event: 'summary', data: pingResult({ host: '\u202e' }) }));
  const r = await cli(['ping', '198.18.0.1', '--watch', '--json', '--server', hostile.base]);
  assert.is(r.code, 0, r.err);
  assert.not.match(r.out, CONTROL);
  assert.equal(r.out.split('\n').map((l) => JSON.parse(l).data.host), ['\u009b2J', '\u202e']);
});

test.run();
