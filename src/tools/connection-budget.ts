// What a connection check costs: one connection of its address and port's budget
// (NETTOOLS_TARGET_CONNECTIONS_PER_MINUTE). tcp, tls and http spend the same one, under one key, so that
// the three together open to a port what one of them may.
import { TargetBudget } from '../ratelimit/target-budget';
import type { ToolDeps } from './tool';

// Across all clients, workers and (with Redis) instances, in the store of the echo budgets, keyed apart.
export function connectionBudget(deps: ToolDeps): TargetBudget {
  return new TargetBudget({ limit: deps.config.targetConnectionsPerMinute, windowMs: 60_000, keyPrefix: 'tcp:', ...(deps.targetStore ? { store: deps.targetStore } : {}) });
}
