import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { LIMITS_STAGES } from '../../src/http/limits-route';
import { later, type Stage } from '../../src/http/pipeline/runner';
import { PROBE_STAGES } from '../../src/http/probe-route';
import { STREAMED_TOOL_STAGES, TOOL_STAGES } from '../../src/http/tool-route';
import { pingTool } from '../../src/tools/ping';
import { pingResultSchema } from '../../src/tools/ping/schema';
import { dnsTool } from '../../src/tools/dns';
import type { Tool } from '../../src/tools/tool';
import { postJson, request, type Reply } from '../support/http';
import { assertProblem } from '../support/problem';
import { startServerWithTools, type RunningServer } from '../support/server';

// Each stage of each route, made to fail on purpose: the request gets a 500 internal-error, and the
// server answers the next request as usual. A stage fails synchronously, or later (a rejected store).
const test = suite<{ server: RunningServer }>('a failure in any stage is one 500, and the server serves on');

// A measurement as the schema's own example has it, so /probe can write its metrics.
const pingReplying: Tool<any, any> = { ...pingTool, open: () => ({ run: async () => ({ ok: true, value: pingResultSchema.examples[0] }), info: {}, close() {} }) };
const dnsUnavailable: Tool<any, any> = { ...dnsTool, open: () => ({ unavailable: 'not in this test' }) };

test.before(async (ctx) => {
  ctx.server = await startServerWithTools([pingReplying, dnsUnavailable], { NETTOOLS_RATE_LIMIT: '10000/1s' });
});

test.after(async (ctx) => {
  await ctx.server?.stop();
});

const ROUTES: Array<[string, ReadonlyArray<Stage<any>>, (base: string) => Promise<Reply>]> = [
  ['POST /api/tools/ping', TOOL_STAGES, (base) => postJson(base, '/api/tools/ping', { host: '127.0.0.1' })],
  ['POST /api/tools/ping (streamed)', STREAMED_TOOL_STAGES, (base) => postJson(base, '/api/tools/ping', { host: '127.0.0.1' }, { accept: 'application/x-ndjson' })],
  ['GET /probe', PROBE_STAGES, (base) => request(base, '/probe?module=icmp&target=127.0.0.1')],
  ['GET /api/limits', LIMITS_STAGES, (base) => request(base, '/api/limits')],
];

async function withFailure(stage: Stage<any>, failing: Stage<any>['run'], check: () => Promise<void>): Promise<void> {
  const original = stage.run;
  stage.run = failing;
  try {
    await check();
  } finally {
    stage.run = original;
  }
}

for (const [route, stages, send] of ROUTES) {
  test(`${route}: every stage runs for a request that succeeds`, async ({ server }) => {
    assert.is((await send(server.base)).status, 200);
  });

  for (const stage of stages) {
    test(`${route}: a throw in ${stage.name} is a 500, and the server serves on`, async ({ server }) => {
      await withFailure(stage, () => { throw new Error(`injected in ${stage.name}`); }, async () => {
        assertProblem(await send(server.base), 500, 'internal-error');
      });
      assert.is((await send(server.base)).status, 200);
    });

    test(`${route}: a rejection in ${stage.name} is a 500, and the server serves on`, async ({ server }) => {
      await withFailure(stage, (r) => later(r.ex, Promise.reject(new Error(`injected in ${stage.name}`)), () => {}), async () => {
        assertProblem(await send(server.base), 500, 'internal-error');
      });
      assert.is((await send(server.base)).status, 200);
    });
  }
}

test.run();
