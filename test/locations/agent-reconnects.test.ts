import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { stopServers, type ChildServer } from '../support/child-server';
import { agentKeysFile, connectUrl, spawnAgent, startHub, stopAgent, waitListed } from '../support/agents';
import { waitFor } from '../support/wait';

const TIMEOUT = { NETTOOLS_AGENT_TIMEOUT_MS: '600' };
const logged = (hub: ChildServer, msg: string) => hub.logs.filter((l) => l.includes(`"msg":"${msg}"`)).length;

// A hub that closes its end first leaves its port in TIME_WAIT, and on this kernel that kept the port
// from being bound again for a minute. So the agent ends the connection first here: the hub is
// stopped (SIGSTOP), the agent gives it up when its pings stop, and only then is the hub killed. The
// first hub is watched through its log, not over HTTP, for the same reason.
test('a hub that goes silent is given up, and once started again on the same port gets its agent back', async () => {
  const keys = agentKeysFile();
  const key = await keys.create('de-fra');
  let hub = await startHub(keys, TIMEOUT);
  const port = hub.port;
  const agent = spawnAgent({ ...TIMEOUT, NETTOOLS_HUB_URL: connectUrl(port), NETTOOLS_AGENT_KEY: key, NETTOOLS_LOCATION: 'de-fra' });
  try {
    await waitFor('the hub to list the agent', () => logged(hub, 'agent connected') === 1);
    hub.child.kill('SIGSTOP');
    await waitFor('the agent to give the silent hub up', () => agent.logs.some((l) => String(l['error']).startsWith('no ping from the hub')));
    hub.child.kill('SIGKILL');
    await hub.exited;
    hub = await startHub(keys, { ...TIMEOUT, PORT: String(port) });
    await waitListed(hub.base, 'de-fra');
    await waitFor('the reconnected line', () => agent.saw('reconnected to hub') === 1);
    assert.is(agent.saw('connected to hub'), 1);
  } finally {
    await stopAgent(agent);
    await stopServers(hub);
    keys.remove();
  }
});

test('an agent started before its hub connects once the hub is up', async () => {
  const keys = agentKeysFile();
  const key = await keys.create('de-fra');
  // A port the hub can take after the agent has started dialling: a hub that never had a connection
  // leaves no TIME_WAIT behind.
  const first = await startHub(keys);
  const port = first.port;
  await stopServers(first);
  const agent = spawnAgent({ NETTOOLS_HUB_URL: connectUrl(port), NETTOOLS_AGENT_KEY: key, NETTOOLS_LOCATION: 'de-fra' });
  let hub = first;
  try {
    await waitFor('a refused dial', () => agent.logs.some((l) => String(l['error']).includes('ECONNREFUSED')));
    hub = await startHub(keys, { PORT: String(port) });
    await waitListed(hub.base, 'de-fra');
    await waitFor('the connected line', () => agent.saw('connected to hub') === 1);
  } finally {
    await stopAgent(agent);
    await stopServers(hub);
    keys.remove();
  }
});

test.run();
