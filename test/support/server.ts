import { createApp, type App, type AppOptions } from '../../src/app';
import { loadConfig } from '../../src/config/config';
import type { Config } from '../../src/config/types';
import type { NettoolsServer } from '../../src/http/server';
import { createLogger, type Logger } from '../../src/log';
import type { Tool } from '../../src/tools/tool';
import { sleep } from './wait';

// Loopback only: tests never run the server with its default public resolvers.
export const TEST_ENV: Record<string, string> = {
  HOST: '127.0.0.1',
  PORT: '0',
  NETTOOLS_RESOLVERS: 'test1=127.0.0.1:1053,test2=127.0.0.2:1053',
  NETTOOLS_LOG_LEVEL: 'silent',
};

export interface RunningServer {
  base: string;
  port: number;
  config: Config;
  app: { inFlight(): number; shutdown(graceMs: number): Promise<{ unfinished: number }> };
  stop(): Promise<void>;
}

export function testConfig(env: Record<string, string> = {}): Config {
  return loadConfig({ ...TEST_ENV, ...env }, []);
}

// The real server, in this process, on an ephemeral loopback port.
export async function startServer(env: Record<string, string> = {}, log?: Logger, options: AppOptions = {}): Promise<RunningServer> {
  const config = testConfig(env);
  const app: App = createApp(config, log ?? createLogger('silent'), options);
  await app.ready();
  return running(config, app.server, () => app.close());
}

// The real HTTP layer in front of tools the test defines (for HTTP behaviours independent of any engine).
export async function startServerWithTools(tools: ReadonlyArray<Tool<any, any>>, env: Record<string, string> = {}, log?: Logger): Promise<RunningServer> {
  const config = testConfig(env);
  const app: App = createApp(config, log ?? createLogger('silent'), { tools });
  return running(config, app.server, () => app.close());
}

async function running(config: Config, server: NettoolsServer, close: () => void | Promise<void>): Promise<RunningServer> {
  const port = await server.listen();
  return {
    base: `http://127.0.0.1:${port}`,
    port,
    config,
    app: server,
    async stop() {
      await server.shutdown(1000);
      await close();
      // uWS frees a closed listen socket on a later turn of its loop, with no event to wait for; give it
      // one before the test moves on.
      await sleep(20);
    },
  };
}
