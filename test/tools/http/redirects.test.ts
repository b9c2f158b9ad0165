import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import type { Address } from '../../../src/net/address';
import { createTargetCheck } from '../../../src/policy/target-policy';
import { httpTool } from '../../../src/tools/http';
import { openHttp } from '../../../src/tools/http/run';
import { assertMatchesSchema } from '../../support/contract';
import { postJson } from '../../support/http';
import { startHttpSites, type HttpSites } from '../../support/http-sites';
import { startKnot, type KnotServer } from '../../support/knot';
import { assertProblem } from '../../support/problem';
import { startServerWithTools, type RunningServer } from '../../support/server';

// Redirects against a real nginx on two loopback addresses, with a target policy that allows loopback
// alone (the operator's default refusals for everything else), and records every address it is asked about.
const test = suite<{ knot: KnotServer; sites: HttpSites; server: RunningServer; asked: string[] }>('http check: redirects');

test.before(async (ctx) => {
  ctx.knot = await startKnot([{ domain: 'http.test', records: ['other A 127.0.0.2'] }], '127.0.0.174');
  ctx.sites = await startHttpSites('other.http.test');
  ctx.asked = [];
  const refused = createTargetCheck({ allowPrivateTargets: false });
  const loopbackOnly = (address: Address) => {
    ctx.asked.push(address.text);
    return address.family === 4 && address.text.startsWith('127.') ? null : refused(address);
  };
  const tool = { ...httpTool, open: (deps: Parameters<typeof openHttp>[0]) => openHttp(deps, { checkTarget: loopbackOnly }) };
  ctx.server = await startServerWithTools([tool], { NETTOOLS_RESOLVERS: `knot=127.0.0.174:${ctx.knot.port}`, NETTOOLS_RATE_LIMIT: '1000/1s' });
});

test.after(async (ctx) => {
  await ctx.server?.stop();
  await ctx.sites?.stop();
  await ctx.knot?.stop();
});

const http = (server: RunningServer, body: unknown) => postJson(server.base, '/api/tools/http', body);

test('a redirect to another host is followed: each hop has its own address and timings', async ({ server, sites }) => {
  const reply = await http(server, { url: `http://127.0.0.1:${sites.main}/to-other`, followRedirects: 1 });
  assert.is(reply.status, 200, reply.text);
  const body = reply.json();
  assertMatchesSchema('HttpResult', body);
  assert.equal([body.status, body.finalUrl, body.address, body.port], [200, `http://other.http.test:${sites.other}/landing`, '127.0.0.2', sites.other]);
  const [hop] = body.redirects;
  assert.equal([hop.url, hop.status, hop.location, hop.address], [`http://127.0.0.1:${sites.main}/to-other`, 302, `http://other.http.test:${sites.other}/landing`, '127.0.0.1']);
  assert.ok(hop.timings.connectMs > 0 && hop.timings.firstByteMs >= 0 && hop.timings.totalMs > 0);
  assert.ok(body.timings.connectMs > 0 && body.timings.resolveMs > 0);
});

test('without followRedirects a redirect is the answer, its location resolved', async ({ server, sites }) => {
  const body = (await http(server, { url: `http://127.0.0.1:${sites.main}/loop` })).json();
  assert.equal([body.status, body.location, body.redirects], [302, `http://127.0.0.1:${sites.main}/loop`, []]);
});

test('a redirect loop stops at followRedirects: the last answer is the redirect', async ({ server, sites }) => {
  const body = (await http(server, { url: `http://127.0.0.1:${sites.main}/loop`, followRedirects: 3 })).json();
  assertMatchesSchema('HttpResult', body);
  assert.is(body.status, 302);
  assert.is(body.redirects.length, 3);
  assert.is(body.location, `http://127.0.0.1:${sites.main}/loop`);
});

test('a redirect to 169.254.169.254 is refused by the target policy before any connection: 422 naming the redirect', async (ctx) => {
  ctx.asked.length = 0;
  const problem = assertProblem(await http(ctx.server, { url: `http://127.0.0.1:${ctx.sites.main}/to-metadata`, followRedirects: 2 }), 422, 'target-forbidden');
  assert.equal([problem.range, problem.url], ['link-local', 'http://169.254.169.254/latest/meta-data/']);
  assert.is(problem.redirects.length, 1);
  assert.is(problem.redirects[0].address, '127.0.0.1');
  assert.equal(ctx.asked, ['127.0.0.1', '169.254.169.254']);
});

test('a redirect to a private address is refused with 422 target-forbidden, range private', async ({ server, sites }) => {
  const problem = assertProblem(await http(server, { url: `http://127.0.0.1:${sites.main}/to-private`, followRedirects: 1 }), 422, 'target-forbidden');
  assert.equal([problem.range, problem.url], ['private', `http://10.20.30.40:${sites.main}/`]);
  assert.match(problem.detail, /^the redirect to http:\/\/10\.20\.30\.40/);
});

test('a redirect to port 25 is refused by the port policy with the redirect named', async ({ server, sites }) => {
  const problem = assertProblem(await http(server, { url: `http://127.0.0.1:${sites.main}/to-port-25`, followRedirects: 1 }), 422, 'target-forbidden');
  assert.equal([problem.range, problem.url], ['port', 'http://127.0.0.1:25/']);
});

test.run();
