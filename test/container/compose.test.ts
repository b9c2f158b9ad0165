import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { composeUp, httpsRequest, logLines, type ComposeProject } from '../support/compose';
import { ensureComposeImages, podman } from '../support/podman';
import { waitFor } from '../support/wait';

// deploy/compose/compose.yaml as a user runs it (docs/deploying.md, "In a container"): nginx terminating
// TLS with a mounted certificate in front of two nettools instances that share their rate-limit budget
// through Redis. The budget is small, so a few pings through nginx (each to the serving container's own
// loopback) spend it.
const BUDGET = 6;
const INSTANCES = ['nettools-1', 'nettools-2'];
const test = suite<{ project: ComposeProject }>('the compose example');

const PING = { host: '127.0.0.1', count: 1 };

async function healthy(project: ComposeProject): Promise<boolean> {
  for (const service of [...INSTANCES, 'redis']) {
    if ((await podman(['healthcheck', 'run', project.container(service)])).code !== 0) return false;
  }
  return (await httpsRequest(project, '/health').catch(() => ({ status: 0 }))).status === 200;
}

test.before(async (ctx) => {
  await ensureComposeImages();
  ctx.project = await composeUp({ NETTOOLS_RATE_LIMIT: `${BUDGET}/600s`, NETTOOLS_ALLOW_PRIVATE_TARGETS: 'true' });
  await waitFor('the instances, Redis and nginx to be healthy', () => healthy(ctx.project), { timeoutMs: 60_000, everyMs: 500 }).catch(async (err: Error) => {
    const state = await ctx.project.describe();
    await ctx.project.down();
    throw new Error(`${err.message}\n${state}`);
  });
});

test.after(async ({ project }) => {
  await project?.down();
});

test('nginx answers over HTTPS with the certificate mounted from the host', async ({ project }) => {
  const reply = await httpsRequest(project, '/health');
  assert.is(reply.status, 200, reply.body);
  assert.is(JSON.parse(reply.body).status, 'ok');
});

test('both instances hold a connection to the one Redis', async ({ project }) => {
  const clients = await project.exec('redis', ['redis-cli', 'client', 'list']);
  const peers = new Set([...clients.stdout.matchAll(/ addr=([0-9.]+):\d+ /g)].map((m) => m[1]));
  for (const service of INSTANCES) {
    const address = await podman(['inspect', '--format', `{{(index .NetworkSettings.Networks "${project.name}_backend").IPAddress}}`, project.container(service)]);
    assert.ok(peers.has(address.stdout.trim()), `${service} (${address.stdout.trim()}) is not among Redis's clients:\n${clients.stdout}`);
  }
});

test('each instance has CAP_NET_RAW as its only capability and pings on raw sockets', async ({ project }) => {
  for (const service of INSTANCES) {
    const caps = await podman(['inspect', '--format', '{{json .EffectiveCaps}}', project.container(service)]);
    assert.equal(JSON.parse(caps.stdout), ['CAP_NET_RAW'], service);
    const listening = (await logLines(project, service)).find((line) => line.msg === 'listening');
    assert.equal(listening?.ping.socketKinds, { v4: 'raw', v6: 'raw' }, service);
  }
});

test('pings spread over both instances spend one budget: exactly its count pass, then 429', async ({ project }) => {
  const statuses: number[] = [];
  for (let i = 0; i <= BUDGET; i++) statuses.push((await httpsRequest(project, '/api/tools/ping', PING)).status);
  assert.equal(statuses, [...Array(BUDGET).fill(200), 429]);
  const served = await Promise.all(
    INSTANCES.map(async (service) => (await logLines(project, service)).filter((l) => l.path === '/api/tools/ping' && l.status === 200).length),
  );
  assert.ok(served.every((count) => count > 0), `pings served per instance: ${served}`);
  assert.is(served[0]! + served[1]!, BUDGET);
});

test("the budget is kept in Redis under the caller's address as nginx saw it, not nginx's own", async ({ project }) => {
  // The published port is reached from the host's loopback through the front network's gateway.
  const front = await podman(['network', 'inspect', '--format', '{{range .Subnets}}{{.Gateway}}{{end}}', `${project.name}_front`]);
  const caller = front.stdout.trim();
  const keys = await project.exec('redis', ['redis-cli', '--scan', '--pattern', 'nettools:b:*']);
  assert.equal(keys.stdout.split('\n').filter(Boolean), [`nettools:b:${caller}`], keys.stderr);
  const clients = new Set((await logLines(project, 'nettools-1')).filter((l) => l.path === '/api/tools/ping').map((l) => l.client));
  assert.equal([...clients], [caller]);
});

test('Redis and the instances have no route off their internal networks', async ({ project }) => {
  for (const service of [...INSTANCES, 'redis']) {
    const routes = await project.exec(service, ['cat', '/proc/net/route']);
    const destinations = routes.stdout.trim().split('\n').slice(1).map((line) => line.split(/\s+/)[1]);
    assert.ok(destinations.length > 0, routes.stderr);
    assert.not.ok(destinations.includes('00000000'), `${service} has a default route:\n${routes.stdout}`);
  }
});

test.run();
