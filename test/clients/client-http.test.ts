import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { NettoolsClient } from '../../clients/typescript/src/index';
import { startHttpSites, type HttpSites } from '../support/http-sites';
import { startServer, type RunningServer } from '../support/server';

// The typed client's http() and httpStream() against the real server and a real nginx on loopback. No resolver is asked.
const test = suite<{ open: RunningServer; sites: HttpSites }>('client http() and httpStream()');

test.before(async (ctx) => {
  ctx.sites = await startHttpSites('other.http.test');
  ctx.open = await startServer({ NETTOOLS_RESOLVERS: 'none=127.0.0.1:9', NETTOOLS_ALLOW_PRIVATE_TARGETS: 'true', NETTOOLS_RATE_LIMIT: '1000/1s' });
});

test.after(async (ctx) => {
  await ctx.open?.stop();
  await ctx.sites?.stop();
});

test('http() answers the status, the redirects followed and the timings as a value', async ({ open, sites }) => {
  const answer = await new NettoolsClient({ baseUrl: open.base }).http({ url: `http://127.0.0.1:${sites.main}/loop`, followRedirects: 1 });
  assert.ok(answer.ok, JSON.stringify(answer));
  if (!answer.ok) return;
  assert.is(answer.value.status, 302);
  assert.is(answer.value.redirects.length, 1);
  assert.ok(answer.value.timings.totalMs > 0);
});

test('http() gives a refused redirect as its problem, naming the redirect', async ({ open, sites }) => {
  const answer = await new NettoolsClient({ baseUrl: open.base }).http({ url: `http://127.0.0.1:${sites.main}/to-port-25`, followRedirects: 1 });
  assert.ok(!answer.ok);
  if (answer.ok || answer.error.kind !== 'problem') return assert.unreachable(JSON.stringify(answer));
  assert.equal([answer.error.problem.code, answer.error.problem.range, answer.error.problem.url], ['target-forbidden', 'port', 'http://127.0.0.1:25/']);
});

test('httpStream() yields the start, each redirect as it is followed, then the summary holding what http() answers', async ({ open, sites }) => {
  const events = [];
  for await (const e of new NettoolsClient({ baseUrl: open.base }).httpStream({ url: `http://127.0.0.1:${sites.main}/moved`, followRedirects: 2 })) events.push(e);
  assert.equal(events.map((e) => e.event), ['start', 'redirect', 'summary']);
  const [, redirect, summary] = events;
  if (redirect?.event !== 'redirect' || summary?.event !== 'summary') return assert.unreachable(JSON.stringify(events));
  assert.equal([redirect.data.status, redirect.data.location], [301, `http://127.0.0.1:${sites.main}/`]);
  assert.equal([summary.data.status, summary.data.redirects], [200, [redirect.data]]);
});

test.run();
