import { PARSE_AGAIN, type FormatValues } from '../validation/format-values';
import type { HostTarget } from '../validation/names';

// The normalize step of the tools that take a `host` (ping, traceroute): the host's value is the one the
// schema's `host` format made (parsed once, at the edge) and travels with the request; `host` becomes
// its canonical text (the response's `host`). The request comes from its schema, which admits no
// `target` of the caller's.
export function withTarget<R extends { host: string; target: HostTarget }>(request: Omit<R, 'target'>, formats: FormatValues = PARSE_AGAIN): R {
  // The schema's `host` format has accepted it, so it has a value.
  const target = formats.host(request.host) as HostTarget;
  // `target` first: a spread followed by a key its source lacks leaves V8's fast clone (ten times slower).
  return { target, ...request, host: target.value } as unknown as R;
}
