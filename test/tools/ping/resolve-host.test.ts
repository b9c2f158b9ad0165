import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { parseLiteral, resolveHost, resolverServers } from '../../../src/tools/ping/resolve-host';

test('IP literals decide their own family; brackets and IPv4-mapped IPv6 are unwrapped', () => {
  assert.equal(parseLiteral('198.18.0.1'), { address: '198.18.0.1', family: 4, literal: true });
  assert.equal(parseLiteral('[FD00::1]'), { address: 'fd00::1', family: 6, literal: true });
  assert.equal(parseLiteral('::ffff:198.18.0.1'), { address: '198.18.0.1', family: 4, literal: true });
  assert.is(parseLiteral('a.ping.test'), null);
  assert.is(parseLiteral('[a.ping.test]'), null);
});

test('resolvers are handed to Node as addr:port, IPv6 in brackets', () => {
  assert.equal(
    resolverServers([
      { id: 'a', address: '127.0.0.1', port: 5300, family: 4 },
      { id: 'b', address: '::1', port: 53, family: 6 },
    ]),
    ['127.0.0.1:5300', '[::1]:53'],
  );
});

test('a literal needs no resolver; a name without resolvers has no address', async () => {
  assert.equal(await resolveHost('127.0.0.1', { resolvers: [] }), {
    ok: true,
    host: { address: '127.0.0.1', family: 4, literal: true },
  });
  const r = await resolveHost('a.ping.test', { resolvers: [] });
  assert.is(r.ok, false);
});

test.run();
