import { test } from 'uvu';
import * as assert from 'uvu/assert';
import type { Config } from '../../../src/config/types';
import type { Outcome } from '../../../src/tools/outcome';
import type { PingRequest, PingResult } from '../../../src/tools/ping';
import { openPing, type PingToolOptions } from '../../../src/tools/ping/run';
import { openIcmpEngine } from '../../../src/tools/icmp-engine';
import type { PingerOptions } from '../../../src/engines/icmp';
import { openTools } from '../../../src/tools/registry';
import type { TargetCheck, ToolSlot } from '../../../src/tools/tool';
import type { Upstream } from '../../../src/tools/upstream';
import { openUpstream } from '../../support/upstream';
import { startKnot, type KnotServer, type ZoneSpec } from '../../support/knot';
import { testConfig } from '../../support/server';
import { CancelSource, type CancelToken } from '../../../src/util/cancel';
import { pingGroupAdmitsUs, testUnless } from '../../support/capability';
import { MemoryLimiterStore } from '../../../src/ratelimit/memory-limiter-store';
import { withTarget } from '../../../src/tools/host-target';
import type { Address } from '../../../src/net/address';

const ZONE: ZoneSpec = {
  domain: 'ping.test',
  records: ['a A 127.0.0.1', 'six AAAA ::1', 'both A 127.0.0.3', 'both AAAA ::1', 'text TXT "no address here"'],
};

// The same zone served over IPv4 and over IPv6, to resolve through resolvers of either family.
let knot4: KnotServer;
let knot6: KnotServer;
const slots: ToolSlot<PingRequest, PingResult>[] = [];
const engines: Array<() => void> = [];

function config(over: Partial<Config> = {}, resolverFamily: 4 | 6 = 4): Config {
  const resolver = resolverFamily === 4 ? `knot=127.0.0.1:${knot4.port}` : `knot=[::1]:${knot6.port}`;
  return { ...testConfig({ NETTOOLS_RESOLVERS: resolver, NETTOOLS_ALLOW_PRIVATE_TARGETS: 'true' }), ...over };
}

type Run = (request: PingRequest, cancel: CancelToken) => Promise<Outcome<PingResult>>;

// The engine as openTools opens it, one per slot here (a test may close it); `pinger` e.g. forces a kind.
function icmp(pinger?: PingerOptions): ReturnType<typeof openIcmpEngine> {
  const opened = openIcmpEngine(pinger);
  if ('pinger' in opened) engines.push(() => opened.pinger.close());
  return opened;
}

function open(over: Partial<Config> = {}, options: PingToolOptions = {}, family: 4 | 6 = 4, pinger?: PingerOptions): ToolSlot<PingRequest, PingResult> {
  const slot = openPing({ config: config(over, family), dns: { upstream: resolverClient }, icmp: icmp(pinger), registry: null }, options);
  slots.push(slot);
  return slot;
}

// `policy`: the operator's target policy, as the server runs it.
function tool(over: Partial<Config> = {}, checkTarget: TargetCheck | 'policy' = () => null, family: 4 | 6 = 4): Run {
  const slot = open(over, checkTarget === 'policy' ? {} : { checkTarget }, family);
  if (!('run' in slot)) throw new Error(`ping unavailable: ${slot.unavailable}`);
  return slot.run;
}

// A request as the schema's normalize step hands it to the tool: the host parsed once.
function req(host: string, extra: Partial<PingRequest> = {}): PingRequest {
  return withTarget<PingRequest>({ host, count: 2, intervalMs: 100, timeoutMs: 1000, size: 56, ...extra });
}

const live = new CancelSource();

function body(r: Outcome<PingResult>): Record<string, unknown> {
  if (!r.ok) throw new Error(`expected ok, got ${r.failure.code}: ${r.failure.detail}`);
  return r.value as unknown as Record<string, unknown>;
}

function failure(r: Outcome<PingResult>): { code: string; detail: string } {
  if (r.ok) throw new Error('expected a failure, got a result');
  return r.failure;
}

let resolverClient: Upstream;

test.before(async () => {
  resolverClient = openUpstream([]);
  knot4 = await startKnot([ZONE], '127.0.0.1');
  knot6 = await startKnot([ZONE], '::1');
});

test.after(async () => {
  resolverClient.close();
  for (const s of slots) if ('close' in s) s.close();
  for (const close of engines) close();
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
    const f = failure(await h(req(host, extra), live));
    assert.is(f.code, 'host-not-found');
    assert.match(f.detail, host);
  }
});

test('a target in a refused range is target-forbidden, naming the range, and nothing is sent', async () => {
  const seen: string[] = [];
  const h = tool({ allowPrivateTargets: false }, (a) => {
    seen.push(a.text);
    return 'loopback';
  });
  const f = failure(await h(req('a.ping.test'), live));
  assert.equal(seen, ['127.0.0.1']);
  assert.is(f.code, 'target-forbidden');
  assert.match(f.detail, 'loopback');
});

test('the target check passes addresses it does not refuse', async () => {
  const seen: string[] = [];
  const check = (a: Address): string | null => {
    seen.push(a.text);
    return null;
  };
  body(await tool({ allowPrivateTargets: false }, check)(req('127.0.0.1', { count: 1 }), live));
  assert.equal(seen, ['127.0.0.1']);
});

test("the operator's policy refuses loopback by default and lets it through when private targets are allowed", async () => {
  const f = failure(await tool({ allowPrivateTargets: false }, 'policy')(req('127.0.0.1', { count: 1 }), live));
  assert.equal([f.code, f.detail], ['target-forbidden', '127.0.0.1 is in the refused range loopback']);
  body(await tool({ allowPrivateTargets: true }, 'policy')(req('127.0.0.1', { count: 1 }), live));
});

test('a client that goes away ends the measurement promptly', async () => {
  const ac = new CancelSource();
  const started = Date.now();
  const pending = tool()(req('127.0.0.1', { count: 10, intervalMs: 1000 }), ac);
  setTimeout(() => ac.abort(), 50);
  assert.is(failure(await pending).code, 'aborted');
  assert.ok(Date.now() - started < 900);
});

test('a request aborted while its name resolves ends without pinging', async () => {
  const ac = new CancelSource();
  const pending = tool()(req('a.ping.test'), ac);
  ac.abort();
  assert.is(failure(await pending).code, 'aborted');
});

test('a measurement cut short by closing the tools (and their engine) answers engine-unavailable', async () => {
  const tools = openTools(config(), null);
  const slot = tools.list.find((t) => t.tool.name === 'ping')!.slot as ToolSlot<PingRequest, PingResult>;
  if (!('run' in slot)) throw new Error(slot.unavailable);
  const pending = slot.run(req('127.0.0.1', { count: 10, intervalMs: 1000 }), live);
  setTimeout(() => tools.close(), 50);
  assert.is(failure(await pending).code, 'engine-unavailable');
});

test('the registry wires the ping tool, reports its socket kinds and closes it', () => {
  const tools = openTools(config(), null);
  try {
    const [ping, dns] = ['ping', 'dns'].map((name) => tools.list.find((t) => t.tool.name === name)?.slot);
    assert.ok(ping && 'run' in ping);
    if (ping && 'run' in ping) {
      const kinds = ping.info['socketKinds'] as { v4: string | null; v6: string | null };
      assert.ok(kinds.v4 === 'raw' || kinds.v4 === 'dgram');
    }
    assert.ok(dns && 'run' in dns);
  } finally {
    tools.close();
  }
});

test("the host's parsed value is what the target check sees and what the budget is keyed by: nobody parses it again", async () => {
  const keys: string[] = [];
  const store = new (class extends MemoryLimiterStore {
    override take(...args: Parameters<MemoryLimiterStore['take']>): void {
      keys.push(args[0]);
      super.take(...args);
    }
  })({ max: 10 });
  const checked: Address[] = [];
  const slot = openPing({ config: config(), dns: { upstream: resolverClient }, icmp: icmp(), registry: null, targetStore: store }, { checkTarget: (a) => (checked.push(a), null) });
  slots.push(slot);
  if (!('run' in slot)) throw new Error(slot.unavailable);
  const request = req('[::FFFF:127.0.0.1]', { count: 1 });
  body(await slot.run(request, live));
  assert.ok(request.target.kind !== 'name' && checked[0] === request.target.address, 'the check got the very value the request carried');
  assert.equal(keys, ['127.0.0.1']);
});

testUnless(test, pingGroupAdmitsUs())('the tool is unavailable, saying why, when no ICMP socket opens', () => {
  const slot = open({}, { checkTarget: () => null }, 4, { kind: 'dgram' });
  assert.ok('unavailable' in slot);
  if ('unavailable' in slot) assert.match(slot.unavailable, 'ping_group_range');
});

test.run();
