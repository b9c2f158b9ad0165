import type { ResolverConfig } from '../../src/config/types';
import { openResolverClient } from '../../src/engines/dns';
import { coalesce } from '../../src/engines/dns/coalescing-client';
import { ResolverBudget } from '../../src/ratelimit/resolver-budget';
import { MemoryLimiterStore } from '../../src/ratelimit/memory-limiter-store';
import { Upstream } from '../../src/tools/upstream';

// The tools' way to the resolvers, as the registry builds it, with a budget the test chooses.
export function openUpstream(resolvers: readonly ResolverConfig[], qps = 100_000): Upstream {
  return new Upstream(coalesce(openResolverClient()), new ResolverBudget(new MemoryLimiterStore({ max: 64 }), qps), null, resolvers);
}
