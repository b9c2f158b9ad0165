import { test } from 'uvu';
import * as assert from 'uvu/assert';
import type { Upstream } from '../../src/tools/upstream';
import { openUpstream } from '../support/upstream';
import { parseLiteral, resolveHost } from '../../src/tools/resolve-host';
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

test('IP literals decide their own family; brackets and IPv4-mapped IPv6 are unwrapped', () => {
  assert.equal(parseLiteral('198.18.0.1'), { address: '198.18.0.1', family: 4, literal: true });
  assert.equal(parseLiteral('[FD00::1]'), { address: 'fd00::1', family: 6, literal: true });
  assert.equal(parseLiteral('::ffff:198.18.0.1'), { address: '198.18.0.1', family: 4, literal: true });
  assert.is(parseLiteral('a.ping.test'), null);
  assert.is(parseLiteral('[a.ping.test]'), null);
});

test('a literal needs no resolver; a name without resolvers has no address', async () => {
  assert.equal(await resolveHost('127.0.0.1', { client: null, resolvers: [] }), {
    ok: true,
    host: { address: '127.0.0.1', family: 4, literal: true },
  });
  assert.is((await resolveHost('a.race.test', { client, resolvers: [] })).ok, false);
});

test('without a DNS engine a name is not resolved, and says why', async () => {
  const r = await resolveHost('a.race.test', { client: null, resolvers: [knot.resolver('k')] });
  assert.equal(r, { ok: false, reason: 'the DNS engine is not available on this server to resolve host names' });
});

test('the first resolver to answer wins: a silent one ahead of it costs nothing', async () => {
  const started = Date.now();
  const r = await resolveHost('a.race.test', {
    client,
    resolvers: [{ id: 'mute', address: silent.address, port: silent.port, family: 4 }, knot.resolver('k')],
    timeoutMs: 5000,
  });
  assert.equal(r, { ok: true, host: { address: '127.0.0.7', family: 4, literal: false } });
  // A behaviour, not a speed target: waiting for the silent one would take the whole 5 s timeout.
  assert.ok(Date.now() - started < 2500, 'waited for the silent resolver');
  assert.ok(silent.received >= 1, 'the silent resolver was asked too');
});

test('without ipVersion, a name with only AAAA resolves to IPv6', async () => {
  const r = await resolveHost('six.race.test', { client, resolvers: [knot.resolver('k')] });
  assert.equal(r, { ok: true, host: { address: '::1', family: 6, literal: false } });
});

test('ipVersion 4 on an IPv6-only name has no address', async () => {
  const r = await resolveHost('six.race.test', { client, resolvers: [knot.resolver('k')], ipVersion: 4 });
  assert.equal(r, { ok: false, reason: 'six.race.test has no A record' });
});

test.run();
