import type { AgentKeyRing } from '../keys/agent-key-ring';
import type { Logger } from '../log';
import type { Hub } from './hub';

// SIGHUP: the agent keys file again; an agent whose key is no longer valid is disconnected. With worker
// threads each worker reads the file for the agents connected to it.
export function reloadAgentKeys(agents: { keys: AgentKeyRing; hub: Hub } | null, log: Logger): void {
  if (agents === null) return;
  const reloaded = agents.keys.reload();
  if (!reloaded.ok) return log.log('error', 'agent keys reload failed; the previous keys stay in force', { error: reloaded.message, agentKeys: agents.keys.size });
  log.log('info', 'agent keys reloaded', { agentKeys: reloaded.value });
  agents.hub.keysReloaded();
}
