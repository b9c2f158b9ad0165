import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { request } from '../support/http';
import { startKnot, type KnotServer } from '../support/knot';
import { assertProblem } from '../support/problem';
import { parsePromText, sampleValue, type Sample } from '../support/prom-text';
import { startServer, type RunningServer } from '../support/server';
import { startTlsSites, type TlsSites } from '../support/tls-sites';

// GET /probe?module=tls against nginx serving certificates openssl made, names from a real Knot.
const test = suite<{ knot: KnotServer; sites: TlsSites; open: RunningServer }>('GET /probe?module=tls');

test.before(async (ctx) => {
  ctx.knot = await startKnot([{ domain: 'tls.test', records: ['good A 127.0.0.1'] }], '127.0.0.172');
  ctx.sites = await startTlsSites();
  ctx.open = await startServer({ NETTOOLS_RESOLVERS: `knot=127.0.0.172:${ctx.knot.port}`, NETTOOLS_ALLOW_PRIVATE_TARGETS: 'true', NETTOOLS_RATE_LIMIT: '1000/1s', NETTOOLS_TLS_CA_FILE: ctx.sites.caFile });
});

test.after(async (ctx) => {
  await ctx.open?.stop();
  await ctx.sites?.stop();
  await ctx.knot?.stop();
});

async function probe(base: string, query: string): Promise<Sample[]> {
  const reply = await request(base, `/probe?${query}`);
  assert.is(reply.status, 200, reply.text);
  return parsePromText(reply.text);
}

test('a certificate that verifies is probe_success 1, with its expiry and TLS version as blackbox names them', async ({ open, sites }) => {
  const samples = await probe(open.base, `module=tls&target=good.tls.test:${sites.ports.good}`);
  assert.is(sampleValue(samples, 'probe_success'), 1);
  assert.is(sampleValue(samples, 'probe_tls_version_info', { version: 'TLS 1.3' }), 1);
  const daysLeft = (sampleValue(samples, 'probe_ssl_earliest_cert_expiry') - Date.now() / 1000) / 86_400;
  assert.ok(daysLeft > 2 && daysLeft <= 3, String(daysLeft));
  assert.ok(sampleValue(samples, 'nettools_probe_tls_duration_seconds', { phase: 'handshake' }) > 0);
});

test('probe_ssl_earliest_cert_expiry reads the certificates the server sent, not the trust anchor that outlives them less', async ({ open, sites }) => {
  const samples = await probe(open.base, `module=tls&target=good.tls.test:${sites.ports.outlivesCa}`);
  const daysLeft = (sampleValue(samples, 'probe_ssl_earliest_cert_expiry') - Date.now() / 1000) / 86_400;
  assert.ok(daysLeft > 59 && daysLeft <= 60, `${daysLeft} days: the CA's ${(sites.caExpiry - Date.now() / 1000) / 86_400} would mean the anchor was counted`);
  assert.is(sampleValue(samples, 'probe_ssl_last_chain_expiry_timestamp_seconds'), sampleValue(samples, 'probe_ssl_earliest_cert_expiry'));
});

test('an expired certificate is probe_success 0, its expiry in the past', async ({ open, sites }) => {
  const samples = await probe(open.base, `module=tls&target=127.0.0.1:${sites.ports.expired}&server_name=good.tls.test`);
  assert.is(sampleValue(samples, 'probe_success'), 0);
  assert.ok(sampleValue(samples, 'probe_ssl_earliest_cert_expiry') < Date.now() / 1000);
});

test('a bad server_name is a 400 that points at server_name', async ({ open, sites }) => {
  const problem = assertProblem(await request(open.base, `/probe?module=tls&target=127.0.0.1:${sites.ports.good}&server_name=a%20b`), 400, 'validation-failed');
  assert.ok(JSON.stringify(problem).includes('server_name'), JSON.stringify(problem));
});

test.run();
