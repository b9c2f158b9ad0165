import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { openResolverClient } from '../../src/engines/dns';
import { coalesce } from '../../src/engines/dns/coalescing-client';
import { MemoryLimiterStore } from '../../src/ratelimit/memory-limiter-store';
import { ResolverBudget } from '../../src/ratelimit/resolver-budget';
import { Upstream } from '../../src/tools/upstream';
import { openUpstream } from '../support/upstream';
import { parseAddress, type Address } from '../../src/net/address';
import { resolveHost, type ResolveOutcome } from '../../src/tools/resolve-host';
import { parseHost, type HostTarget } from '../../src/validation/names';
import { startSilentDns } from '../support/fault-dns';
import { startKnot, type KnotServer } from '../support/knot';

let knot: KnotServer;
let silent: Awaited<ReturnType<typeof startSilentDns>>;
let client: Upstream;

test.before(async () => {
  knot = await startKnot([{ domain: 'race.test', records: ['a A 127.0.0.7', 'six AAAA ::1'] }], '127.0.0.6');
  silent = await startSilentDns();
  client = openUpstream([]);
});

test.after(async () => {
  client.close();
  await silent.stop();
  await knot.stop();
});

// The host as the schema's normalize step hands it over.
const host = (text: string): HostTarget => parseHost(text) as HostTarget;
const addr = (text: string): Address => parseAddress(text) as Address;
const resolved = (text: string, shown: string, literal: boolean): ResolveOutcome => ({ ok: true, host: { address: addr(text), shown, literal } });

test('IP literals decide their own family; brackets and IPv4-mapped IPv6 are unwrapped', async () => {
  const none = { client: null, resolvers: [] };
  assert.equal(await resolveHost(host('198.18.0.1'), none), resolved('198.18.0.1', '198.18.0.1', true));
  assert.equal(await resolveHost(host('[FD00::1]'), none), resolved('fd00::1', 'fd00::1', true));
  assert.equal(await resolveHost(host('::ffff:198.18.0.1'), none), resolved('198.18.0.1', '198.18.0.1', true));
});

test('a literal is shown as the caller spelled it, its value is canonical', async () => {
  const r = await resolveHost(host('FD00:0:0::1'), { client: null, resolvers: [] });
  assert.equal(r, { ok: true, host: { address: addr('fd00::1'), shown: 'fd00:0:0::1', literal: true } });
});

test('a literal is the very value the parsed host carries: it is not parsed again', async () => {
  const parsed = host('198.18.0.1') as HostTarget & { address: Address };
  const r = await resolveHost(parsed, { client: null, resolvers: [] });
  assert.ok(r.ok && r.host.address === parsed.address);
});

test('a literal needs no resolver; a name without resolvers is not resolved, and that is no verdict on the name', async () => {
  assert.equal(await resolveHost(host('127.0.0.1'), { client: null, resolvers: [] }), resolved('127.0.0.1', '127.0.0.1', true));
  assert.equal(await resolveHost(host('a.race.test'), { client, resolvers: [] }), { ok: false, failure: { code: 'engine-unavailable', detail: 'no resolvers are configured to resolve host names' } });
});

test('without a DNS engine a name is not resolved, and says why', async () => {
  const r = await resolveHost(host('a.race.test'), { client: null, resolvers: [knot.resolver('k')] });
  assert.equal(r, { ok: false, failure: { code: 'engine-unavailable', detail: 'the DNS engine is not available on this server to resolve host names' } });
});

test('the first resolver to answer wins: a silent one ahead of it costs nothing', async () => {
  const started = Date.now();
  const r = await resolveHost(host('a.race.test'), {
    client,
    resolvers: [{ id: 'mute', address: silent.address, port: silent.port, family: 4 }, knot.resolver('k')],
    timeoutMs: 5000,
  });
  assert.equal(r, resolved('127.0.0.7', '127.0.0.7', false));
  // A behaviour, not a speed target: waiting for the silent one would take the whole 5 s timeout.
  assert.ok(Date.now() - started < 2500, 'waited for the silent resolver');
  assert.ok(silent.received >= 1, 'the silent resolver was asked too');
});

test('without ipVersion, a name with only AAAA resolves to IPv6', async () => {
  const r = await resolveHost(host('six.race.test'), { client, resolvers: [knot.resolver('k')] });
  assert.equal(r, resolved('::1', '::1', false));
});

test('ipVersion 4 on an IPv6-only name is no data: the name exists without an A record', async () => {
  const r = await resolveHost(host('six.race.test'), { client, resolvers: [knot.resolver('k')], ipVersion: 4 });
  assert.equal(r, { ok: false, failure: { code: 'host-not-found', detail: 'six.race.test has no A record', dns: 'no-data' } });
});

test('a name the resolvers say does not exist is NXDOMAIN, not "no record"', async () => {
  const r = await resolveHost(host('gone.race.test'), { client, resolvers: [knot.resolver('k')] });
  assert.equal(r, { ok: false, failure: { code: 'host-not-found', detail: 'gone.race.test does not exist (NXDOMAIN)', dns: 'nxdomain' } });
});

test('resolvers that refuse are an upstream failure naming what each said, not a missing record', async () => {
  // Knot refuses a name outside its zones.
  const r = await resolveHost(host('a.elsewhere.test'), { client, resolvers: [knot.resolver('k')], ipVersion: 4 });
  assert.equal(r, {
    ok: false,
    failure: { code: 'upstream-failed', detail: 'no resolver answered for a.elsewhere.test: k REFUSED', resolvers: [{ id: 'k', address: '127.0.0.6', rcode: 'REFUSED' }] },
  });
});

test('a refusal beside a timeout is upstream-failed; timeouts alone are upstream-timeout', async () => {
  const mute = { id: 'mute', address: silent.address, port: silent.port, family: 4 as const };
  const both = await resolveHost(host('a.elsewhere.test'), { client, resolvers: [knot.resolver('k'), mute], ipVersion: 4, timeoutMs: 300 });
  assert.ok(!both.ok && both.failure.code === 'upstream-failed', JSON.stringify(both));
  assert.is(both.failure.detail, 'no resolver answered for a.elsewhere.test: k REFUSED, mute timeout');
  const silentOnly = await resolveHost(host('a.race.test'), { client, resolvers: [mute], timeoutMs: 300 });
  assert.equal(silentOnly, {
    ok: false,
    failure: { code: 'upstream-timeout', detail: 'no resolver answered for a.race.test: mute timeout', resolvers: [{ id: 'mute', address: silent.address, error: 'timeout' }] },
  });
});

// A fault injector: the engine settles every query, so only a bug can throw from one. Such a bug must
// fail the request (a logged 500), not leave it waiting for ever.
class FaultyUpstream extends Upstream {
  override query(): never {
    throw new Error('injected engine fault');
  }
}

test('a query that fails outright fails the resolution instead of leaving it waiting', async () => {
  const faulty = new FaultyUpstream(coalesce(openResolverClient()), new ResolverBudget(new MemoryLimiterStore({ max: 8 }), 1000), null, []);
  const r = await resolveHost(host('a.race.test'), { client: faulty, resolvers: [knot.resolver('k')] }).then(
    (value) => ({ value }),
    (err: Error) => ({ err }),
  );
  faulty.close();
  assert.ok('err' in r && r.err.message === 'injected engine fault', JSON.stringify(r));
});

test.run();
