import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { dnsTool } from '../../src/tools/dns';
import type { Outcome } from '../../src/tools/outcome';
import { pingTool, type PingRequest } from '../../src/tools/ping';
import type { Tool } from '../../src/tools/tool';
import type { CancelToken } from '../../src/util/cancel';
import { postJson } from '../support/http';
import { assertProblem } from '../support/problem';
import { startServerWithTools } from '../support/server';
import { waitFor } from '../support/wait';
import { parseAddress } from '../../src/net/address';

// The HTTP layer's side of the tool seam, with tool sets the test controls.
const test = suite('tool dispatch');

// The real tool definitions (paths, schemas, normalisation) with what runs them replaced.
const unavailable: Tool<any, any>[] = [
  { ...pingTool, open: () => ({ unavailable: 'no ICMP socket can be opened: raw needs CAP_NET_RAW' }) },
  { ...dnsTool, open: () => ({ unavailable: 'dns engine missing' }) },
];

function withPing(run: (req: PingRequest, cancel: CancelToken) => Promise<Outcome<any>>): Tool<any, any>[] {
  return [{ ...pingTool, open: () => ({ run, info: {}, close() {} }) }, unavailable[1] as Tool<any, any>];
}

test('a tool the server cannot run answers 503 engine-unavailable with the reason', async () => {
  const server = await startServerWithTools(unavailable);
  try {
    const body = assertProblem(await postJson(server.base, '/api/tools/ping', { host: '127.0.0.1' }), 503, 'engine-unavailable');
    assert.match(body.detail, 'CAP_NET_RAW');
    assertProblem(await postJson(server.base, '/api/tools/dns', { domain: 'a.test' }), 503, 'engine-unavailable');
  } finally {
    await server.stop();
  }
});

test('validation runs before the engine: a bad body is 400 even when the engine is missing', async () => {
  const server = await startServerWithTools(unavailable);
  try {
    assertProblem(await postJson(server.base, '/api/tools/ping', { host: 'a b' }), 400, 'validation-failed');
  } finally {
    await server.stop();
  }
});

test('the handler receives the validated, defaulted, normalised request', async () => {
  let seen: PingRequest | undefined;
  const server = await startServerWithTools(withPing(async (req) => ((seen = req), { ok: true, value: { fine: true } })));
  try {
    const reply = await postJson(server.base, '/api/tools/ping', { host: '[2001:DB8::1]', count: 2 });
    assert.is(reply.status, 200);
    assert.equal(reply.json(), { fine: true });
    const target = { kind: 'ipv6', value: '2001:db8::1', address: parseAddress('2001:db8::1') };
    assert.equal(seen, { host: '2001:db8::1', target, count: 2, intervalMs: 200, timeoutMs: 1000, size: 56 });
  } finally {
    await server.stop();
  }
});

test('a problem result becomes its problem response with extensions', async () => {
  const server = await startServerWithTools(
    withPing(async () => ({ ok: false, failure: { code: 'target-forbidden', detail: 'loopback', address: '127.0.0.1', range: 'loopback' } })),
  );
  try {
    const body = assertProblem(await postJson(server.base, '/api/tools/ping', { host: '127.0.0.1' }), 422, 'target-forbidden');
    assert.is(body.range, 'loopback');
  } finally {
    await server.stop();
  }
});

test('a handler that throws answers 500 internal-error and the server stays up', async () => {
  const server = await startServerWithTools(withPing(async () => Promise.reject(new Error('boom'))));
  try {
    assertProblem(await postJson(server.base, '/api/tools/ping', { host: '127.0.0.1' }), 500, 'internal-error');
    assertProblem(await postJson(server.base, '/api/tools/ping', { host: '127.0.0.1' }), 500, 'internal-error');
  } finally {
    await server.stop();
  }
});

test('a client that goes away aborts the handler and frees its slot', async () => {
  let aborted!: () => void;
  const abortSeen = new Promise<void>((r) => (aborted = r));
  const server = await startServerWithTools(
    withPing(
      (_req, cancel) =>
        new Promise((resolve) => {
          cancel.onAbort(() => {
            aborted();
            resolve({ ok: true, value: {} });
          });
        }),
    ),
  );
  try {
    const http = await import('node:http');
    const req = http.request(`${server.base}/api/tools/ping`, { method: 'POST', headers: { 'content-type': 'application/json' }, agent: false });
    req.on('error', () => {});
    req.end(JSON.stringify({ host: '127.0.0.1' }));
    await waitFor('the request in flight', () => server.app.inFlight() !== 0, { everyMs: 5 });
    req.destroy();
    await abortSeen;
    await waitFor('no request in flight', () => server.app.inFlight() === 0, { everyMs: 5 });
    assert.is(server.app.inFlight(), 0);
  } finally {
    await server.stop();
  }
});

test.run();
