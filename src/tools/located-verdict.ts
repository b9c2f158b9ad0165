// Verdicts across locations (a request with `locations`): each is computed from the locations' own 200
// bodies, which the hub has checked against the tool's schema.

// Ping, traceroute, mtr: from how many locations the target was reached, of how many asked.
export const REACHED_VERDICT_SCHEMA = {
  type: 'object',
  additionalProperties: false,
  required: ['reached', 'of'],
  properties: {
    reached: { type: 'integer', minimum: 0, description: 'Locations whose measurement reached the target.' },
    of: { type: 'integer', minimum: 1, description: 'Locations asked, those that failed included.' },
  },
} as const;


export function reachedVerdict<R>(reached: (result: R) => boolean): (results: readonly R[], of: number) => { reached: number; of: number } {
  return (results, of) => ({ reached: results.filter(reached).length, of });
}

// A record's identity across locations: its data, never its TTL, names case-insensitively.
function recordKey(record: unknown): string {
  const { ttl: _ttl, ...data } = record as Record<string, unknown>;
  return JSON.stringify(data).toLowerCase();
}

function recordSets(records: Readonly<Record<string, readonly unknown[] | undefined>>): string {
  return Object.keys(records)
    .sort()
    .map((type) => `${type}:${(records[type] ?? []).map(recordKey).sort().join('|')}`)
    .join('\n');
}

export const DNS_VERDICT_SCHEMA = {
  type: 'object',
  additionalProperties: false,
  required: ['consistent', 'answered', 'of'],
  properties: {
    consistent: { type: 'boolean', description: "Every location's resolvers agreed, and every location that answered saw the same records (TTLs aside)." },
    answered: { type: 'integer', minimum: 0, description: 'Locations that answered (a 200 body, not a problem).' },
    of: { type: 'integer', minimum: 1, description: 'Locations asked, those that failed included.' },
  },
} as const;

// dns: consistent when every location's resolvers agreed among themselves and every location that answered
// saw the same records; a location that failed is not counted as a disagreement, but `of` shows it.
export function dnsVerdict(results: ReadonlyArray<{ consistent: boolean; records: Readonly<Record<string, readonly unknown[] | undefined>> }>, of: number): { consistent: boolean; answered: number; of: number } {
  const sets = new Set(results.map((r) => recordSets(r.records)));
  return { consistent: results.every((r) => r.consistent) && sets.size <= 1, answered: results.length, of };
}
