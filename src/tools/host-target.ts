import { parseHost, type HostTarget } from '../validation/names';

// The normalize step of the tools that take a `host` (ping, traceroute): the host is parsed here, once,
// and its value travels with the request; `host` becomes its canonical text (the response's `host`).
export function withTarget<R extends { host: string; target: HostTarget }>(request: R): R {
  // The schema's `host` format has accepted it, so it parses.
  const target = parseHost(request.host) as HostTarget;
  return { ...request, host: target.value, target };
}
