import { createApp, type App } from './app';
import { runAgent } from './cli/agent-command';
import { runKeysCommand } from './cli/keys-command';
import { helpText, loadConfig } from './config/config';
import { ConfigError } from './config/errors';
import type { Config } from './config/types';
import { claimPort } from './http/port-owner';
import { UwsUnavailableError } from './http/uws';
import type { KeyRing } from './keys/key-ring';
import { createLogger, type Logger } from './log';
import { addon } from './native/addon';
import { installLastResort } from './observability/last-resort';
import { reloadAgentKeys } from './locations/agent-keys-reload';
import { superviseWorkers } from './workers/supervisor';

// Installed before anyone can learn the port: a signal that arrives earlier would meet the default
// action. `stop` runs once, whichever signal comes first.
function onSignals(log: Logger, stop: () => Promise<{ unfinished: number }>, reload: () => void): void {
  let stopping = false;
  const exit = async (signal: string) => {
    if (stopping) return;
    stopping = true;
    log.log('info', 'stopping', { signal });
    const { unfinished } = await stop();
    log.log('info', 'stopped', { unfinished });
    log.flush();
    process.exit(0);
  };
  process.on('SIGTERM', () => void exit('SIGTERM'));
  process.on('SIGINT', () => void exit('SIGINT'));
  process.on('SIGHUP', reload);
}

// One thread serves: the default.
async function serveHere(config: Config, log: Logger): Promise<void> {
  if (config.port !== 0) claimPort(config.host, config.port);
  const app = createApp(config, log);
  const { server, tools, keys, agents } = app;
  onSignals(log, async () => {
    // Agents are told the hub is going away; each dials again until it is back.
    agents?.hub.close();
    const outcome = await server.shutdown(config.shutdownGraceMs);
    await app.close();
    return outcome;
  }, () => {
    if (keys !== null || agents === null) reloadKeys(keys, log);
    reloadAgentKeys(agents, log);
  });
  await app.ready();
  const port = await server.listen();
  const info = Object.fromEntries(tools.list.map(({ tool, slot }) => [tool.name, 'unavailable' in slot ? { unavailable: slot.unavailable } : slot.info]));
  logListening(log, config, port, { ...info, apiKeys: keys === null ? 'off' : keys.size, agentKeys: agents === null ? 'off' : agents.keys.size });
}

// NETTOOLS_WORKERS above 1: worker threads serve the one port; this thread supervises.
async function serveOnWorkers(config: Config, argv: string[], log: Logger): Promise<void> {
  const workers = await superviseWorkers(config, argv, log);
  onSignals(log, () => workers.shutdown(config.shutdownGraceMs), () => {
    void workers.reloadKeys().then((answers) => {
      for (const [worker, a] of answers.entries()) {
        // A hub without API keys: the workers reloaded their agent keys, and log that themselves.
        if (a.apiKeysOff === true && config.agentKeysFile !== null) continue;
        if (a.ok) log.log('info', 'keys reloaded', { worker, keys: a.keys });
        else log.log('error', 'keys reload failed; the previous keys stay in force', { worker, error: a.error, keys: a.keys });
      }
    });
  });
  logListening(log, config, workers.port, { ...workers.info, workers: config.workers });
}

function logListening(log: Logger, config: Config, port: number, info: Record<string, unknown>): void {
  log.log('info', 'listening', { host: config.host, port, resolvers: config.resolvers.map((r) => `${r.id}=${r.address}:${r.port}`), ...info, icmpSockets: addon().capabilities().icmp });
}

// SIGHUP: the keys file again. One that does not parse leaves the keys in force as they were.
function reloadKeys(keys: KeyRing | null, log: Logger): void {
  if (keys === null) return log.log('warn', 'SIGHUP ignored: API keys are off (NETTOOLS_API_KEYS_FILE is empty)');
  const reloaded = keys.reload();
  if (reloaded.ok) log.log('info', 'keys reloaded', { keys: reloaded.value });
  else log.log('error', 'keys reload failed; the previous keys stay in force', { error: reloaded.message, keys: keys.size });
}

async function main(): Promise<void> {
  const args = process.argv.slice(2);
  // `keys` first: `keys --help` is the keys command's own usage.
  if (args[0] === 'keys') {
    const out = runKeysCommand(args.slice(1), process.env);
    process.stdout.write(out.stdout);
    process.stderr.write(out.stderr);
    process.exitCode = out.code;
    return;
  }
  if (args.includes('--help') || args.includes('-h')) return void process.stdout.write(helpText());
  if (args[0] === 'agent') return runAgent(args.slice(1), process.env);
  const config = loadConfig(process.env, args);
  const log = createLogger(config.logLevel);
  installLastResort(log);
  if (config.workers > 1) await serveOnWorkers(config, args, log);
  else await serveHere(config, log);
}

main().catch((err: unknown) => {
  // One line, naming what is wrong, for the operator reading a crash-looping unit.
  const exitCode = (err as { exitCode?: number }).exitCode;
  if (err instanceof ConfigError || err instanceof UwsUnavailableError || exitCode === 2) {
    process.stderr.write(`nettools: ${(err as Error).message}\n`);
    process.exit(2);
  }
  process.stderr.write(`nettools: ${(err as Error).stack ?? String(err)}\n`);
  process.exit(1);
});
