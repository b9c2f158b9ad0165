import { errorCode, nativeEngineClass, type NativeDnsEngine, type NativeOutcome } from './native';
import type { EngineCounters, QueryEntry, RecordType, ResolverQueries, ResolverQuery } from './types';

export * from './types';

export interface ResolverClient {
  // Asks every resolver for every type at once; resolves when each query has an answer, an error or timed out.
  query(request: ResolverQuery, signal?: AbortSignal): Promise<ResolverQueries[]>;
  counters(): EngineCounters;
  close(): void;
}

function toEntry(outcome: NativeOutcome): QueryEntry {
  if ('error' in outcome) return outcome;
  const { cnames, ...rest } = outcome;
  return cnames.length > 0 ? { ...rest, cnames } : rest;
}

// `pending` holds a canceller per query in flight, so close() can settle every promise it strands.
function runOne(
  engine: NativeDnsEngine,
  spec: Parameters<NativeDnsEngine['query']>[0],
  signal: AbortSignal | undefined,
  pending: Set<() => void>,
): Promise<QueryEntry> {
  return new Promise((resolve) => {
    if (signal?.aborted) return resolve({ error: 'cancelled' });
    let id = 0;
    const settle = (entry: QueryEntry) => {
      pending.delete(cancel);
      signal?.removeEventListener('abort', cancel);
      resolve(entry);
    };
    const cancel = () => {
      engine.cancel(id);
      settle({ error: 'cancelled' });
    };
    try {
      id = engine.query(spec, (outcome) => settle(toEntry(outcome)));
    } catch (err) {
      return resolve({ error: errorCode(err) });
    }
    pending.add(cancel);
    signal?.addEventListener('abort', cancel, { once: true });
  });
}

export function openResolverClient(): ResolverClient {
  const Engine = nativeEngineClass();
  const engine = new Engine();
  const pending = new Set<() => void>();
  return {
    async query({ domain, types, resolvers, timeoutMs }, signal) {
      return Promise.all(
        resolvers.map(async (resolver) => {
          const entries = await Promise.all(
            types.map((type) =>
              runOne(engine, { address: resolver.address, port: resolver.port, name: domain, type, timeoutMs }, signal, pending),
            ),
          );
          const queries: Partial<Record<RecordType, QueryEntry>> = {};
          types.forEach((type, i) => (queries[type] = entries[i]));
          return { resolver, queries };
        }),
      );
    },
    counters: () => engine.counters(),
    close() {
      for (const cancel of [...pending]) cancel();
      engine.close();
    },
  };
}
