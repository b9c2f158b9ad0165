// A hub and two real agents on loopback for the client, CLI and page tests of `locations`: `hub` and
// `ams` may measure loopback, `strict` keeps the default target policy and refuses it; all three ask one
// Knot server of example.test.
import { stopServers, type ChildServer } from './child-server';
import { agentKeysFile, connectUrl, spawnAgent, startHub, stopAgent, waitListed, type AgentKeys, type ChildAgent } from './agents';
import { startKnot, type KnotServer } from './knot';
const RECORDS = ['@ A 192.0.2.10', '@ MX 10 mail', 'mail A 192.0.2.25'];

export interface LocatedRig {
  knot: KnotServer;
  keys: AgentKeys;
  hub: ChildServer;
  agents: ChildAgent[];
}

export async function startLocatedRig(address: string, env: Record<string, string> = {}): Promise<LocatedRig> {
  const knot = await startKnot([{ domain: 'example.test', records: RECORDS }], address);
  const resolvers = { NETTOOLS_RESOLVERS: `k=${knot.address}:${knot.port}` };
  const keys = agentKeysFile();
  const made = { ams: await keys.create('ams'), strict: await keys.create('strict') };
  const hub = await startHub(keys, { ...resolvers, NETTOOLS_LOCATION: 'hub', NETTOOLS_ALLOW_PRIVATE_TARGETS: 'true', NETTOOLS_RATE_LIMIT: '200/60s', ...env });
  const agent = (location: 'ams' | 'strict', more: Record<string, string>) =>
    spawnAgent({ ...resolvers, NETTOOLS_HUB_URL: connectUrl(hub.port), NETTOOLS_AGENT_KEY: made[location], NETTOOLS_LOCATION: location, ...more });
  const agents = [agent('ams', { NETTOOLS_ALLOW_PRIVATE_TARGETS: 'true', NETTOOLS_LOCATION_LABELS: 'country=NL,city=Amsterdam' }), agent('strict', {})];
  await waitListed(hub.base, 'ams');
  await waitListed(hub.base, 'strict');
  return { knot, keys, hub, agents };
}

export async function stopLocatedRig(rig: Partial<LocatedRig>): Promise<void> {
  for (const a of rig.agents ?? []) await stopAgent(a);
  if (rig.hub) await stopServers(rig.hub);
  await rig.knot?.stop();
  rig.keys?.remove();
}
