import type { Logger } from '../log';
import type { Exchange } from './exchange';
import { refuse } from './refusal';
import type { Method, Route } from './route';
import type { HttpRequest } from './uws';

// Finds the route and method for a request and runs its handler; unknown paths are 404, known paths
// with another method 405 with Allow. A handler that throws is a bug: 500, and the server goes on.
export function dispatch(routes: ReadonlyMap<string, Route>, ex: Exchange, req: HttpRequest, log: Logger): void {
  const route = routes.get(ex.path);
  if (!route) return refuse(ex, { code: 'not-found', path: ex.path });
  ex.route = ex.path;
  const method = ex.method;
  const handler = route.methods[(method === 'HEAD' ? 'GET' : method) as Method];
  if (!handler || (method === 'HEAD' && !route.allow.includes('HEAD'))) {
    ex.header('Allow', route.allow);
    return refuse(ex, { code: 'method-not-allowed', method, path: ex.path, allow: route.allow });
  }
  try {
    handler(ex, req);
  } catch (err) {
    log.log('error', 'handler threw', { path: ex.path, error: (err as Error).stack ?? String(err) });
    refuse(ex, { code: 'internal-error', detail: 'unexpected error; this is a bug' });
  }
}
