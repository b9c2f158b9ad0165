import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { parseAddress } from '../../src/net/address';
import { parseDomain, parseHost } from '../../src/validation/names';
import { postJson } from '../support/http';
import { assertProblem } from '../support/problem';
import { startServer, type RunningServer } from '../support/server';

// IPv4 written other than as a dotted quad. Every reading of each of these is 127.0.0.1 (or nothing),
// so a server that wrongly took one as a target would still only reach loopback; private targets are
// refused here as well.
const LOOPBACK_NOTATIONS = ['0x7f000001', '2130706433', '017700000001', '0177.0.0.1', '0x7f.0.0.1', '127.1', '127.0.1', '127。0。0。1', '１２７.０.０.１', '127．0．0．1'];

const test = suite<{ server: RunningServer }>('IPv4 notations');

test.before(async (ctx) => {
  ctx.server = await startServer({ NETTOOLS_ALLOW_PRIVATE_TARGETS: 'false' });
});

test.after(async (ctx) => {
  await ctx.server?.stop();
});

for (const text of LOOPBACK_NOTATIONS) {
  test(`${text} is neither a host nor a domain name`, () => {
    assert.is(parseHost(text), null);
    assert.is(parseDomain(text), null);
  });

  test(`ping refuses ${text} as a bad host, like every other IPv4 notation`, async ({ server }) => {
    const body = assertProblem(await postJson(server.base, '/api/tools/ping', { host: text, count: 1 }), 400, 'validation-failed');
    assert.equal(body.errors.map((e: { pointer: string }) => e.pointer), ['/host']);
  });

  test(`dns refuses ${text} as a domain, since it is an address`, async ({ server }) => {
    const body = assertProblem(await postJson(server.base, '/api/tools/dns', { domain: text }), 400, 'validation-failed');
    assert.equal(body.errors.map((e: { pointer: string }) => e.pointer), ['/domain']);
  });
}

// Read as IPv4, this is the public address 1.0.0.127: checked as text only, never sent to a server.
test('a short form that reads as a public address is no host name either', () => {
  assert.is(parseHost('1.0x7f'), null);
  assert.is(parseDomain('1.0x7f'), null);
});

test('the dotted quad itself is still an IPv4 literal, and ordinary names still pass', () => {
  assert.equal(parseHost('127.0.0.1'), { kind: 'ipv4', value: '127.0.0.1', address: parseAddress('127.0.0.1') });
  assert.equal(parseHost('bücher.example'), { kind: 'name', value: 'xn--bcher-kva.example' });
  assert.is(parseDomain('0x.example'), '0x.example');
  assert.is(parseDomain('_dmarc.example.test'), '_dmarc.example.test');
});

test.run();
