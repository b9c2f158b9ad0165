import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { postJson, request } from '../support/http';
import { startKnot, type KnotServer } from '../support/knot';
import { parsePromText, sampleValue } from '../support/prom-text';
import { startServer, type RunningServer } from '../support/server';
import { waitFor } from '../support/wait';

// Ping's host names go through the same upstream path as the dns tool: pings of one name that wait at
// the same moment share its A query. Knot is paused while they gather, so they all wait together.
const test = suite<{ knot: KnotServer; server: RunningServer }>('pings of one host name');

test.before(async (ctx) => {
  ctx.knot = await startKnot([{ domain: 'pings.test', records: ['host A 127.0.0.1'] }], '127.0.0.32');
  ctx.server = await startServer({
    NETTOOLS_RESOLVERS: `knot=127.0.0.32:${ctx.knot.port}`,
    NETTOOLS_ALLOW_PRIVATE_TARGETS: 'true',
    NETTOOLS_RATE_LIMIT: '1000/1s',
    NETTOOLS_MAX_IN_FLIGHT_PER_CLIENT: '100',
  });
});

test.after(async (ctx) => {
  ctx.knot?.resume();
  await ctx.server?.stop();
  await ctx.knot?.stop();
});

async function metrics(server: RunningServer) {
  return parsePromText((await request(server.base, '/metrics')).text);
}

test('several concurrent pings of one host name send one A query upstream', async ({ knot, server }) => {
  const before = await metrics(server);
  knot.pause();
  const pings = Array.from({ length: 6 }, () => postJson(server.base, '/api/tools/ping', { host: 'host.pings.test', count: 1 }));
  try {
    await waitFor('six pings admitted and waiting', async () => sampleValue(await metrics(server), 'nettools_admitted_in_flight') >= 6);
  } finally {
    knot.resume();
  }
  const replies = await Promise.all(pings);
  for (const r of replies) assert.equal([r.status, r.json().address], [200, '127.0.0.1'], r.text);
  const after = await metrics(server);
  const answered = { event: 'answered' };
  assert.is(sampleValue(after, 'nettools_dns_engine_events_total', answered) - sampleValue(before, 'nettools_dns_engine_events_total', answered), 1);
});

test.run();
