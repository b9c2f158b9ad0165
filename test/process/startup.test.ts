import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { request } from '../support/http';
import { CONFIG_SETTINGS, flagName } from '../../src/config/config';
import { runToExit, spawnServer } from '../support/child-server';

test('a malformed variable stops the server with exit 2 and one line naming it', async () => {
  const { code, stderr } = await runToExit({ NETTOOLS_RATE_LIMIT: 'lots' });
  assert.is(code, 2);
  assert.match(stderr, /^nettools: NETTOOLS_RATE_LIMIT: .+\n$/);
});

test('a malformed flag stops the server the same way', async () => {
  const { code, stderr } = await runToExit({}, ['--port', 'http']);
  assert.is(code, 2);
  assert.match(stderr, /^nettools: PORT: .+\n$/);
});

test('--help lists every setting with its flag, default and meaning, and exits 0 without serving', async () => {
  const { code, stdout, stderr } = await runToExit({}, ['--help']);
  assert.is(code, 0);
  assert.is(stderr, '');
  for (const setting of CONFIG_SETTINGS) {
    assert.match(stdout, `${flagName(setting.variable)} / ${setting.variable} (default: `);
    assert.match(stdout, setting.help);
  }
});

test('UWS_USE_FALLBACK refuses to start rather than serve on the JavaScript fallback', async () => {
  const { code, stderr } = await runToExit({ UWS_USE_FALLBACK: '1' });
  assert.is(code, 2);
  assert.match(stderr, /UWS_USE_FALLBACK/);
  assert.is(stderr.trim().split('\n').length, 1);
});

test('the server starts, reports what it can run, serves /health and exits 0 on SIGTERM', async () => {
  const server = await spawnServer();
  const listening = JSON.parse(server.logs.find((l) => l.includes('"listening"')) as string);
  assert.ok(listening.port > 0);
  assert.ok(listening.ping && listening.dns);
  assert.ok(listening.icmpSockets.v4);
  assert.is((await request(server.base, '/health')).status, 200);
  server.child.kill('SIGTERM');
  assert.equal(await server.exited, { code: 0, signal: null });
});

test("the server starts in a shell that also holds the client's NETTOOLS_URL and NETTOOLS_API_KEY", async () => {
  const server = await spawnServer({ NETTOOLS_URL: 'http://127.0.0.1:9', NETTOOLS_API_KEY: 'nt_AAAAAAAA' });
  assert.is((await request(server.base, '/health')).status, 200);
  server.child.kill('SIGTERM');
  assert.equal(await server.exited, { code: 0, signal: null });
});

test.run();
