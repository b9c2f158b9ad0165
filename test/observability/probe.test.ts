import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { startSilentDns } from '../support/fault-dns';
import { postJson, request } from '../support/http';
import { startKnot, type KnotServer } from '../support/knot';
import { assertProblem } from '../support/problem';
import { parsePromText, sampleValue, type Sample } from '../support/prom-text';
import { startServer, type RunningServer } from '../support/server';

type Silent = Awaited<ReturnType<typeof startSilentDns>>;
const test = suite<{ knot: KnotServer; silent: Silent; open: RunningServer; guarded: RunningServer; knotOnly: RunningServer }>('GET /probe');

test.before(async (ctx) => {
  ctx.knot = await startKnot([{ domain: 'probe.test', records: ['@ A 192.0.2.1', '@ A 192.0.2.2', 'loop A 127.0.0.1'] }], '127.0.0.14');
  ctx.silent = await startSilentDns();
  const resolvers = `knot=127.0.0.14:${ctx.knot.port},mute=${ctx.silent.address}:${ctx.silent.port}`;
  ctx.open = await startServer({ NETTOOLS_RESOLVERS: resolvers, NETTOOLS_ALLOW_PRIVATE_TARGETS: 'true' });
  ctx.guarded = await startServer({ NETTOOLS_RESOLVERS: resolvers, NETTOOLS_RATE_LIMIT: '3/60s' });
  // Without the silent resolver: a name's resolution ends when Knot has answered.
  ctx.knotOnly = await startServer({ NETTOOLS_RESOLVERS: `knot=127.0.0.14:${ctx.knot.port}`, NETTOOLS_ALLOW_PRIVATE_TARGETS: 'true' });
});

test.after(async (ctx) => {
  await ctx.open?.stop();
  await ctx.guarded?.stop();
  await ctx.knotOnly?.stop();
  await ctx.silent?.stop();
  await ctx.knot?.stop();
});

async function probe(base: string, query: string): Promise<Sample[]> {
  const reply = await request(base, `/probe?${query}`);
  assert.is(reply.status, 200, reply.text);
  assert.match(String(reply.headers['content-type']), 'text/plain; version=0.0.4');
  return parsePromText(reply.text);
}

test('module=icmp reports blackbox_exporter metrics that agree with the ping tool', async ({ open }) => {
  const samples = await probe(open.base, 'module=icmp&target=127.0.0.1');
  const tool = (await postJson(open.base, '/api/tools/ping', { host: '127.0.0.1', count: 1 })).json();
  assert.is(sampleValue(samples, 'probe_success'), 1);
  assert.is(sampleValue(samples, 'probe_ip_protocol'), tool.ipVersion);
  assert.is(sampleValue(samples, 'probe_icmp_reply_hop_limit'), tool.replies[0].ttl);
  assert.is(sampleValue(samples, 'nettools_probe_icmp_packets_sent'), 1);
  const rtt = sampleValue(samples, 'probe_icmp_duration_seconds', { phase: 'rtt' });
  assert.ok(rtt > 0 && rtt < 1, `rtt ${rtt}`);
  assert.ok(sampleValue(samples, 'probe_duration_seconds') >= rtt);
  assert.ok(samples.some((s) => s.name === 'probe_dns_lookup_time_seconds'));
});

test('module=icmp resolves a target name and honours ip_protocol', async ({ open }) => {
  const samples = await probe(open.base, 'module=icmp&target=loop.probe.test&ip_protocol=ip4');
  assert.is(sampleValue(samples, 'probe_success'), 1);
  assert.ok(sampleValue(samples, 'probe_icmp_duration_seconds', { phase: 'resolve' }) > 0);
});

test('a target with no address is probe_success 0, as blackbox_exporter reports it', async ({ open }) => {
  const samples = await probe(open.base, 'module=icmp&target=none.probe.test');
  assert.is(sampleValue(samples, 'probe_success'), 0);
});

test('module=dns reports answer count and success that agree with the dns tool', async ({ open }) => {
  const samples = await probe(open.base, 'module=dns&target=probe.test&type=A&timeout_ms=200');
  const tool = (await postJson(open.base, '/api/tools/dns', { domain: 'probe.test', types: ['A'], timeoutMs: 200 })).json();
  assert.is(sampleValue(samples, 'probe_success'), 1);
  assert.is(sampleValue(samples, 'probe_dns_query_succeeded'), 1);
  assert.is(sampleValue(samples, 'probe_dns_answer_rrs'), tool.records.A.length);
  assert.ok(sampleValue(samples, 'probe_dns_lookup_time_seconds') > 0);
  assert.ok(sampleValue(samples, 'nettools_probe_dns_resolver_rtt_seconds', { resolver: 'knot', rcode: 'NOERROR' }) > 0);
  assert.not.ok(samples.some((s) => s.labels['resolver'] === 'mute'));
});

test('module=dns with only a silent resolver is probe_success 0', async ({ open }) => {
  const samples = await probe(open.base, 'module=dns&target=probe.test&resolver=mute&timeout_ms=100');
  assert.is(sampleValue(samples, 'probe_success'), 0);
  assert.is(sampleValue(samples, 'probe_dns_answer_rrs'), 0);
});

const oneHot = (samples: Sample[], name: string) => samples.filter((s) => s.name === name && s.value === 1).map((s) => s.labels['outcome']);

test('module=dns tells a refusing resolver from a missing record: outcome upstream-failed, probe_success 0', async ({ open }) => {
  // Knot refuses a name outside its zones.
  const refused = await probe(open.base, 'module=dns&target=x.elsewhere.test&resolver=knot');
  assert.is(sampleValue(refused, 'probe_success'), 0);
  assert.equal(oneHot(refused, 'nettools_probe_dns_outcome'), ['upstream-failed']);
  assert.is(sampleValue(refused, 'nettools_probe_dns_outcome', { outcome: 'nxdomain' }), 0);
  assert.ok(sampleValue(refused, 'nettools_probe_dns_resolver_rtt_seconds', { resolver: 'knot', rcode: 'REFUSED' }) > 0);
  const missing = await probe(open.base, 'module=dns&target=none.probe.test&resolver=knot');
  assert.is(sampleValue(missing, 'probe_success'), 0);
  assert.equal(oneHot(missing, 'nettools_probe_dns_outcome'), ['nxdomain']);
  const found = await probe(open.base, 'module=dns&target=probe.test&resolver=knot');
  assert.equal(oneHot(found, 'nettools_probe_dns_outcome'), ['records']);
});

test('module=dns with only a silent resolver says upstream-failed too', async ({ open }) => {
  const samples = await probe(open.base, 'module=dns&target=probe.test&resolver=mute&timeout_ms=100');
  assert.equal(oneHot(samples, 'nettools_probe_dns_outcome'), ['upstream-failed']);
});

test('module=icmp tells a name that does not exist from resolvers that refuse it, both probe_success 0', async ({ knotOnly }) => {
  const missing = await probe(knotOnly.base, 'module=icmp&target=none.probe.test');
  assert.is(sampleValue(missing, 'probe_success'), 0);
  assert.equal(oneHot(missing, 'nettools_probe_icmp_resolve_outcome'), ['nxdomain']);
  const refused = await probe(knotOnly.base, 'module=icmp&target=loop.elsewhere.test');
  assert.is(sampleValue(refused, 'probe_success'), 0);
  assert.equal(oneHot(refused, 'nettools_probe_icmp_resolve_outcome'), ['upstream-failed']);
  const resolved = await probe(knotOnly.base, 'module=icmp&target=loop.probe.test');
  assert.is(sampleValue(resolved, 'probe_success'), 1);
  assert.equal(oneHot(resolved, 'nettools_probe_icmp_resolve_outcome'), ['resolved']);
  const literal = await probe(knotOnly.base, 'module=icmp&target=127.0.0.1');
  assert.not.ok(literal.some((s) => s.name === 'nettools_probe_icmp_resolve_outcome'));
});

test('the target policy applies: a loopback target is a 422 problem', async ({ guarded }) => {
  assertProblem(await request(guarded.base, '/probe?module=icmp&target=127.0.0.1'), 422, 'target-forbidden');
});

test('rate limits apply, with their headers', async ({ guarded }) => {
  const replies = [];
  for (let i = 0; i < 3; i++) replies.push(await request(guarded.base, '/probe?module=dns&target=probe.test&resolver=knot'));
  const refused = replies[2]!;
  assertProblem(refused, 429, 'rate-limited');
  assert.ok(refused.headers['retry-after']);
  assert.is(replies[0]!.headers['x-ratelimit-limit'], '3');
});

const bad: Array<[string, string]> = [
  ['target=127.0.0.1', '/module'],
  ['module=nope&target=x.test', '/module'],
  ['module=http&target=x.test', '/target'],
  ['module=http&target=http://x.test/&follow_redirects=6', '/follow_redirects'],
  ['module=icmp', '/target'],
  ['module=icmp&target=a b', '/target'],
  ['module=icmp&target=x.test&ip_protocol=ip5', '/ip_protocol'],
  ['module=icmp&target=x.test&count=11', '/count'],
  ['module=icmp&target=x.test&type=A', '/type'],
  ['module=dns&target=x.test&type=BOGUS', '/type'],
  ['module=dns&target=x.test&resolver=nope', '/resolver'],
  ['module=dns&target=x.test&count=2', '/count'],
  ['module=dns&target=x.test&timeout_ms=fast', '/timeout_ms'],
  ['module=dns&target=x.test&target=y.test', '/target'],
  ['module=dns&target=x.test&debug=1', '/debug'],
  ['__proto__=x&module=icmp&target=127.0.0.1', '/__proto__'],
  ['constructor=x&module=icmp&target=127.0.0.1', '/constructor'],
  ['module=icmp&target=127.0.0.1&hasOwnProperty=1', '/hasOwnProperty'],
];
for (const [query, pointer] of bad) {
  test(`?${query} is refused at ${pointer}`, async ({ open }) => {
    const body = assertProblem(await request(open.base, `/probe?${query}`), 400, 'validation-failed');
    assert.ok(body.errors.some((e: any) => e.pointer === pointer), JSON.stringify(body.errors));
  });
}

test.run();
