import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { appendFileSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import net from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { generateKey, hashKey } from '../../src/keys/api-key';
import { formatKeyRecord } from '../../src/keys/key-record';
import { runToExit, spawnServer, type ChildServer } from '../support/child-server';
import { postJson, request, type Reply } from '../support/http';
import { assertProblem } from '../support/problem';
import { sleep, waitFor } from '../support/wait';

type Ctx = { dir: string; file: string; env: Record<string, string>; server: ChildServer; pro: string; small: string };
const test = suite<Ctx>('API keys against a running server');

const BAD_BODY = { host: 'a b' }; // refused after admission: spends a token, pings nothing

async function createKey(env: Record<string, string>, plan: string): Promise<string> {
  const { code, stdout, stderr } = await runToExit(env, ['keys', 'create', '--plan', plan]);
  if (code !== 0) throw new Error(stderr);
  return stdout.trim();
}

const bearer = (key: string) => ({ authorization: `Bearer ${key}` });

async function untilExit(server: ChildServer): Promise<void> {
  server.child.kill('SIGTERM');
  await server.exited;
}

// The server logs each SIGHUP's outcome; wait for the next such line.
async function hup(server: ChildServer): Promise<string> {
  const seen = server.logs.length;
  server.child.kill('SIGHUP');
  const line = () => server.logs.slice(seen).find((l) => l.includes('keys reload'));
  await waitFor('a keys reload line', () => line() !== undefined);
  return line() as string;
}

test.before(async (ctx) => {
  ctx.dir = mkdtempSync(join(tmpdir(), 'nt-keyed-'));
  ctx.file = join(ctx.dir, 'keys');
  ctx.env = { NETTOOLS_API_KEYS_FILE: ctx.file, NETTOOLS_PLANS: 'pro=600/60s:16,small=3/60s:2', NETTOOLS_RATE_LIMIT: '5/60s' };
  ctx.pro = await createKey(ctx.env, 'pro');
  ctx.small = await createKey(ctx.env, 'small');
  ctx.server = await spawnServer(ctx.env);
});

test.after(async (ctx) => {
  if (ctx.server) await untilExit(ctx.server);
  rmSync(ctx.dir, { recursive: true, force: true });
});

test('a keyed client gets its plan while the same address without the key gets default', async ({ server, pro }) => {
  const keyed = await postJson(server.base, '/api/tools/ping', BAD_BODY, bearer(pro));
  assert.is(keyed.status, 400);
  assert.is(keyed.headers['ratelimit-policy'], '"pro";q=600;w=60');
  assert.is(keyed.headers['x-ratelimit-limit'], '600');
  const anonymous = await postJson(server.base, '/api/tools/ping', BAD_BODY, {}, );
  assert.is(anonymous.headers['ratelimit-policy'], '"default";q=5;w=60');
});

test('two addresses sharing one key share its bucket', async ({ server, small }) => {
  const from = (localAddress: string) => request(server.base, '/api/tools/dns', { method: 'POST', localAddress, headers: { 'content-type': 'application/json', ...bearer(small) }, body: '{}' });
  assert.is((await from('127.0.0.1')).headers['x-ratelimit-remaining'], '2');
  assert.is((await from('127.0.0.2')).headers['x-ratelimit-remaining'], '1');
  assert.is((await from('127.0.0.1')).headers['x-ratelimit-remaining'], '0');
  assertProblem(await from('127.0.0.2'), 429, 'rate-limited');
});

test('GET /api/limits tells the caller its plan and budget and spends nothing', async ({ server, pro }) => {
  const first = (await request(server.base, '/api/limits', { headers: bearer(pro) })).json();
  const again = (await request(server.base, '/api/limits', { headers: bearer(pro) })).json();
  assert.equal(Object.keys(first).sort(), ['inFlightLimit', 'limit', 'plan', 'remaining', 'resetSeconds', 'windowSeconds']);
  assert.equal([first.plan, first.limit, first.windowSeconds, first.inFlightLimit], ['pro', 600, 60, 16]);
  assert.is(again.remaining, first.remaining);
  const anonymous = (await request(server.base, '/api/limits', { localAddress: '127.0.0.9' })).json();
  assert.equal(anonymous, { plan: 'default', limit: 5, windowSeconds: 60, remaining: 5, resetSeconds: 0, inFlightLimit: 4 });
});

test('/probe honours keys', async ({ server, pro }) => {
  const reply = await request(server.base, '/probe?module=icmp', { headers: bearer(pro) });
  assertProblem(reply, 400, 'validation-failed');
  assert.is(reply.headers['ratelimit-policy'], '"pro";q=600;w=60');
});

function assertBadKey(reply: Reply, reason: string): void {
  const body = assertProblem(reply, 401, 'invalid-api-key');
  assert.is(reply.headers['www-authenticate'], 'Bearer error="invalid_token"');
  assert.match(body.detail, reason);
}

test('an unknown key is 401 and spends a token of the address bucket, so keys cannot be tried at line rate', async ({ server }) => {
  const from = { localAddress: '127.0.0.3' };
  const attempt = () => request(server.base, '/api/tools/ping', { ...from, method: 'POST', headers: { 'content-type': 'application/json', ...bearer(generateKey().key) }, body: '{}' });
  for (let i = 0; i < 5; i++) {
    const reply = await attempt();
    assertBadKey(reply, 'unknown');
    assert.is(reply.headers['x-ratelimit-remaining'], String(4 - i));
  }
  assertProblem(await attempt(), 429, 'rate-limited');
  assertProblem(await request(server.base, '/api/tools/ping', { ...from, method: 'POST', headers: { 'content-type': 'application/json' }, body: '{}' }), 429, 'rate-limited');
});

// Raw bytes, for what an HTTP client library would refuse to send.
function rawRequest(port: number, headerLines: string[], localAddress: string): Promise<string> {
  return new Promise((resolve, reject) => {
    const socket = net.connect({ port, host: '127.0.0.1', localAddress }, () => {
      socket.write(Buffer.from(`GET /api/limits HTTP/1.1\r\nHost: t\r\n${headerLines.map((l) => `${l}\r\n`).join('')}Connection: close\r\n\r\n`, 'latin1'));
    });
    let data = '';
    socket.on('data', (c) => (data += c.toString('latin1')));
    socket.on('close', () => resolve(data));
    socket.on('error', reject);
  });
}

test('malformed Authorization headers get a clear 401 saying why, never a 500', async ({ server, pro }) => {
  const cases: string[][] = [
    ['Authorization: Bearer'],
    [`Authorization: Bearer ${pro}`, `Authorization: Bearer ${pro}`],
    ['Authorization: Basic dXNlcjpwYXNz'],
    [`Authorization: Bearer nt_${'a'.repeat(10 * 1024)}`],
    [`Authorization: Bearer nt_${'\u00e9'.repeat(43)}`],
  ];
  for (const [i, lines] of cases.entries()) {
    const answer = await rawRequest(server.port, lines, `127.0.1.${i + 1}`);
    assert.match(answer, /^HTTP\/1\.1 401 /, `${JSON.stringify(lines).slice(0, 80)}: ${answer.slice(0, 200)}`);
    assert.match(answer, '"detail":"the API key is malformed: ');
  }
  const plain = await request(server.base, '/health');
  assert.is(plain.status, 200);
});

test('no key and no hash reach the log or /metrics; the log carries the key id', async ({ server, pro }) => {
  await postJson(server.base, '/api/tools/ping', BAD_BODY, bearer(pro));
  const metrics = (await request(server.base, '/metrics')).text;
  const logs = server.logs.join('\n');
  for (const secret of [pro, hashKey(pro)]) {
    assert.not.ok(logs.includes(secret));
    assert.not.ok(metrics.includes(secret));
  }
  assert.ok(server.logs.some((l) => JSON.parse(l).keyId === pro.slice(3, 11)));
  assert.match(metrics, /nettools_plan_decisions_total\{plan="pro",outcome="admitted"\} \d+/);
  assert.match(metrics, /nettools_plan_decisions_total\{plan="default",outcome="invalid-api-key"\} \d+/);
});

test('a revoked key is refused after SIGHUP, without a restart', async ({ server, env }) => {
  const key = await createKey(env, 'pro');
  assert.is((await request(server.base, '/api/limits', { headers: bearer(key) })).status, 401); // not loaded yet
  assert.match(await hup(server), '"keys reloaded"');
  assert.is((await request(server.base, '/api/limits', { headers: bearer(key) })).status, 200);
  assert.is((await runToExit(env, ['keys', 'revoke', key.slice(3, 11)])).code, 0);
  await hup(server);
  assertBadKey(await request(server.base, '/api/limits', { headers: bearer(key), localAddress: '127.0.0.4' }), 'revoked');
});

test('a key past its expiry is refused by the clock, without a reload', async ({ server, file }) => {
  const made = generateKey();
  const expires = new Date(Date.now() + 1500).toISOString();
  appendFileSync(file, formatKeyRecord({ id: made.id, sha256: made.sha256, plan: 'pro', label: 'short', created: new Date().toISOString(), expires, revoked: null }) + '\n');
  await hup(server);
  assert.is((await request(server.base, '/api/limits', { headers: bearer(made.key) })).status, 200);
  await sleep(Date.parse(expires) - Date.now() + 50); // past the key's expiry: the point of the test
  assertBadKey(await request(server.base, '/api/limits', { headers: bearer(made.key), localAddress: '127.0.0.5' }), 'expired');
});

test('a corrupted file on reload keeps the keys in force', async ({ server, file, pro }) => {
  appendFileSync(file, '{"id": this is not json\n');
  assert.match(await hup(server), 'keys reload failed');
  assert.is((await request(server.base, '/api/limits', { headers: bearer(pro) })).status, 200);
});

test('a bad keys file at start stops the server with one line and exit 2', async ({ dir, env }) => {
  const broken = join(dir, 'broken');
  writeFileSync(broken, 'not a record\n', { mode: 0o600 });
  const { code, stderr } = await runToExit({ ...env, NETTOOLS_API_KEYS_FILE: broken });
  assert.is(code, 2);
  assert.match(stderr, /^nettools: NETTOOLS_API_KEYS_FILE: .*line 1: not JSON\n$/);
});

test('1,000 keys load, and the last of them is looked up', async ({ dir, env }) => {
  const many = join(dir, 'many');
  const made = Array.from({ length: 1000 }, () => generateKey());
  const created = new Date().toISOString();
  writeFileSync(many, made.map((m) => formatKeyRecord({ id: m.id, sha256: m.sha256, plan: 'pro', label: '', created, expires: null, revoked: null }) + '\n').join(''), { mode: 0o600 });
  const server = await spawnServer({ ...env, NETTOOLS_API_KEYS_FILE: many });
  try {
    assert.ok(server.logs.some((l) => JSON.parse(l).apiKeys === 1000));
    const reply = await request(server.base, '/api/limits', { headers: bearer((made.at(-1) as { key: string }).key) });
    assert.is(reply.json().plan, 'pro');
  } finally {
    await untilExit(server);
  }
});

test('with keys off the Authorization header is ignored', async () => {
  const server = await spawnServer({ NETTOOLS_RATE_LIMIT: '5/60s' });
  try {
    const reply = await request(server.base, '/api/limits', { headers: bearer(generateKey().key) });
    assert.is(reply.status, 200);
    assert.is(reply.json().plan, 'default');
  } finally {
    await untilExit(server);
  }
});

test.run();
