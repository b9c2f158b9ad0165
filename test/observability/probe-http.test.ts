import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { request } from '../support/http';
import { startHttpSites, type HttpSites } from '../support/http-sites';
import { startKnot, type KnotServer } from '../support/knot';
import { freeTcpPort } from '../support/ports';
import { parsePromText, sampleValue, type Sample } from '../support/prom-text';
import { startServer, type RunningServer } from '../support/server';
import { startTlsSites, type TlsSites } from '../support/tls-sites';

// GET /probe?module=http against real nginx sites (plain and TLS), names from a real Knot: the metric
// names of blackbox_exporter's http prober, so that a job written for blackbox works here.
const test = suite<{ knot: KnotServer; sites: HttpSites; tls: TlsSites; open: RunningServer }>('GET /probe?module=http');

test.before(async (ctx) => {
  ctx.knot = await startKnot([{ domain: 'http.test', records: ['other A 127.0.0.2'] }, { domain: 'tls.test', records: ['good A 127.0.0.1'] }], '127.0.0.176');
  ctx.sites = await startHttpSites('other.http.test');
  ctx.tls = await startTlsSites();
  ctx.open = await startServer({ NETTOOLS_RESOLVERS: `knot=127.0.0.176:${ctx.knot.port}`, NETTOOLS_ALLOW_PRIVATE_TARGETS: 'true', NETTOOLS_RATE_LIMIT: '1000/1s', NETTOOLS_TLS_CA_FILE: ctx.tls.caFile });
});

test.after(async (ctx) => {
  await ctx.open?.stop();
  await ctx.tls?.stop();
  await ctx.sites?.stop();
  await ctx.knot?.stop();
});

async function probe(base: string, target: string, extra = ''): Promise<Sample[]> {
  const reply = await request(base, `/probe?module=http&target=${encodeURIComponent(target)}${extra}`);
  assert.is(reply.status, 200, reply.text);
  assert.match(reply.headers['content-type'] ?? '', /^text\/plain; version=0\.0\.4/);
  return parsePromText(reply.text);
}

test('a 200 is probe_success 1 with the status, version, length and each phase as blackbox names them', async ({ open, sites }) => {
  const samples = await probe(open.base, `http://127.0.0.1:${sites.main}/`);
  assert.is(sampleValue(samples, 'probe_success'), 1);
  assert.is(sampleValue(samples, 'probe_http_status_code'), 200);
  assert.is(sampleValue(samples, 'probe_http_version'), 1.1);
  assert.is(sampleValue(samples, 'probe_http_content_length'), 6);
  assert.is(sampleValue(samples, 'probe_http_ssl'), 0);
  assert.is(sampleValue(samples, 'probe_http_redirects'), 0);
  assert.is(sampleValue(samples, 'probe_ip_protocol'), 4);
  assert.ok(sampleValue(samples, 'probe_http_duration_seconds', { phase: 'connect' }) > 0, 'connect');
  // Present, and 0 or more: on loopback the answer can arrive before the request's send() returns, and
  // time to first byte is then 0 (docs/http.md).
  const processing = samples.find((s) => s.name === 'probe_http_duration_seconds' && s.labels['phase'] === 'processing');
  assert.ok(processing !== undefined && processing.value >= 0, 'processing');
  assert.is(sampleValue(samples, 'probe_http_duration_seconds', { phase: 'tls' }), 0);
});

test('redirects are followed by default, as blackbox follows them, and counted', async ({ open, sites }) => {
  const samples = await probe(open.base, `http://127.0.0.1:${sites.main}/to-other`);
  assert.is(sampleValue(samples, 'probe_http_redirects'), 1);
  assert.is(sampleValue(samples, 'probe_http_status_code'), 200);
  assert.is(sampleValue(samples, 'probe_success'), 1);
});

test('follow_redirects=0 leaves the redirect as the answer: probe_success 0 for a 302', async ({ open, sites }) => {
  const samples = await probe(open.base, `http://127.0.0.1:${sites.main}/to-other`, '&follow_redirects=0');
  assert.is(sampleValue(samples, 'probe_http_status_code'), 302);
  assert.is(sampleValue(samples, 'probe_success'), 0);
});

test('https reports probe_http_ssl 1, the TLS version and the certificate expiry', async ({ open, tls }) => {
  const samples = await probe(open.base, `https://good.tls.test:${tls.ports.good}/`);
  assert.is(sampleValue(samples, 'probe_http_status_code'), 204);
  assert.is(sampleValue(samples, 'probe_http_ssl'), 1);
  assert.is(sampleValue(samples, 'probe_tls_version_info', { version: 'TLS 1.3' }), 1);
  assert.ok(sampleValue(samples, 'probe_ssl_earliest_cert_expiry') > Date.now() / 1000);
  assert.ok(sampleValue(samples, 'probe_http_duration_seconds', { phase: 'tls' }) > 0);
});

test('an expired certificate is probe_success 0 and no status', async ({ open, tls }) => {
  const samples = await probe(open.base, `https://good.tls.test:${tls.ports.expired}/`);
  assert.is(sampleValue(samples, 'probe_success'), 0);
  assert.is(sampleValue(samples, 'probe_http_status_code'), 0);
  assert.ok(sampleValue(samples, 'probe_ssl_earliest_cert_expiry') < Date.now() / 1000);
});

test('a refused connection is probe_success 0', async ({ open }) => {
  const samples = await probe(open.base, `http://127.0.0.1:${await freeTcpPort('127.0.0.1')}/`);
  assert.is(sampleValue(samples, 'probe_success'), 0);
  assert.is(sampleValue(samples, 'probe_http_status_code'), 0);
});

test.run();
