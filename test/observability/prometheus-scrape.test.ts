import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { startKnot, type KnotServer } from '../support/knot';
import { startHttpSites, type HttpSites } from '../support/http-sites';
import { freeTcpPort } from '../support/ports';
import { startPrometheus, type Prometheus } from '../support/prometheus';
import { startServer, type RunningServer } from '../support/server';
import { listenTcp, type TcpListener } from '../support/tcp-listener';
import { waitFor } from '../support/wait';
import { startTlsSites, type TlsSites } from '../support/tls-sites';

// A real Prometheus scrapes /probe with the scrape configs a blackbox_exporter user writes, and the
// answers are read back through Prometheus' own query API: what reaches its storage is what counts.
interface Ctx {
  knot: KnotServer;
  sites: TlsSites;
  web: HttpSites;
  listener: TcpListener;
  closedPort: number;
  nettools: RunningServer;
  prometheus: Prometheus;
}
const test = suite<Ctx>('a real Prometheus scraping /probe');

// The blackbox documentation's form: the module as a fixed parameter of the job.
const tcpJob = (nettools: string, targets: string[]) => `  - job_name: tcp
    metrics_path: /probe
    params: { module: [tcp] }
    static_configs:
      - targets: [${targets.map((t) => `'${t}'`).join(', ')}]
    relabel_configs:
      - source_labels: [__address__]
        target_label: __param_target
      - source_labels: [__param_target]
        target_label: instance
      - target_label: __address__
        replacement: ${nettools}
`;

// The other common form: one job, each target group naming its module in a label that becomes __param_module.
const labelledJob = (nettools: string, groups: { module: string; targets: string[] }[]) => `  - job_name: blackbox
    metrics_path: /probe
    static_configs:
${groups.map((g) => `      - targets: [${g.targets.map((t) => `'${t}'`).join(', ')}]\n        labels: { module: ${g.module} }`).join('\n')}
    relabel_configs:
      - source_labels: [__address__]
        target_label: __param_target
      - source_labels: [module]
        target_label: __param_module
      - source_labels: [__param_target]
        target_label: instance
      - target_label: __address__
        replacement: ${nettools}
`;

test.before(async (ctx) => {
  ctx.knot = await startKnot([{ domain: 'tls.test', records: ['good A 127.0.0.1'] }], '127.0.0.173');
  ctx.sites = await startTlsSites();
  ctx.web = await startHttpSites('other.http.test');
  ctx.listener = await listenTcp('127.0.0.1');
  ctx.closedPort = await freeTcpPort('127.0.0.1');
  // A scrape a second per target: budgets that a minute of scrapes cannot reach.
  ctx.nettools = await startServer({ NETTOOLS_RESOLVERS: `knot=127.0.0.173:${ctx.knot.port}`, NETTOOLS_ALLOW_PRIVATE_TARGETS: 'true', NETTOOLS_RATE_LIMIT: '100000/1s', NETTOOLS_TARGET_CONNECTIONS_PER_MINUTE: '100000', NETTOOLS_TLS_CA_FILE: ctx.sites.caFile });
  const at = `127.0.0.1:${ctx.nettools.port}`;
  ctx.prometheus = await startPrometheus(
    tcpJob(at, [`127.0.0.1:${ctx.listener.port}`, `127.0.0.1:${ctx.closedPort}`]) +
      labelledJob(at, [
        { module: 'tls', targets: [`good.tls.test:${ctx.sites.ports.good}`, `good.tls.test:${ctx.sites.ports.outlivesCa}`] },
        { module: 'icmp', targets: ['127.0.0.1'] },
        { module: 'http', targets: [`http://127.0.0.1:${ctx.web.main}/moved`, `https://good.tls.test:${ctx.sites.ports.good}/`, `http://127.0.0.1:${ctx.closedPort}/`] },
      ]),
  );
});

test.after(async (ctx) => {
  await ctx.prometheus?.stop();
  await ctx.nettools?.stop();
  await ctx.listener?.stop();
  await ctx.sites?.stop();
  await ctx.web?.stop();
  await ctx.knot?.stop();
});

// The one sample of `metric` for the instance, once a scrape has brought it.
async function value(prometheus: Prometheus, metric: string, instance: string, extra = ''): Promise<number> {
  const samples = await prometheus.waitForSeries(`${metric}{instance="${instance}"${extra}}`);
  assert.is(samples.length, 1, JSON.stringify(samples));
  return samples[0]!.value;
}

const days = (unixSeconds: number) => (unixSeconds - Date.now() / 1000) / 86_400;

test('module=tcp: a listening loopback port arrives as probe_success 1 with its duration and IP protocol', async ({ prometheus, listener }) => {
  const instance = `127.0.0.1:${listener.port}`;
  assert.is(await value(prometheus, 'up', instance, ',job="tcp"'), 1);
  assert.is(await value(prometheus, 'probe_success', instance), 1);
  assert.is(await value(prometheus, 'probe_ip_protocol', instance), 4);
  assert.ok((await value(prometheus, 'probe_duration_seconds', instance)) > 0);
  assert.is(await value(prometheus, 'nettools_probe_tcp_attempts_connected', instance), 1);
  assert.ok((await value(prometheus, 'nettools_probe_tcp_duration_seconds', instance, ',phase="connect"')) > 0);
  await waitFor('the listener to have accepted a scrape\'s connection', () => listener.accepted() > 0);
});

test('module=tcp: a closed port is a successful scrape whose probe_success is 0', async ({ prometheus, closedPort }) => {
  const instance = `127.0.0.1:${closedPort}`;
  assert.is(await value(prometheus, 'up', instance), 1);
  assert.is(await value(prometheus, 'probe_success', instance), 0);
  assert.is(await value(prometheus, 'nettools_probe_tcp_attempts_connected', instance), 0);
});

test('module=tls through __param_module: probe_success, the TLS version and the leaf expiry arrive', async ({ prometheus, sites }) => {
  const instance = `good.tls.test:${sites.ports.good}`;
  assert.is(await value(prometheus, 'up', instance, ',job="blackbox",module="tls"'), 1);
  assert.is(await value(prometheus, 'probe_success', instance), 1);
  assert.is(await value(prometheus, 'probe_tls_version_info', instance, ',version="TLS 1.3"'), 1);
  assert.is(await value(prometheus, 'probe_ip_protocol', instance), 4);
  assert.ok((await value(prometheus, 'probe_duration_seconds', instance)) > 0);
  assert.ok((await value(prometheus, 'probe_dns_lookup_time_seconds', instance)) > 0);
  const earliest = await value(prometheus, 'probe_ssl_earliest_cert_expiry', instance);
  assert.ok(days(earliest) > 2 && days(earliest) <= 3, String(days(earliest)));
  assert.is(await value(prometheus, 'probe_ssl_last_chain_expiry_timestamp_seconds', instance), earliest);
  assert.ok((await value(prometheus, 'nettools_probe_tls_duration_seconds', instance, ',phase="handshake"')) > 0);
});

test('module=tls: a leaf that outlives its CA is the earliest expiry Prometheus stores, not the trust anchor', async ({ prometheus, sites }) => {
  const earliest = await value(prometheus, 'probe_ssl_earliest_cert_expiry', `good.tls.test:${sites.ports.outlivesCa}`);
  assert.ok(days(earliest) > 59 && days(earliest) <= 60, `${days(earliest)} days (the CA ends in ${days(sites.caExpiry)})`);
});

test('module=icmp through __param_module: a loopback ping arrives as probe_success 1', async ({ prometheus }) => {
  assert.is(await value(prometheus, 'probe_success', '127.0.0.1', ',module="icmp"'), 1);
  assert.is(await value(prometheus, 'probe_ip_protocol', '127.0.0.1'), 4);
  assert.ok((await value(prometheus, 'probe_icmp_duration_seconds', '127.0.0.1', ',phase="rtt"')) > 0);
});

test('module=http: a URL whose redirect is followed arrives with its status, the redirect and each phase', async ({ prometheus, web }) => {
  const instance = `http://127.0.0.1:${web.main}/moved`;
  assert.is(await value(prometheus, 'up', instance, ',job="blackbox",module="http"'), 1);
  assert.is(await value(prometheus, 'probe_success', instance), 1);
  assert.is(await value(prometheus, 'probe_http_status_code', instance), 200);
  assert.is(await value(prometheus, 'probe_http_redirects', instance), 1);
  assert.is(await value(prometheus, 'probe_http_ssl', instance), 0);
  assert.is(await value(prometheus, 'probe_http_uncompressed_body_length', instance), 6); // "hello\n"
  assert.ok((await value(prometheus, 'probe_http_duration_seconds', instance, ',phase="connect"')) > 0);
  // An answer may arrive before the request's write has returned (loopback): processing can be 0.
  assert.ok((await value(prometheus, 'probe_http_duration_seconds', instance, ',phase="processing"')) >= 0);
  assert.is(await value(prometheus, 'probe_http_duration_seconds', instance, ',phase="tls"'), 0);
});

test('module=http: an https URL arrives with probe_http_ssl 1, its TLS phase and the leaf expiry', async ({ prometheus, sites }) => {
  const instance = `https://good.tls.test:${sites.ports.good}/`;
  assert.is(await value(prometheus, 'probe_success', instance), 1);
  assert.is(await value(prometheus, 'probe_http_status_code', instance), 204);
  assert.is(await value(prometheus, 'probe_http_ssl', instance), 1);
  assert.ok((await value(prometheus, 'probe_http_duration_seconds', instance, ',phase="tls"')) > 0);
  assert.ok((await value(prometheus, 'probe_http_duration_seconds', instance, ',phase="resolve"')) > 0);
  const earliest = await value(prometheus, 'probe_ssl_earliest_cert_expiry', instance);
  assert.ok(days(earliest) > 2 && days(earliest) <= 3, String(days(earliest)));
});

test('module=http: a URL whose port refuses is a successful scrape with probe_success 0 and no status', async ({ prometheus, closedPort }) => {
  const instance = `http://127.0.0.1:${closedPort}/`;
  assert.is(await value(prometheus, 'up', instance), 1);
  assert.is(await value(prometheus, 'probe_success', instance), 0);
  assert.is(await value(prometheus, 'probe_http_status_code', instance), 0);
});

test.run();
