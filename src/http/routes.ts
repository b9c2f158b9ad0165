import type { DocsAsset } from '../docs/docs-assets';
import type { Logger } from '../log';
import type { LocationEntry } from '../locations/hub';
import type { OpenTool } from '../tools/registry';
import type { Exchange } from './exchange';
import type { PipelineContext } from './pipeline/context';
import { docsRoute } from './docs-route';
import { limitsRoute } from './limits-route';
import { probeRoute } from './probe-route';
import { later } from './pipeline/runner';
import { refuse } from './refusal';
import type { Route } from './route';
import { toolRoute } from './tool-route';

export interface RouteSources {
  tools: readonly OpenTool[];
  openapi: string; // the serialised document
  docs: ReadonlyMap<string, DocsAsset>; // the API reference page and its files
  page: ReadonlyMap<string, DocsAsset>; // the live page at / and its files
  health: () => object; // the /health body
  metrics: { text(): Promise<string>; contentType: string } | null; // null: /metrics is not served
  log: Logger;
  locations: () => LocationEntry[]; // GET /api/locations: this server, then its connected agents
}

// Every path the server answers, by exact match: one route per tool from the registry, then the
// fixed ones.
export function buildRoutes(ctx: PipelineContext, sources: RouteSources): Map<string, Route> {
  const routes = new Map<string, Route>();
  for (const open of sources.tools) routes.set(open.tool.path, toolRoute(ctx, open));
  routes.set('/probe', probeRoute(ctx, sources.tools));
  routes.set('/api/limits', limitsRoute(ctx));
  routes.set('/api/locations', { allow: 'GET, HEAD', methods: { GET: (ex) => ex.json(200, sources.locations()) } });
  routes.set('/health', { allow: 'GET, HEAD', methods: { GET: (ex) => ex.json(200, sources.health()) } });
  routes.set('/openapi.json', { allow: 'GET, HEAD', methods: { GET: (ex) => ex.send(200, 'application/json', sources.openapi) } });
  for (const [path, asset] of [...sources.docs, ...sources.page]) routes.set(path, docsRoute(asset));
  const { metrics } = sources;
  if (metrics !== null) routes.set('/metrics', { allow: 'GET, HEAD', methods: { GET: (ex) => serveMetrics(ex, metrics, sources.log) } });
  return routes;
}

function serveMetrics(ex: Exchange, metrics: NonNullable<RouteSources['metrics']>, log: Logger): void {
  const text = metrics.text().catch((err: Error) => {
    log.log('error', 'metrics failed', { error: err.stack });
    return null;
  });
  later(ex, text, (body) => (body === null ? refuse(ex, { code: 'internal-error', detail: 'metrics collection failed' }) : ex.send(200, metrics.contentType, body)));
}
