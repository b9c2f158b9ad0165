import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import type { ChildServer } from '../support/child-server';
import { startFrontDoor, type FrontDoor } from '../support/nginx';
import { exchangeTls } from '../support/raw-http';
import { sleep } from '../support/wait';

// deploy/nginx/nettools.conf keeps /metrics and /probe to the operator's networks. Here the operator's
// network is 127.0.0.2/32 in place of the shipped loopback, and requests come from 127.0.0.2 (inside)
// or 127.0.0.1 (the internet), chosen as the client's local address.
const OPERATOR_ONLY: Array<[string, string]> = [['127.0.0.1/32 1;', '127.0.0.2/32 1;']];
// The documented way to open /probe to a Prometheus elsewhere that sends a nettools API key.
const KEYED_PROBE: Array<[string, string]> = [...OPERATOR_ONLY, ['# "~*^0:/probe:bearer " 0;', '"~*^0:/probe:bearer " 0;']];

const INSIDE = '127.0.0.2';
const OUTSIDE = '127.0.0.1';
const PROBE = '/probe?module=icmp&target=127.0.0.1';

const ENV = { NETTOOLS_ALLOW_PRIVATE_TARGETS: 'true', NETTOOLS_RATE_LIMIT: '1000/1s' };

async function get(front: FrontDoor, path: string, from: string, headers = ''): Promise<{ status: number; body: string }> {
  const answer = await exchangeTls(front.nginx.port, `GET ${path} HTTP/1.1\r\nHost: x\r\n${headers}Connection: close\r\n\r\n`, { localAddress: from });
  const status = Number(/^HTTP\/1\.1 (\d{3})/.exec(answer)?.[1]);
  return { status, body: answer.slice(answer.indexOf('\r\n\r\n') + 4) };
}

const seenPaths = (server: ChildServer) => server.logs.map((l) => JSON.parse(l)).filter((l) => l.msg === 'request').map((l) => l.path as string);

const shipped = suite<FrontDoor>('nginx: /metrics and /probe for the operator only');

shipped.before(async (ctx) => {
  Object.assign(ctx, await startFrontDoor(ENV, OPERATOR_ONLY));
});

shipped.after(async (ctx) => {
  await ctx.stop?.();
});

shipped('from outside the operator networks /metrics and /probe are 403 at nginx and never reach nettools', async (front) => {
  assert.is((await get(front, '/metrics', OUTSIDE)).status, 403);
  assert.is((await get(front, '/metrics?name[]=x', OUTSIDE)).status, 403);
  assert.is((await get(front, PROBE, OUTSIDE)).status, 403);
  await sleep(200); // that nothing reaches nettools has no event to wait for: a pause past its logging lag
  assert.equal(seenPaths(front.server).filter((p) => p === '/metrics' || p === '/probe'), []);
});

shipped('from outside, an API key does not open them in the shipped config', async (front) => {
  assert.is((await get(front, PROBE, OUTSIDE, 'Authorization: Bearer nt_AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA\r\n')).status, 403);
});

shipped('from outside, the tools and /health pass as before', async (front) => {
  assert.is((await get(front, '/health', OUTSIDE)).status, 200);
  assert.is((await get(front, '/api/limits', OUTSIDE)).status, 200);
});

shipped('from an operator network /metrics and /probe pass to nettools', async (front) => {
  const metrics = await get(front, '/metrics', INSIDE);
  assert.is(metrics.status, 200);
  assert.match(metrics.body, 'nettools_');
  const probe = await get(front, PROBE, INSIDE);
  assert.is(probe.status, 200, probe.body);
  assert.match(probe.body, 'probe_success 1');
});

shipped.run();

const keyed = suite<FrontDoor>('nginx: /probe opened to callers with a key, as docs/probes.md says');

keyed.before(async (ctx) => {
  Object.assign(ctx, await startFrontDoor(ENV, KEYED_PROBE));
});

keyed.after(async (ctx) => {
  await ctx.stop?.();
});

keyed('from outside, /probe with a Bearer key reaches nettools, which checks the key', async (front) => {
  // An unknown key: nettools' own 401 is the proof the request got past nginx.
  const probe = await get(front, PROBE, OUTSIDE, 'Authorization: Bearer nt_AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA\r\n');
  assert.is(probe.status, 401, probe.body);
  assert.match(probe.body, '"invalid-api-key"');
});

keyed('from outside, /probe without a key and /metrics with one stay 403', async (front) => {
  assert.is((await get(front, PROBE, OUTSIDE)).status, 403);
  assert.is((await get(front, '/metrics', OUTSIDE, 'Authorization: Bearer nt_AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA\r\n')).status, 403);
});

keyed.run();
