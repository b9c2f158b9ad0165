import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { postJson } from '../support/http';
import { startKnot, type KnotServer } from '../support/knot';
import { ensureImage, runNettools, type Container } from '../support/podman';

// DNS from inside the container to a Knot server on the host's loopback (the container shares the
// host's network): the resolvers are whatever NETTOOLS_RESOLVERS names, as on a host.
const test = suite<{ knot: KnotServer; server: Container }>('dns in the container');

test.before(async (ctx) => {
  await ensureImage();
  ctx.knot = await startKnot([{ domain: 'example.test', records: ['@ A 192.0.2.10'] }], '127.0.0.1');
  ctx.server = await runNettools({ env: { NETTOOLS_RESOLVERS: `knot=127.0.0.1:${ctx.knot.port}` } });
});

test.after(async (ctx) => {
  await ctx.server?.remove();
  await ctx.knot?.stop();
});

test('a dns request is answered by the resolver NETTOOLS_RESOLVERS names', async ({ server }) => {
  const reply = await postJson(server.base, '/api/tools/dns', { domain: 'example.test', types: ['A'] });
  assert.is(reply.status, 200, reply.text);
  const body = reply.json();
  assert.equal(body.records.A, [{ address: '192.0.2.10', ttl: 300 }]);
  assert.is(body.resolvers[0].id, 'knot');
  assert.is(body.resolvers[0].queries.A.rcode, 'NOERROR');
});

test.run();
