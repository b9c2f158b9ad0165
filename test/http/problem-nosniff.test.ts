import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { dnsTool } from '../../src/tools/dns';
import { pingTool } from '../../src/tools/ping';
import type { Tool } from '../../src/tools/tool';
import { postJson, request, type Reply } from '../support/http';
import { startServerWithTools, type RunningServer } from '../support/server';

// Every problem response carries X-Content-Type-Options: nosniff: its detail may quote the caller's
// input, and a browser must read it as the JSON it is. One of each kind, from routing to the tool.
const test = suite<{ server: RunningServer }>('problem responses are never sniffed');

const dnsUnavailable: Tool<any, any> = { ...dnsTool, open: () => ({ unavailable: 'not in this test' }) };
const pingThrowing: Tool<any, any> = { ...pingTool, open: () => ({ run: async () => { throw new TypeError('a bug'); }, info: {}, close() {} }) };

test.before(async (ctx) => {
  ctx.server = await startServerWithTools([pingThrowing, dnsUnavailable], { NETTOOLS_RATE_LIMIT: '6/60s' });
});

test.after(async (ctx) => {
  await ctx.server?.stop();
});

function assertNosniff(reply: Reply, status: number): void {
  assert.is(reply.status, status, reply.text);
  assert.is(reply.headers['content-type'], 'application/problem+json');
  assert.is(reply.headers['x-content-type-options'], 'nosniff', `${status}`);
}

test('404, 405, 413, 415, 400, 503, 500 and 429 problems all say nosniff', async ({ server }) => {
  assertNosniff(await request(server.base, '/<script>'), 404);
  assertNosniff(await request(server.base, '/api/tools/ping', { method: 'PUT' }), 405);
  assertNosniff(await postJson(server.base, '/api/tools/ping', { host: 'x'.repeat(5000) }), 413);
  assertNosniff(await request(server.base, '/api/tools/ping', { method: 'POST', headers: { 'content-type': 'text/html' }, body: '{}' }), 415);
  assertNosniff(await postJson(server.base, '/api/tools/ping', '{"host":'), 400);
  assertNosniff(await postJson(server.base, '/api/tools/dns', { domain: 'example.test' }), 503);
  assertNosniff(await postJson(server.base, '/api/tools/ping', { host: '127.0.0.1' }), 500);
  let last: Reply | undefined;
  for (let i = 0; i < 10 && last?.status !== 429; i++) last = await postJson(server.base, '/api/tools/ping', { host: '127.0.0.1' });
  assertNosniff(last!, 429);
});

test('other responses are left as they were', async ({ server }) => {
  assert.is((await request(server.base, '/health')).headers['x-content-type-options'], undefined);
});

test.run();
