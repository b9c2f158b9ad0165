import { unpackOutcomes } from './unpack';
import type { QueryEntry, ResolverQueries, ResolverQuery, SettledEntry } from './types';

// Entries as they settle, for a ResolverClient request started with onEntry: each (resolver, type) pair
// is told once, in the order the engine settles them, all before the request's `done`. The pairs the
// engine never tells (those that could not start: a bad address or type) are told just before `done`,
// in request order. After a cancel nothing more is told.
export interface EntryProgress {
  // The engine's progress function: (index, ...packed one outcome), index resolver-major.
  readonly native: (index: number, ...packed: unknown[]) => void;
  // Tells what is left untold, from the final results; then nothing more.
  finish(results: readonly ResolverQueries[]): void;
  stop(): void;
}

export function entryProgress(request: ResolverQuery, onEntry: (settled: SettledEntry) => void): EntryProgress {
  const { types, resolvers } = request;
  const told = new Uint8Array(types.length * resolvers.length);
  let open = true;
  const tell = (index: number, entry: QueryEntry): void => {
    if (!open || told[index] !== 0) return;
    told[index] = 1;
    const typeIndex = index % types.length;
    const resolverIndex = (index - typeIndex) / types.length;
    const resolver = resolvers[resolverIndex];
    const type = types[typeIndex];
    if (resolver !== undefined && type !== undefined) onEntry({ resolverIndex, typeIndex, resolver, type, entry });
  };
  return {
    native(index, ...packed) {
      // The packed numbers are the engine's shared array: read now, whoever runs next.
      const type = types[index % types.length];
      const entry = open && type !== undefined ? unpackOutcomes(packed, [type], 1, request)[0] : undefined;
      if (entry !== undefined) tell(index, entry);
    },
    finish(results) {
      results.forEach((r, i) => types.forEach((type, j) => {
        const entry = r.queries[type];
        if (entry !== undefined) tell(i * types.length + j, entry);
      }));
      open = false;
    },
    stop() {
      open = false;
    },
  };
}
