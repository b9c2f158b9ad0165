import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { ensureImage, IMAGE, podman, runNettools, type Container } from '../support/podman';

// The image of deploy/Containerfile as it is shipped: its size, its user, its health check and its
// /metrics (docs/deploying.md, "In a container").
const test = suite<{ server: Container }>('the container image');

test.before(async (ctx) => {
  await ensureImage();
  ctx.server = await runNettools();
});

test.after(async (ctx) => {
  await ctx.server?.remove();
});

test('the image is at most 300 MB as podman reports it', async () => {
  const size = Number((await podman(['image', 'inspect', '--format', '{{.Size}}', IMAGE])).stdout.trim());
  assert.ok(size > 0 && size <= 300_000_000, `${IMAGE} is ${size} bytes`);
});

test('nettools runs as a user other than root', async ({ server }) => {
  const top = await podman(['top', server.name, 'user', 'huser', 'args']);
  const node = top.stdout.split('\n').find((l) => l.includes('dist/src/main.js'));
  assert.ok(node, top.stdout + top.stderr);
  assert.equal(node.trim().split(/\s+/).slice(0, 2), ['nettools', '10001']);
  assert.is((await server.exec(['id', '-u'])).stdout.trim(), '10001');
});

test('GET /health answers 200', async ({ server }) => {
  const res = await fetch(`${server.base}/health`);
  assert.is(res.status, 200);
  assert.equal(await res.json(), { status: 'ok' });
});

test("the image's health check passes while /health answers", async ({ server }) => {
  const check = await podman(['healthcheck', 'run', server.name]);
  assert.is(check.code, 0, check.stdout + check.stderr);
});

test('GET /metrics answers Prometheus text', async ({ server }) => {
  const res = await fetch(`${server.base}/metrics`);
  assert.is(res.status, 200);
  assert.match(res.headers.get('content-type') ?? '', /^text\/plain/);
  assert.match(await res.text(), /^# HELP nettools_/m);
});

test.run();
