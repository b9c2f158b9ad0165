import { createApp } from './app';
import { ConfigError, loadConfig } from './config/config';
import { UwsUnavailableError } from './http/uws';
import { createLogger } from './log';
import { addon } from './native/addon';

async function main(): Promise<void> {
  const config = loadConfig(process.env, process.argv.slice(2));
  const log = createLogger(config.logLevel);
  const { server, tools } = createApp(config, log);

  // Installed before anyone can learn the port: a signal that arrives earlier would meet the default action.
  let stopping = false;
  const stop = async (signal: string) => {
    if (stopping) return;
    stopping = true;
    log.log('info', 'stopping', { signal, inFlight: server.inFlight() });
    const { unfinished } = await server.shutdown(config.shutdownGraceMs);
    tools.close();
    log.log('info', 'stopped', { unfinished });
    log.flush();
    process.exit(0);
  };
  process.on('SIGTERM', () => void stop('SIGTERM'));
  process.on('SIGINT', () => void stop('SIGINT'));

  const port = await server.listen();
  log.log('info', 'listening', {
    host: config.host,
    port,
    resolvers: config.resolvers.map((r) => `${r.id}=${r.address}:${r.port}`),
    ping: 'unavailable' in tools.ping ? { unavailable: tools.ping.unavailable } : tools.ping.info,
    dns: 'unavailable' in tools.dns ? { unavailable: tools.dns.unavailable } : tools.dns.info,
    icmpSockets: addon().capabilities().icmp,
  });
}

main().catch((err: unknown) => {
  // One line, naming what is wrong, for the operator reading a crash-looping unit.
  if (err instanceof ConfigError || err instanceof UwsUnavailableError) {
    process.stderr.write(`nettools: ${err.message}\n`);
    process.exit(2);
  }
  process.stderr.write(`nettools: ${(err as Error).stack ?? String(err)}\n`);
  process.exit(1);
});
