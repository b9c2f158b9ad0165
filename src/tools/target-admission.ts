// What every ICMP tool checks of a resolved target before it spends anything: the operator's target
// policy (after resolution: a name cannot smuggle in a refused address) and a socket of its family.
import type { SocketKinds } from '../engines/icmp/types';
import { StoreUnavailableError } from '../ratelimit/failover-store';
import type { ToolFailure } from './outcome';
import type { ResolvedHost } from './resolve-host';
import type { TargetCheck } from './tool';

// `kinds`: the ICMP sockets the tool needs, one of the target's family; null for a tool that needs none
// (tcp opens a socket of either family per attempt).
export function refuseTarget(host: ResolvedHost, kinds: SocketKinds | null, checkTarget: TargetCheck): ToolFailure | null {
  const { address, shown } = host;
  const { family } = address;
  const range = checkTarget(address);
  if (range !== null) return { code: 'target-forbidden', detail: `${shown} is in the refused range ${range}`, address: shown, range };
  if (kinds !== null && (family === 4 ? kinds.v4 : kinds.v6) === null) {
    const why = family === 4 ? kinds.reasons.v4 : kinds.reasons.v6;
    return { code: 'engine-unavailable', detail: `no ICMP socket for IPv${family} on this server: ${why}` };
  }
  return null;
}

// A budget's store could not be asked (Redis down, the operator chose `closed`): refuse, never unlimited.
// Any other error stays an error (a bug: the request's 500).
export function storeFailure(err: Error): ToolFailure | Error {
  if (!(err instanceof StoreUnavailableError)) return err;
  return { code: 'store-unavailable', detail: 'the shared store of per-target budgets cannot be reached; retry shortly', retryAfterSeconds: err.retryAfterSeconds };
}
