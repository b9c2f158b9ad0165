import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { assertMatchesSchema } from '../../support/contract';
import { request } from '../../support/http';
import { startHttpSites, type HttpSites } from '../../support/http-sites';
import { startServer, type RunningServer } from '../../support/server';

// The streamed form, as tls's: a start event, a redirect event per redirect followed, then the summary.
const test = suite<{ sites: HttpSites; server: RunningServer }>('http check: streamed');

test.before(async (ctx) => {
  ctx.sites = await startHttpSites('other.http.test');
  ctx.server = await startServer({ NETTOOLS_RESOLVERS: 'none=127.0.0.1:9', NETTOOLS_RATE_LIMIT: '1000/1s', NETTOOLS_ALLOW_PRIVATE_TARGETS: 'true' });
});

test.after(async (ctx) => {
  await ctx.server?.stop();
  await ctx.sites?.stop();
});

test('streamed (NDJSON), a check is its start, a redirect event per redirect followed as it happens, then its summary', async ({ server, sites }) => {
  const url = `http://127.0.0.1:${sites.main}/loop`;
  const reply = await request(server.base, '/api/tools/http', { method: 'POST', headers: { 'content-type': 'application/json', accept: 'application/x-ndjson' }, body: JSON.stringify({ url, followRedirects: 2 }) });
  assert.is(reply.status, 200, reply.text);
  const events = reply.text.trim().split('\n').map((line) => JSON.parse(line));
  assert.equal(events.map((e) => e.event), ['start', 'redirect', 'redirect', 'summary']);
  for (const event of events.slice(0, 3)) assertMatchesSchema('HttpStreamEvent', event);
  assert.equal([events[0].data.url, events[0].data.address, events[0].data.port, events[0].data.followRedirects], [url, '127.0.0.1', sites.main, 2]);
  assert.equal([events[1].data.status, events[1].data.location], [302, url]);
  assertMatchesSchema('HttpResult', events[3].data);
  assert.equal(events[3].data.redirects, [events[1].data, events[2].data]);
});

test.run();
