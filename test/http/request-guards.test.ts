import net from 'node:net';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { createLogger, type LineSink } from '../../src/log';
import { dnsTool } from '../../src/tools/dns';
import { pingTool } from '../../src/tools/ping';
import type { Tool } from '../../src/tools/tool';
import { postJson, request } from '../support/http';
import { assertProblem } from '../support/problem';
import { startServerWithTools } from '../support/server';
import { waitFor } from '../support/wait';

// A throw anywhere on a request's path is a bug of ours: that request gets a logged 500
// internal-error, and the server answers the next one. Each test puts the throw in another place
// uWS or a promise calls into; before the guards, each of these ended the process.
const test = suite('no request ends the process');

const lines: string[] = [];
const sink: LineSink = { write: (line) => void lines.push(line) };
const log = createLogger('error', sink);
const faultsLogged = () => lines.filter((l) => JSON.parse(l).msg === 'request failed').length;

const dnsUnavailable: Tool<any, any> = { ...dnsTool, open: () => ({ unavailable: 'not in this test' }) };
const pingReturning = (value: unknown): Tool<any, any> => ({ ...pingTool, open: () => ({ run: async () => ({ ok: true, value }), info: {}, close() {} }) });

async function stillServes(base: string): Promise<void> {
  assert.is((await request(base, '/health')).status, 200);
}

test('a throw while the body is checked (inside the data callback) is a 500 and the server serves on', async () => {
  const throwing: Tool<any, any> = { ...pingTool, normalize: () => { throw new TypeError('x.valueOf is not a function'); } };
  const server = await startServerWithTools([throwing, dnsUnavailable], {}, log);
  const before = faultsLogged();
  try {
    assertProblem(await postJson(server.base, '/api/tools/ping', { host: '127.0.0.1' }), 500, 'internal-error');
    assert.is(faultsLogged(), before + 1);
    await stillServes(server.base);
  } finally {
    await server.stop();
  }
});

test('a throw while a body that came in several packets is checked is a 500 and the server serves on', async () => {
  const throwing: Tool<any, any> = { ...pingTool, normalize: () => { throw new Error('boom'); } };
  const server = await startServerWithTools([throwing, dnsUnavailable], {}, log);
  try {
    const body = JSON.stringify({ host: '127.0.0.1', count: 1 });
    const head = `POST /api/tools/ping HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: ${body.length}\r\nConnection: close\r\n\r\n`;
    const answer = await new Promise<string>((resolve, reject) => {
      const socket = net.connect(server.port, '127.0.0.1', () => {
        socket.write(head + body.slice(0, 5));
        waitFor('the request in flight', () => server.app.inFlight() !== 0).then(() => void socket.write(body.slice(5)), reject);
      });
      let text = '';
      socket.on('data', (c) => (text += c.toString('latin1')));
      socket.on('end', () => resolve(text));
      socket.on('error', reject);
    });
    assert.match(answer, /^HTTP\/1\.1 500 /);
    assert.match(answer, /"code":"internal-error"/);
    await stillServes(server.base);
  } finally {
    await server.stop();
  }
});

test('a result that cannot be serialised (a throw after the tool resolved) is a 500 and the server serves on', async () => {
  const server = await startServerWithTools([pingReturning({ n: 1n }), dnsUnavailable], {}, log);
  try {
    assertProblem(await postJson(server.base, '/api/tools/ping', { host: '127.0.0.1' }), 500, 'internal-error');
    await stillServes(server.base);
  } finally {
    await server.stop();
  }
});

test('a probe whose metrics cannot be written (a rejection after the tool ran) is a 500 and the server serves on', async () => {
  const failingProbe: Tool<any, any> = {
    ...pingReturning({}),
    probe: { ...pingTool.probe!, exposition: async () => Promise.reject(new Error('exposition failed')) },
  };
  const server = await startServerWithTools([failingProbe, dnsUnavailable], {}, log);
  try {
    assertProblem(await request(server.base, '/probe?module=icmp&target=127.0.0.1'), 500, 'internal-error');
    await stillServes(server.base);
  } finally {
    await server.stop();
  }
});

test('the fault is logged with the request id it was answered with', async () => {
  const throwing: Tool<any, any> = { ...pingTool, normalize: () => { throw new Error('traceable'); } };
  const server = await startServerWithTools([throwing, dnsUnavailable], {}, log);
  try {
    const reply = await postJson(server.base, '/api/tools/ping', { host: '127.0.0.1' }, { 'x-request-id': 'guard-test-1' });
    assert.is(reply.headers['x-request-id'], 'guard-test-1');
    const logged = lines.map((l) => JSON.parse(l)).find((l) => l.msg === 'request failed' && l.requestId === 'guard-test-1');
    assert.ok(logged, 'a log line for the request');
    assert.match(logged.error, 'traceable');
  } finally {
    await server.stop();
  }
});

test.run();
