import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { postJson } from '../support/http';
import { startKnot } from '../support/knot';
import { startServer } from '../support/server';

test('a host name asked of 12 resolvers resolves without a listener-leak warning', async () => {
  const knot = await startKnot([{ domain: 'many.test', records: ['host A 127.0.0.1'] }], '127.0.0.21');
  const resolvers = Array.from({ length: 12 }, (_, i) => `r${i}=127.0.0.21:${knot.port}`).join(',');
  const server = await startServer({ NETTOOLS_RESOLVERS: resolvers, NETTOOLS_ALLOW_PRIVATE_TARGETS: 'true' });
  const warnings: string[] = [];
  const onWarning = (w: Error) => warnings.push(`${w.name}: ${w.message}`);
  process.on('warning', onWarning);
  try {
    const reply = await postJson(server.base, '/api/tools/ping', { host: 'host.many.test', count: 1 });
    assert.is(reply.status, 200, reply.text);
    assert.is(reply.json().address, '127.0.0.1');
    await new Promise((r) => setImmediate(r)); // warnings are emitted on the next tick
    assert.equal(warnings, []);
  } finally {
    process.off('warning', onWarning);
    await server.stop();
    await knot.stop();
  }
});

test.run();
