import type { Config } from './config/types';
import { createServer, type NettoolsServer } from './http/server';
import type { Logger } from './log';
import { createHttpMetrics, disabledHttpMetrics } from './observability/metrics';
import { createToolMetrics } from './observability/tool-metrics';
import { createTargetCheck } from './policy/target-policy';
import { buildOpenApi } from './openapi/document';
import { createTools, type ToolSet } from './tools';
import { createValidators } from './validation/validator';
import pkg from '../package.json';

export interface App {
  server: NettoolsServer;
  tools: ToolSet;
}

// Everything the process runs, wired from one Config; main.ts adds only signals and exit codes.
export function createApp(config: Config, log: Logger): App {
  const ids = config.resolvers.map((r) => r.id);
  const metrics = config.metrics ? createHttpMetrics() : disabledHttpMetrics();
  const tools = createTools({
    config,
    checkTarget: createTargetCheck({ allowPrivateTargets: config.allowPrivateTargets }),
    ...(config.metrics ? { metrics: createToolMetrics(metrics.registry) } : {}),
  });
  const server = createServer({
    config,
    tools,
    validators: createValidators(ids),
    openapi: JSON.stringify(buildOpenApi(ids, pkg.version)),
    log,
    metrics,
  });
  return { server, tools };
}
