import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { flagName, loadConfig } from '../../src/config/config';
import { ConfigError } from '../../src/config/errors';
import { formatCidr } from '../support/cidr';

const LOOPBACK = { NETTOOLS_RESOLVERS: 'a=127.0.0.1' };

function refusal(env: Record<string, string>, argv: string[] = []): ConfigError {
  try {
    loadConfig(env, argv);
  } catch (err) {
    assert.instance(err, ConfigError);
    return err as ConfigError;
  }
  throw new assert.Assertion({ message: `expected ${JSON.stringify(env)} ${argv.join(' ')} to be refused` } as any);
}

test('defaults are the contract defaults', () => {
  const c = loadConfig({}, []);
  assert.is(c.port, 8080);
  assert.is(c.host, '0.0.0.0');
  assert.equal(c.resolvers.map((r) => `${r.id}=${r.address}:${r.port}`), ['google=8.8.8.8:53', 'cloudflare=1.1.1.1:53', 'quad9=9.9.9.9:53']);
  assert.equal(c.rateLimit, { capacity: 30, windowMs: 60_000 });
  assert.is(c.allowPrivateTargets, false);
  assert.equal(c.trustProxy, []);
  assert.is(c.corsOrigin, '*');
});

test('environment variables set values', () => {
  const c = loadConfig({ ...LOOPBACK, PORT: '9000', HOST: '127.0.0.1', NETTOOLS_RATE_LIMIT: '100/2m', NETTOOLS_ALLOW_PRIVATE_TARGETS: 'true' }, []);
  assert.is(c.port, 9000);
  assert.is(c.host, '127.0.0.1');
  assert.equal(c.rateLimit, { capacity: 100, windowMs: 120_000 });
  assert.is(c.allowPrivateTargets, true);
});

test('flags win over the environment, in both --flag value and --flag=value forms', () => {
  const c = loadConfig({ PORT: '9000', ...LOOPBACK }, ['--port', '9001', '--resolvers=b=127.0.0.2:5300', '--allow-private-targets']);
  assert.is(c.port, 9001);
  assert.equal(c.resolvers, [{ id: 'b', address: '127.0.0.2', port: 5300, family: 4 }]);
  assert.is(c.allowPrivateTargets, true);
});

test('flag names derive from variable names', () => {
  assert.is(flagName('NETTOOLS_RATE_LIMIT'), '--rate-limit');
  assert.is(flagName('PORT'), '--port');
});

test('IPv6 resolvers in every accepted form', () => {
  const c = loadConfig({ NETTOOLS_RESOLVERS: 'a=[::1]:5353,b=[::1],c=::1' }, []);
  assert.equal(c.resolvers, [
    { id: 'a', address: '::1', port: 5353, family: 6 },
    { id: 'b', address: '::1', port: 53, family: 6 },
    { id: 'c', address: '::1', port: 53, family: 6 },
  ]);
});

test('DoT resolvers: tls://name@address, port 853 unless given, IPv6 in brackets, the name lowercased', () => {
  const c = loadConfig({ NETTOOLS_RESOLVERS: 'a=tls://dns.example.test@127.0.0.1,b=tls://Dot.Test.@127.0.0.2:8853,c=tls://dot.test@[::1],d=127.0.0.3' }, []);
  assert.equal(c.resolvers, [
    { id: 'a', address: '127.0.0.1', port: 853, family: 4, tlsName: 'dns.example.test' },
    { id: 'b', address: '127.0.0.2', port: 8853, family: 4, tlsName: 'dot.test' },
    { id: 'c', address: '::1', port: 853, family: 6, tlsName: 'dot.test' },
    { id: 'd', address: '127.0.0.3', port: 53, family: 4 },
  ]);
});

const dotRefusals: Array<[string, RegExp]> = [
  ['a=tls://127.0.0.1:853', /needs the name its certificate is checked against/],
  ['a=tls://@127.0.0.1', /"" is not a host name/],
  ['a=tls://127.0.0.9@127.0.0.1', /"127.0.0.9" is not a host name/],
  ['a=tls://bad_name.test@127.0.0.1', /"bad_name.test" is not a host name/],
  ['a=tls://dot.test@dot.test', /"dot.test" is not an IP address/],
  ['a=tls://dot.test@127.0.0.1:0', /port "0" is not 1-65535/],
];
for (const [value, reason] of dotRefusals) {
  test(`NETTOOLS_RESOLVERS=${JSON.stringify(value)} is refused, saying why`, () => {
    const err = refusal({ NETTOOLS_RESOLVERS: value });
    assert.is(err.variable, 'NETTOOLS_RESOLVERS');
    assert.match(err.message, /resolver "a": /);
    assert.match(err.message, reason);
  });
}

test('trusted proxies accept addresses and CIDRs', () => {
  const trusted = loadConfig({ NETTOOLS_TRUST_PROXY: '10.0.0.0/8, ::1,192.0.2.1' }, []).trustProxy;
  assert.equal(trusted.map(formatCidr), ['10.0.0.0/8', '::1/128', '192.0.2.1/32']);
});

const malformed: Array<[string, string]> = [
  ['PORT', '70000'],
  ['PORT', 'eighty'],
  ['HOST', 'localhost'],
  ['NETTOOLS_RESOLVERS', ''],
  ['NETTOOLS_RESOLVERS', 'dns.google'],
  ['NETTOOLS_RESOLVERS', 'a=dns.google'],
  ['NETTOOLS_RESOLVERS', 'a=127.0.0.1,a=127.0.0.2'],
  ['NETTOOLS_RESOLVERS', 'a=127.0.0.1:0'],
  ['NETTOOLS_RESOLVERS', 'a=[::1]x'],
  ['NETTOOLS_RESOLVERS', 'A B=127.0.0.1'],
  ['NETTOOLS_RATE_LIMIT', '30'],
  ['NETTOOLS_RATE_LIMIT', '0/60s'],
  ['NETTOOLS_RATE_LIMIT', '30/0s'],
  ['NETTOOLS_RATE_LIMIT', '30/60y'],
  ['NETTOOLS_ALLOW_PRIVATE_TARGETS', 'maybe'],
  ['NETTOOLS_TRUST_PROXY', '10.0.0.0/33'],
  ['NETTOOLS_TRUST_PROXY', 'proxy.example'],
  ['NETTOOLS_LOG_LEVEL', 'loud'],
];
for (const [variable, value] of malformed) {
  test(`${variable}=${JSON.stringify(value)} stops the server with a one-line error naming it`, () => {
    const err = refusal({ ...LOOPBACK, [variable]: value });
    assert.is(err.variable, variable);
    assert.ok(err.message.startsWith(`${variable}: `));
    assert.not.match(err.message, '\n');
  });
}

test('an unknown NETTOOLS_ variable is refused (a typo must not be ignored)', () => {
  assert.is(refusal({ NETTOOLS_RESOLVER: 'a=127.0.0.1' }).variable, 'NETTOOLS_RESOLVER');
});

test("the client's own variables are no typo: the server starts with them set and ignores them", () => {
  const config = loadConfig({ ...LOOPBACK, NETTOOLS_URL: 'http://127.0.0.1:8080', NETTOOLS_API_KEY: 'nt_x' }, []);
  assert.equal(config, loadConfig(LOOPBACK, []));
});

test("a near miss of the client's variables is still refused", () => {
  assert.is(refusal({ ...LOOPBACK, NETTOOLS_URLS: 'http://127.0.0.1:8080' }).variable, 'NETTOOLS_URLS');
  assert.is(refusal({ ...LOOPBACK, NETTOOLS_APIKEY: 'nt_x' }).variable, 'NETTOOLS_APIKEY');
});

test('an unknown flag is refused', () => {
  assert.is(refusal(LOOPBACK, ['--prot', '1']).variable, '--prot');
});

test('a flag without its value is refused', () => {
  assert.is(refusal(LOOPBACK, ['--port']).variable, '--port');
});

test("the ASN zones default to Team Cymru's and private hops to not asked about", () => {
  const c = loadConfig(LOOPBACK, []);
  assert.equal([c.asnZoneV4, c.asnZoneV6, c.asnPrivateHops], ['origin.asn.cymru.com', 'origin6.asn.cymru.com', false]);
});

test('an ASN zone is kept lowercase without its final dot', () => {
  const c = loadConfig({ ...LOOPBACK, NETTOOLS_ASN_ZONE_V4: 'Origin.ASN.example.', NETTOOLS_ASN_ZONE_V6: 'asn6.example' }, ['--asn-private-hops']);
  assert.equal([c.asnZoneV4, c.asnZoneV6, c.asnPrivateHops], ['origin.asn.example', 'asn6.example', true]);
});

test('an ASN zone that is no domain name, or too long for the nibbles of an IPv6 address, is refused', () => {
  for (const zone of ['', 'a..b', '-a.example', 'a b.example', 'x'.repeat(64) + '.example', `${'abcdefgh.'.repeat(20)}example`, 'zone/with.slash']) {
    assert.is(refusal({ ...LOOPBACK, NETTOOLS_ASN_ZONE_V4: zone }).variable, 'NETTOOLS_ASN_ZONE_V4', zone);
  }
});

test.run();
