import { loadConfig } from '../config/config';
import { ConfigError } from '../config/errors';
import type { Config } from '../config/types';
import { readCredential } from '../keys/api-key';
import { AgentLink } from '../locations/agent';
import { createLogger } from '../log';
import { installLastResort } from '../observability/last-resort';
import { openTools } from '../tools/registry';
import pkg from '../../package.json';

// `node dist/src/main.js agent`: dial the hub named by NETTOOLS_HUB_URL and stay connected until
// SIGTERM or SIGINT, then close the connection and exit 0. A missing or malformed setting is one line
// on stderr and exit code 2, as for the server.

interface AgentSettings {
  url: URL;
  key: string;
  location: string;
}

// The settings an agent cannot run without; the key is never repeated in a refusal.
function agentSettings(config: Config): AgentSettings {
  if (config.hubUrl === null) throw new ConfigError('NETTOOLS_HUB_URL', 'an agent needs its hub: wss://host/api/agents/connect');
  if (config.agentKey === null) throw new ConfigError('NETTOOLS_AGENT_KEY', 'an agent needs its key (keys create --agent LOCATION on the hub)');
  const credential = readCredential([`Bearer ${config.agentKey}`]);
  if (credential.kind !== 'key') throw new ConfigError('NETTOOLS_AGENT_KEY', 'not a nettools key (nt_ and 43 base64url characters)');
  if (config.location === null) throw new ConfigError('NETTOOLS_LOCATION', 'an agent needs the location name its key was made for');
  return { url: config.hubUrl, key: credential.key, location: config.location };
}

export function runAgent(args: readonly string[], env: NodeJS.ProcessEnv): void {
  const config = loadConfig(env, args);
  const settings = agentSettings(config);
  const log = createLogger(config.logLevel);
  installLastResort(log);
  // What this agent can run is what its own engines opened, exactly as the server reports at start.
  const tools = openTools(config, null);
  const names = tools.list.filter(({ slot }) => !('unavailable' in slot)).map(({ tool }) => tool.name);
  const hello = { type: 'hello' as const, location: settings.location, labels: config.locationLabels, tools: names, version: pkg.version };
  const link = new AgentLink({ ...settings, hello, timeoutMs: config.agentTimeoutMs, reconnectMs: config.agentReconnectMs, reconnectMaxMs: config.agentReconnectMaxMs, log, tools: tools.list });
  let stopping = false;
  const stop = async (signal: string) => {
    if (stopping) return;
    stopping = true;
    log.log('info', 'stopping', { signal });
    await link.stop();
    tools.close();
    log.log('info', 'stopped');
    log.flush();
    process.exit(0);
  };
  process.on('SIGTERM', () => void stop('SIGTERM'));
  process.on('SIGINT', () => void stop('SIGINT'));
  log.log('info', 'agent starting', { hub: settings.url.href, location: settings.location, tools: names });
  link.start();
}
