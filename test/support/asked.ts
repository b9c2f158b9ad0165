// A coalescing client's answer as a promise, for tests that await it (the client answers by callback).
import type { CoalescingClient, Reserved } from '../../src/engines/dns/coalescing-client';
import type { ResolverQueries, ResolverQuery, SettledEntry } from '../../src/engines/dns/types';
import type { CancelToken } from '../../src/util/cancel';

export function asked(client: CoalescingClient, request: ResolverQuery, cancel?: CancelToken, reserved?: Reserved, onEntry?: (settled: SettledEntry) => void): Promise<ResolverQueries[]> {
  return new Promise((resolve) => client.query(request, resolve, cancel, reserved, onEntry));
}
