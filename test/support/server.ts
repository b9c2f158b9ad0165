import { createApp, type App } from '../../src/app';
import { loadConfig } from '../../src/config/config';
import type { Config } from '../../src/config/types';
import { createServer } from '../../src/http/server';
import { createLogger, type Logger } from '../../src/log';
import { createHttpMetrics } from '../../src/observability/metrics';
import { buildOpenApi } from '../../src/openapi/document';
import type { ToolSet } from '../../src/tools';
import { createValidators } from '../../src/validation/validator';

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
export async function startServer(env: Record<string, string> = {}, log?: Logger): Promise<RunningServer> {
  const config = testConfig(env);
  const app: App = createApp(config, log ?? createLogger('silent'));
  return running(config, app.server, () => app.tools.close());
}

// The real HTTP layer in front of a tool set the test chooses (for HTTP behaviours independent of any engine).
export async function startServerWithTools(tools: ToolSet, env: Record<string, string> = {}, log?: Logger): Promise<RunningServer> {
  const config = testConfig(env);
  const ids = config.resolvers.map((r) => r.id);
  const server = createServer({
    config,
    tools,
    validators: createValidators(ids),
    openapi: JSON.stringify(buildOpenApi(ids, 'test')),
    log: log ?? createLogger('silent'),
    metrics: createHttpMetrics(),
  });
  return running(config, server, () => tools.close());
}

async function running(config: Config, server: ReturnType<typeof createServer>, close: () => void): Promise<RunningServer> {
  const port = await server.listen();
  return {
    base: `http://127.0.0.1:${port}`,
    port,
    config,
    app: server,
    async stop() {
      await server.shutdown(1000);
      close();
    },
  };
}
