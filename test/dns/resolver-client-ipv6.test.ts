import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { openResolverClient, type QueryAnswered, type ResolverClient } from '../../src/engines/dns';
import { startKnot, stopAllKnot, type KnotServer } from '../support/knot';
import { EXAMPLE_ZONE } from './zones';

let knot: KnotServer;
let client: ResolverClient;

test.before(async () => {
  knot = await startKnot([EXAMPLE_ZONE], '::1');
  client = openResolverClient();
});

test.after(async () => {
  client?.close();
  await stopAllKnot();
});

test('an IPv6 resolver is asked over IPv6, over UDP and over TCP after truncation', async () => {
  const [r] = await client.query({ domain: 'big.example.test', types: ['TXT'], resolvers: [knot.resolver('v6')], timeoutMs: 2000 });
  const e = r?.queries.TXT as QueryAnswered;
  assert.is(e.transport, 'tcp');
  assert.is(e.answers.length, 6);
  const [small] = await client.query({ domain: 'example.test', types: ['AAAA'], resolvers: [knot.resolver('v6')], timeoutMs: 2000 });
  const s = small?.queries.AAAA as QueryAnswered;
  assert.is(s.transport, 'udp');
  assert.is(s.answers.length, 2);
});

test.run();
