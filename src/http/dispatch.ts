import type { Exchange } from './exchange';
import { refuse } from './refusal';
import type { Method, Route } from './route';
import type { HttpRequest } from './uws';

// Finds the route and method for a request and runs its handler; unknown paths are 404, known paths
// with another method 405 with Allow. A handler that throws is a bug: the exchange's fault handler answers 500, and the server goes on.
export function dispatch(routes: ReadonlyMap<string, Route>, ex: Exchange, req: HttpRequest): void {
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
    ex.fail(err);
  }
}
