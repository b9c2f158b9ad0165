import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { cli, dnsResult, problem, query } from './hostile-answers';
import { events, json, startHostile, type Hostile } from './hostile-server';

// The agreed answers for DNS failures, sent by a scripted server: a name that does not exist, a name
// without the type, and resolvers that gave no answer are three different things, with exit 1, 1 and 5.
const test = suite<{ hostile: Hostile }>('nettools tells DNS failures apart');

test.before(async (ctx) => {
  ctx.hostile = await startHostile();
});

test.after(async (ctx) => {
  await ctx.hostile?.close();
});

const dnsResolvers = [
  { id: 'a', address: '127.0.0.1', queries: { TXT: query('REFUSED') } },
  { id: 'b', address: '127.0.0.2', queries: { TXT: { error: 'timeout' } } },
];

test('dns: upstream-failed (502) exits 5 and says what each resolver said', async ({ hostile }) => {
  hostile.answer(json(502, problem(502, 'upstream-failed', { title: 'No resolver gave an answer', resolvers: dnsResolvers })));
  const r = await cli(['dns', 'example.test', '--type', 'TXT', '--server', hostile.base]);
  assert.is(r.code, 5, r.err);
  assert.match(r.err, 'nettools: no resolver answered: a (127.0.0.1): TXT REFUSED; b (127.0.0.2): TXT timeout');
});

test('dns: upstream-timeout (504) exits 5', async ({ hostile }) => {
  hostile.answer(json(504, problem(504, 'upstream-timeout', { resolvers: [dnsResolvers[1]] })));
  const r = await cli(['dns', 'example.test', '--type', 'TXT', '--server', hostile.base]);
  assert.is(r.code, 5, r.err);
  assert.match(r.err, 'no resolver answered: b (127.0.0.2): TXT timeout');
});

test('dns: a 200 in which an asked type had no resolver answer exits 5, even with records of another type', async ({ hostile }) => {
  const resolvers = [{ id: 'a', address: '127.0.0.1', queries: { A: query('NOERROR', [{ address: '192.0.2.10', ttl: 300 }]), TXT: query('SERVFAIL') } }];
  hostile.answer(json(200, dnsResult({ records: { A: [{ address: '192.0.2.10', ttl: 300 }] }, resolvers, outcomes: { A: 'records', TXT: 'upstream-failed' } })));
  const r = await cli(['dns', 'example.test', '--type', 'A,TXT', '--server', hostile.base]);
  assert.is(r.code, 5, r.err);
  assert.match(r.out, 'example.test.\t300\tIN\tA\t192.0.2.10');
  assert.match(r.err, 'nettools: no resolver answered TXT for example.test: a (127.0.0.1): TXT SERVFAIL');
});

test('dns: a DoT resolver shows its transport, and a TLS failure its reason', async ({ hostile }) => {
  const resolvers = [
    { id: 'dot', address: '127.0.0.1', queries: { TXT: { ...query('NOERROR', [{ value: 'v=spf1 -all', parts: ['v=spf1 -all'], ttl: 300 }]), transport: 'tls' } } },
    { id: 'wrong', address: '127.0.0.2', queries: { TXT: { error: 'tls-certificate-invalid', detail: 'hostname mismatch' } } },
  ];
  hostile.answer(json(200, dnsResult({ resolvers })));
  const r = await cli(['dns', 'example.test', '--type', 'TXT', '--server', hostile.base]);
  assert.match(r.out, ';; dot (127.0.0.1): TXT NOERROR 1.0 ms tls');
  assert.match(r.out, ';; wrong (127.0.0.2): TXT tls-certificate-invalid (hostname mismatch)');
});

test('dns: NXDOMAIN exits 1 with "no such domain (NXDOMAIN)"', async ({ hostile }) => {
  const resolvers = [{ id: 'a', address: '127.0.0.1', queries: { TXT: query('NXDOMAIN') } }];
  hostile.answer(json(200, dnsResult({ domain: 'nothing.example.test', records: {}, resolvers, outcomes: { TXT: 'nxdomain' } })));
  const r = await cli(['dns', 'nothing.example.test', '--type', 'TXT', '--server', hostile.base]);
  assert.is(r.code, 1, r.err);
  assert.is(r.err, 'nettools: nothing.example.test: no such domain (NXDOMAIN)');
});

test('dns: a name without the asked type exits 1 with "no TXT record"', async ({ hostile }) => {
  const resolvers = [{ id: 'a', address: '127.0.0.1', queries: { TXT: query('NOERROR') } }];
  hostile.answer(json(200, dnsResult({ records: {}, resolvers, outcomes: { TXT: 'no-data' } })));
  const r = await cli(['dns', 'example.test', '--type', 'TXT', '--server', hostile.base]);
  assert.is(r.code, 1, r.err);
  assert.is(r.err, 'nettools: no TXT record for example.test');
});

test('dns --watch: a problem event upstream-failed exits 5', async ({ hostile }) => {
  const start = { event: 'start', data: { domain: 'example.test', resolvers: [{ id: 'a', address: '127.0.0.1' }], types: ['TXT'] } };
  hostile.answer(events(start, { event: 'problem', data: problem(502, 'upstream-failed', { resolvers: dnsResolvers.slice(0, 1) }) }));
  const r = await cli(['dns', 'example.test', '--type', 'TXT', '--watch', '--server', hostile.base]);
  assert.is(r.code, 5, r.err);
  assert.match(r.err, 'no resolver answered: a (127.0.0.1): TXT REFUSED');
});

test('ping: a host name that does not exist (422 host-not-found, dns nxdomain) is a measured failure, exit 1', async ({ hostile }) => {
  hostile.answer(json(422, problem(422, 'host-not-found', { detail: 'nothing.example.test does not exist (NXDOMAIN)', dns: 'nxdomain' })));
  const r = await cli(['ping', 'nothing.example.test', '--server', hostile.base]);
  assert.is(r.code, 1, r.err);
  assert.is(r.err, 'nettools: nothing.example.test: no such domain (NXDOMAIN)');
});

test('ping: a host name without an address record (dns no-data) exits 1, said apart from NXDOMAIN', async ({ hostile }) => {
  hostile.answer(json(422, problem(422, 'host-not-found', { dns: 'no-data' })));
  const r = await cli(['ping', 'mail.example.test', '-6', '--server', hostile.base]);
  assert.is(r.code, 1, r.err);
  assert.is(r.err, 'nettools: mail.example.test: no address record of the wanted family (no data)');
});

test('ping and trace: no resolver answered for the host name (502, 504) exits 5 with what each said', async ({ hostile }) => {
  const resolvers = [{ id: 'a', address: '127.0.0.1', rcode: 'SERVFAIL' }, { id: 'b', address: '127.0.0.2', error: 'timeout' }];
  hostile.answer(json(502, problem(502, 'upstream-failed', { resolvers })));
  const ping = await cli(['ping', 'host.example.test', '--server', hostile.base]);
  assert.is(ping.code, 5, ping.err);
  assert.match(ping.err, 'no resolver answered: a (127.0.0.1): SERVFAIL; b (127.0.0.2): timeout');
  hostile.answer(json(504, problem(504, 'upstream-timeout', { resolvers: resolvers.slice(1) })));
  const trace = await cli(['trace', 'host.example.test', '--server', hostile.base]);
  assert.is(trace.code, 5, trace.err);
  assert.match(trace.err, 'no resolver answered: b (127.0.0.2): timeout');
});

test.run();
