import { test } from 'uvu';
import * as assert from 'uvu/assert';
import type { Config, ResolverConfig } from '../../../src/config/types';
import type { DnsRequest, DnsResult } from '../../../src/tools/dns';
import { openDns } from '../../../src/tools/dns/run';
import type { Outcome } from '../../../src/tools/outcome';
import { openTools } from '../../../src/tools/registry';
import type { ToolSlot } from '../../../src/tools/tool';
import type { Upstream } from '../../../src/tools/upstream';
import { openUpstream } from '../../support/upstream';
import { startSilentDns } from '../../support/fault-dns';
import { startKnot, stopAllKnot, type KnotServer } from '../../support/knot';
import { testConfig } from '../../support/server';
import { CancelSource } from '../../../src/util/cancel';
import { waitFor } from '../../support/wait';

type Silent = Awaited<ReturnType<typeof startSilentDns>>;
type Body = {
  domain: string;
  records: Record<string, Array<Record<string, unknown>>>;
  consistent: boolean;
  resolvers: Array<{ id: string; address: string; queries: Record<string, Record<string, unknown>> }>;
  durationMs: number;
};

function zone(ttl: number, a: string, extra: string[] = []) {
  return { domain: 'example.test', ttl, records: ['@ A 192.0.2.1', '@ MX 10 mail', '@ TXT "same"', 'www CNAME @', `diff A ${a}`, ...extra] };
}

let one: KnotServer;
let two: KnotServer;
let broken: KnotServer;
let silentA: Silent;
let silentB: Silent;
let config: Config;
let slot: ToolSlot<DnsRequest, DnsResult>;
let client: Upstream;
const never = new CancelSource();

function configWith(resolvers: ResolverConfig[]): Config {
  return { ...testConfig(), resolvers };
}

test.before(async () => {
  one = await startKnot([zone(300, '192.0.2.10')], '127.0.0.3');
  two = await startKnot([zone(120, '192.0.2.20', ['onlytwo A 192.0.2.30'])], '127.0.0.4');
  // Serves example.test from a missing file (SERVFAIL); `probe.test` only lets the harness see it is up.
  broken = await startKnot([{ domain: 'example.test', missingFile: true }, { domain: 'probe.test' }], '127.0.0.5');
  silentA = await startSilentDns();
  silentB = await startSilentDns();
  config = configWith([
    one.resolver('one'),
    two.resolver('two'),
    broken.resolver('broken'),
    { id: 'silentA', address: silentA.address, port: silentA.port, family: 4 },
    { id: 'silentB', address: silentB.address, port: silentB.port, family: 4 },
  ]);
  client = openUpstream(config.resolvers);
  slot = openDns({ config, dns: { upstream: client }, icmp: { unavailable: 'the dns tool uses no ICMP engine' }, registry: null });
});

test.after(async () => {
  if (slot && 'close' in slot) slot.close();
  client?.close();
  await silentA?.stop();
  await silentB?.stop();
  await stopAllKnot();
});

async function run(request: Partial<DnsRequest> & { resolvers: string[] }): Promise<Outcome<DnsResult>> {
  if (!('run' in slot)) throw new Error(`dns tool unavailable: ${slot.unavailable}`);
  return slot.run({ domain: 'example.test', types: ['A'], timeoutMs: 1000, ...request }, never);
}

async function ok(request: Partial<DnsRequest> & { resolvers: string[] }): Promise<Body> {
  const r = await run(request);
  assert.ok(r.ok, JSON.stringify(r));
  return (r as unknown as { value: Body }).value;
}

test('agreeing resolvers: records de-duplicated, the smallest TTL kept, consistent', async () => {
  const body = await ok({ resolvers: ['one', 'two'] });
  assert.equal(body.records.A, [{ address: '192.0.2.1', ttl: 120 }]);
  assert.is(body.consistent, true);
});

test('resolvers returning different record sets for a type make the answer inconsistent; records are the union', async () => {
  const body = await ok({ domain: 'diff.example.test', resolvers: ['one', 'two'] });
  assert.is(body.consistent, false);
  assert.equal(body.records.A, [{ address: '192.0.2.10', ttl: 300 }, { address: '192.0.2.20', ttl: 120 }]);
});

test('NXDOMAIN at one resolver against data at another is inconsistent', async () => {
  const body = await ok({ domain: 'onlytwo.example.test', resolvers: ['one', 'two'] });
  assert.is(body.resolvers[0]?.queries.A?.rcode, 'NXDOMAIN');
  assert.is(body.consistent, false);
});

test('a SERVFAIL says nothing about the data and does not break consistency', async () => {
  const body = await ok({ resolvers: ['one', 'broken'] });
  assert.is(body.resolvers[1]?.queries.A?.rcode, 'SERVFAIL');
  assert.is(body.consistent, true);
  assert.equal(body.records.A, [{ address: '192.0.2.1', ttl: 300 }]);
});

test('only the requested types appear in records', async () => {
  const body = await ok({ types: ['MX', 'TXT'], resolvers: ['one'] });
  assert.equal(Object.keys(body.records), ['MX', 'TXT']);
  assert.equal(body.records.MX, [{ priority: 10, exchange: 'mail.example.test', ttl: 300 }]);
  assert.equal(body.records.TXT, [{ value: 'same', parts: ['same'], ttl: 300 }]);
  assert.equal(Object.keys(body.resolvers[0]?.queries ?? {}), ['MX', 'TXT']);
});

test('a followed alias adds CNAME records with the smallest TTL seen', async () => {
  const body = await ok({ domain: 'www.example.test', resolvers: ['one', 'two'] });
  assert.equal(body.records.CNAME, [{ name: 'www.example.test', target: 'example.test', ttl: 120 }]);
  assert.equal(body.records.A, [{ address: '192.0.2.1', ttl: 120 }]);
});

test('resolvers are reported in configured order with id, address and one entry per type', async () => {
  const body = await ok({ types: ['A', 'TXT'], resolvers: ['two', 'one'] });
  assert.equal(body.resolvers.map((r) => [r.id, r.address]), [['one', '127.0.0.3'], ['two', '127.0.0.4']]);
  assert.equal(Object.keys(body.resolvers[1]?.queries ?? {}), ['A', 'TXT']);
  assert.is(body.domain, 'example.test');
  assert.ok(body.durationMs > 0 && Math.round(body.durationMs * 1000) / 1000 === body.durationMs);
});

test('every configured resolver is asked when the request names none', async () => {
  if (!('run' in slot)) throw new Error('unavailable');
  const r = await slot.run({ domain: 'example.test', types: ['A'], timeoutMs: 300 }, never);
  assert.ok(r.ok);
  const body = (r as unknown as { value: Body }).value;
  assert.equal(body.resolvers.map((x) => x.id), ['one', 'two', 'broken', 'silentA', 'silentB']);
});

test('an unknown resolver id is a field failure pointing at it', async () => {
  const r = await run({ resolvers: ['one', 'nope', 'two', 'other'] });
  assert.equal(r, {
    ok: false,
    failure: {
      code: 'invalid-field',
      detail: 'resolvers must name configured resolvers',
      fields: [
        { path: ['resolvers', 1], message: 'unknown resolver id "nope"' },
        { path: ['resolvers', 3], message: 'unknown resolver id "other"' },
      ],
    },
  });
});

test('a silent resolver times out while the others answer within the timeout', async () => {
  const body = await ok({ resolvers: ['one', 'silentA', 'two'], timeoutMs: 400 });
  assert.equal(body.resolvers.map((r) => r.id), ['one', 'two', 'silentA']);
  assert.is(body.resolvers[0]?.queries.A?.rcode, 'NOERROR');
  assert.is(body.resolvers[1]?.queries.A?.rcode, 'NOERROR');
  assert.equal(body.resolvers[2]?.queries.A, { error: 'timeout' });
  assert.is(body.consistent, true);
});

test('when no resolver answers any query the result is upstream-timeout carrying the resolvers', async () => {
  const r = await run({ types: ['A', 'MX'], resolvers: ['silentA', 'silentB'], timeoutMs: 300 });
  assert.not.ok(r.ok);
  if (r.ok || r.failure.code !== 'upstream-timeout') return assert.unreachable(JSON.stringify(r));
  assert.equal(r.failure.resolvers, [
    { id: 'silentA', address: '127.0.0.1', queries: { A: { error: 'timeout' }, MX: { error: 'timeout' } } },
    { id: 'silentB', address: '127.0.0.1', queries: { A: { error: 'timeout' }, MX: { error: 'timeout' } } },
  ]);
});

test('an aborted request stops its queries at once', async () => {
  if (!('run' in slot)) throw new Error('unavailable');
  const ac = new CancelSource();
  const received = silentA.received;
  const pending = slot.run({ domain: 'example.test', types: ['A'], resolvers: ['silentA'], timeoutMs: 5000 }, ac);
  await waitFor('the query at the silent resolver', () => silentA.received > received);
  ac.abort();
  const r = await pending;
  assert.equal(r, { ok: false, failure: { code: 'aborted', detail: 'the caller went away before every resolver answered' } });
  assert.is(client.counters().inFlight, 0);
});

test('the registry plugs the DNS tool in and closes it', async () => {
  const tools = openTools(configWith([one.resolver('one')]), null);
  const dns = tools.list.find((t) => t.tool.name === 'dns')?.slot;
  assert.ok(dns && 'run' in dns);
  if (dns && 'run' in dns) {
    assert.equal(dns.info['resolvers'], ['one']);
    const r = await dns.run({ domain: 'example.test', types: ['A'], timeoutMs: 1000 }, never);
    assert.ok(r.ok);
  }
  tools.close();
});

test.run();
