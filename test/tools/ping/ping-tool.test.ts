import { readFileSync } from 'node:fs';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import type { Config } from '../../../src/config/types';
import { openResolverClient, type ResolverClient } from '../../../src/engines/dns';
import type { PingRequest } from '../../../src/schemas/requests';
import { createTools, type ToolSlot } from '../../../src/tools/index';
import { createPingTool } from '../../../src/tools/ping/ping-tool';
import type { ToolHandler, ToolResult } from '../../../src/tools/tool';
import { startKnot, type KnotServer, type ZoneSpec } from '../../support/knot';
import { testConfig } from '../../support/server';

const ZONE: ZoneSpec = {
  domain: 'ping.test',
  records: ['a A 127.0.0.1', 'six AAAA ::1', 'both A 127.0.0.3', 'both AAAA ::1', 'text TXT "no address here"'],
};

// The same zone served over IPv4 and over IPv6, to resolve through resolvers of either family.
let knot4: KnotServer;
let knot6: KnotServer;
const slots: ToolSlot<PingRequest>[] = [];

function config(over: Partial<Config> = {}, resolverFamily: 4 | 6 = 4): Config {
  const resolver = resolverFamily === 4 ? `knot=127.0.0.1:${knot4.port}` : `knot=[::1]:${knot6.port}`;
  return { ...testConfig({ NETTOOLS_RESOLVERS: resolver, NETTOOLS_ALLOW_PRIVATE_TARGETS: 'true' }), ...over };
}

function tool(over: Partial<Config> = {}, checkTarget: (a: string) => string | null = () => null, family: 4 | 6 = 4): ToolHandler<PingRequest> {
  const slot = createPingTool({ config: config(over, family), checkTarget, resolverClient });
  slots.push(slot);
  if (!('handler' in slot)) throw new Error(`ping unavailable: ${slot.unavailable}`);
  return slot.handler;
}

function req(host: string, extra: Partial<PingRequest> = {}): PingRequest {
  return { host, count: 2, intervalMs: 100, timeoutMs: 1000, size: 56, ...extra };
}

const live = new AbortController().signal;

function body(r: ToolResult): Record<string, unknown> {
  if (r.kind !== 'ok') throw new Error(`expected ok, got ${r.code}: ${r.detail}`);
  return r.body as Record<string, unknown>;
}

let resolverClient: ResolverClient;

test.before(async () => {
  resolverClient = openResolverClient();
  knot4 = await startKnot([ZONE], '127.0.0.1');
  knot6 = await startKnot([ZONE], '::1');
});

test.after(async () => {
  resolverClient.close();
  for (const s of slots) if ('close' in s) s.close();
  await knot4.stop();
  await knot6.stop();
});

test('an IPv4 literal is pinged and the body has exactly the contract fields', async () => {
  const b = body(await tool()(req('127.0.0.1'), live));
  assert.equal(Object.keys(b).sort(), ['address', 'durationMs', 'host', 'ipVersion', 'packets', 'reachable', 'replies', 'resolveMs', 'rtt', 'startedAt'].sort());
  assert.is(b.host, '127.0.0.1');
  assert.is(b.address, '127.0.0.1');
  assert.is(b.ipVersion, 4);
  assert.is(b.reachable, true);
  assert.equal(b.packets, { sent: 2, received: 2, duplicates: 0, lossPercent: 0 });
  assert.ok(new Date(b.startedAt as string).toISOString() === b.startedAt);
  assert.ok((b.durationMs as number) >= 100);
});

test('a bracketed IPv6 literal is pinged over IPv6', async () => {
  const b = body(await tool()(req('[::1]'), live));
  assert.is(b.address, '::1');
  assert.is(b.ipVersion, 6);
  assert.is(b.reachable, true);
});

test('an IPv4-mapped IPv6 literal is pinged as its IPv4 address', async () => {
  const b = body(await tool()(req('::ffff:127.0.0.1'), live));
  assert.is(b.address, '127.0.0.1');
  assert.is(b.ipVersion, 4);
});

test('a host name resolves through the configured resolver (A first)', async () => {
  const b = body(await tool()(req('a.ping.test'), live));
  assert.is(b.host, 'a.ping.test');
  assert.is(b.address, '127.0.0.1');
  assert.is(b.ipVersion, 4);
  assert.ok((b.resolveMs as number) > 0);
});

test('without ipVersion a name with only AAAA falls back to IPv6', async () => {
  const b = body(await tool()(req('six.ping.test'), live));
  assert.is(b.address, '::1');
  assert.is(b.ipVersion, 6);
});

test('ipVersion picks the family of a name that has both', async () => {
  const h = tool();
  assert.is(body(await h(req('both.ping.test', { ipVersion: 6 }), live)).address, '::1');
  assert.is(body(await h(req('both.ping.test', { ipVersion: 4 }), live)).address, '127.0.0.3');
});

test('an IPv6 resolver is reached in [addr]:port form', async () => {
  const b = body(await tool({}, () => null, 6)(req('a.ping.test'), live));
  assert.is(b.address, '127.0.0.1');
});

test('a name without an address of the wanted family is host-not-found', async () => {
  const h = tool();
  for (const [host, extra] of [['text.ping.test', {}], ['missing.ping.test', {}], ['a.ping.test', { ipVersion: 6 as const }]] as const) {
    const r = await h(req(host, extra), live);
    assert.is(r.kind, 'problem');
    if (r.kind === 'problem') {
      assert.is(r.code, 'host-not-found');
      assert.match(r.detail, host);
    }
  }
});

test('a target in a refused range is target-forbidden, naming the range, and nothing is sent', async () => {
  const seen: string[] = [];
  const h = tool({ allowPrivateTargets: false }, (a) => {
    seen.push(a);
    return 'loopback';
  });
  const r = await h(req('a.ping.test'), live);
  assert.equal(seen, ['127.0.0.1']);
  assert.is(r.kind, 'problem');
  if (r.kind === 'problem') {
    assert.is(r.code, 'target-forbidden');
    assert.match(r.detail, 'loopback');
  }
});

test('the target check passes addresses it does not refuse, and is skipped when private targets are allowed', async () => {
  const seen: string[] = [];
  const check = (a: string): string | null => {
    seen.push(a);
    return null;
  };
  body(await tool({ allowPrivateTargets: false }, check)(req('127.0.0.1', { count: 1 }), live));
  body(await tool({ allowPrivateTargets: true }, check)(req('127.0.0.1', { count: 1 }), live));
  assert.equal(seen, ['127.0.0.1']);
});

test('a client that goes away ends the measurement promptly', async () => {
  const ac = new AbortController();
  const started = Date.now();
  const pending = tool()(req('127.0.0.1', { count: 10, intervalMs: 1000 }), ac.signal);
  setTimeout(() => ac.abort(), 50);
  const r = await pending;
  assert.is(r.kind, 'problem');
  assert.ok(Date.now() - started < 900);
});

test('a request aborted while its name resolves ends without pinging', async () => {
  const ac = new AbortController();
  const pending = tool()(req('a.ping.test'), ac.signal);
  ac.abort();
  const r = await pending;
  assert.is(r.kind, 'problem');
  if (r.kind === 'problem') assert.is(r.code, 'internal-error');
});

test('a measurement cut short by closing the tool answers engine-unavailable', async () => {
  const slot = createPingTool({ config: config(), checkTarget: () => null, resolverClient });
  if (!('handler' in slot)) throw new Error(slot.unavailable);
  const pending = slot.handler(req('127.0.0.1', { count: 10, intervalMs: 1000 }), live);
  setTimeout(() => slot.close(), 50);
  const r = await pending;
  assert.is(r.kind, 'problem');
  if (r.kind === 'problem') assert.is(r.code, 'engine-unavailable');
});

test('createTools wires the ping tool, reports its socket kinds and closes it', () => {
  const tools = createTools({ config: config(), checkTarget: () => null });
  try {
    assert.ok('handler' in tools.ping);
    if ('handler' in tools.ping) {
      const kinds = tools.ping.info.socketKinds as { v4: string | null; v6: string | null };
      assert.ok(kinds.v4 === 'raw' || kinds.v4 === 'dgram');
    }
    assert.ok('handler' in tools.dns);
  } finally {
    tools.close();
  }
});

test('the tool is unavailable, saying why, when no ICMP socket opens', () => {
  const range = readFileSync('/proc/sys/net/ipv4/ping_group_range', 'utf8').trim().split(/\s+/).map(Number) as number[];
  if ((process.getgroups?.() ?? []).some((g) => g >= range[0]! && g <= range[1]!)) return;
  const slot = createPingTool({ config: config(), checkTarget: () => null, resolverClient, pinger: { kind: 'dgram' } });
  assert.ok('unavailable' in slot);
  if ('unavailable' in slot) assert.match(slot.unavailable, 'ping_group_range');
});

test.run();
