import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { stopServers, type ChildServer } from '../support/child-server';
import { postChunked } from '../support/chunked-reader';
import { agentKeysFile, connectUrl, spawnAgent, startHub, stopAgent, waitListed, type AgentKeys, type ChildAgent } from '../support/agents';
import { sniffEchoes, type EchoSniffer } from '../support/echo-sniffer';
import { freeFixedTcpPort } from '../support/ports';
import { sleep, waitFor } from '../support/wait';

// The hub goes away while an agent measures for it: the agent stops what it was running (nobody is left
// to read it), and is back once the hub is, within its backoff.

interface Ctx {
  keys: AgentKeys;
  hub: ChildServer;
  agent: ChildAgent;
  sniffer: EchoSniffer;
}

const test = suite<Ctx>('a hub restarted under a running measurement');
const HUB_ENV = { NETTOOLS_LOCATION: 'hub', NETTOOLS_ALLOW_PRIVATE_TARGETS: 'true' };

test.before(async (ctx) => {
  ctx.keys = agentKeysFile();
  const key = await ctx.keys.create('ams');
  // A port as an operator gives it (not from the ephemeral range): the hub comes back on it.
  ctx.hub = await startHub(ctx.keys, { ...HUB_ENV, PORT: String(await freeFixedTcpPort('127.0.0.1')) });
  ctx.agent = spawnAgent({ NETTOOLS_HUB_URL: connectUrl(ctx.hub.port), NETTOOLS_AGENT_KEY: key, NETTOOLS_LOCATION: 'ams', NETTOOLS_ALLOW_PRIVATE_TARGETS: 'true' });
  await waitListed(ctx.hub.base, 'ams');
  ctx.sniffer = sniffEchoes();
  await ctx.sniffer.ready;
});

test.after(async (ctx) => {
  ctx.sniffer?.stop();
  if (ctx.agent) await stopAgent(ctx.agent);
  if (ctx.hub) await stopServers(ctx.hub);
  ctx.keys?.remove();
});

test('the agent stops a running stream when its hub goes away, and is listed again once the hub is back', async (ctx) => {
  const { port } = ctx.hub;
  const stream = postChunked(port, '/api/tools/ping', { host: '127.0.0.1', count: 600, intervalMs: 100, size: ctx.sniffer.size, locations: ['ams'] }, 'application/x-ndjson');
  await waitFor('echoes from the agent', async () => (await ctx.sniffer.settled()) >= 5);
  await stopServers(ctx.hub);
  await stream.closed;
  const atStop = await ctx.sniffer.settled();
  await sleep(1000); // the point: a second in which the agent, left alone, would send ten more echoes
  const after = await ctx.sniffer.settled();
  assert.ok(after - atStop <= 1, `${after - atStop} echoes after the hub went away`);
  ctx.hub = await startHub(ctx.keys, { ...HUB_ENV, PORT: String(port) });
  await waitListed(ctx.hub.base, 'ams');
  await waitFor('the agent to log its reconnect', () => ctx.agent.saw('reconnected to hub') >= 1);
});

test.run();
