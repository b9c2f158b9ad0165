import { errorCode, nativeEngineClass } from './native';
import { unpackOutcomes } from './unpack';
import type { EngineCounters, QueryEntry, RecordType, ResolverQueries, ResolverQuery } from './types';

export * from './types';

export interface ResolverClient {
  // Asks every resolver for every type at once; resolves when each query has an answer, an error or timed out.
  query(request: ResolverQuery, signal?: AbortSignal): Promise<ResolverQueries[]>;
  counters(): EngineCounters;
  close(): void;
}

const CANCELLED: QueryEntry = { error: 'cancelled' };

// Outcomes are resolver-major: resolver i, type j at i * types.length + j; a missing one was cancelled.
function shape(request: ResolverQuery, packed: readonly unknown[], fallback: QueryEntry): ResolverQueries[] {
  const { types, resolvers } = request;
  const entries = packed.length === 0 ? [] : unpackOutcomes(packed, resolvers.flatMap(() => types));
  return resolvers.map((resolver, i) => {
    const queries: Partial<Record<RecordType, QueryEntry>> = {};
    types.forEach((type, j) => (queries[type] = entries[i * types.length + j] ?? { ...fallback }));
    return { resolver, queries };
  });
}

export function openResolverClient(): ResolverClient {
  const Engine = nativeEngineClass();
  const engine = new Engine();
  // A canceller per request in flight, so close() can settle every promise it strands.
  const pending = new Set<() => void>();
  return {
    // One native call and one callback per request, whatever its number of resolvers and types.
    query(request, signal) {
      return new Promise((resolve) => {
        if (signal?.aborted) return resolve(shape(request, [], CANCELLED));
        let id = 0;
        const settle = (packed: readonly unknown[]) => {
          pending.delete(cancel);
          signal?.removeEventListener('abort', cancel);
          resolve(shape(request, packed, CANCELLED));
        };
        const cancel = () => settle(engine.cancel(id) ?? []);
        const spec = { name: request.domain, types: request.types, resolvers: request.resolvers, timeoutMs: request.timeoutMs };
        try {
          id = engine.queryMany(spec, settle);
        } catch (err) {
          return resolve(shape(request, [], { error: errorCode(err) }));
        }
        if (id === 0) return; // settled already: nothing could start
        pending.add(cancel);
        signal?.addEventListener('abort', cancel, { once: true });
      });
    },
    counters: () => engine.counters(),
    close() {
      for (const cancel of [...pending]) cancel();
      engine.close();
    },
  };
}
