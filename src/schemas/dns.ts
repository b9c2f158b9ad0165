export const RECORD_TYPES = ['A', 'AAAA', 'MX', 'TXT'] as const;

export const DNS_LIMITS = { timeoutMs: { minimum: 100, maximum: 5000, default: 2000 } } as const;

// Resolver ids are known only once the configuration is read, so the schema is built from them.
export function dnsRequestSchema(resolverIds: readonly string[]) {
  return {
    $id: 'DnsRequest',
    type: 'object',
    additionalProperties: false,
    required: ['domain'],
    properties: {
      domain: {
        type: 'string',
        minLength: 1,
        maxLength: 254,
        format: 'domain',
        description: 'Domain name, 1..253 characters, labels 1..63; trailing dot allowed; IDN converted to ASCII; no IP literals.',
        examples: ['example.com', 'bücher.example'],
      },
      types: {
        type: 'array',
        items: { enum: [...RECORD_TYPES] },
        minItems: 1,
        maxItems: 4,
        uniqueItems: true,
        default: [...RECORD_TYPES],
        description: 'Record types to query.',
      },
      resolvers: {
        type: 'array',
        items: { enum: [...resolverIds] },
        minItems: 1,
        uniqueItems: true,
        description: 'Ids of configured resolvers to ask; all of them when absent.',
      },
      timeoutMs: { type: 'integer', ...DNS_LIMITS.timeoutMs, description: 'Per resolver, per query, retries included, ms.' },
    },
  } as const;
}

const ttl = { type: 'integer', minimum: 0 } as const;
const recordSchemas = {
  A: { type: 'object', required: ['address', 'ttl'], properties: { address: { type: 'string' }, ttl } },
  AAAA: { type: 'object', required: ['address', 'ttl'], properties: { address: { type: 'string', description: 'RFC 5952 form.' }, ttl } },
  MX: { type: 'object', required: ['priority', 'exchange', 'ttl'], properties: { priority: { type: 'integer' }, exchange: { type: 'string' }, ttl } },
  TXT: {
    type: 'object',
    required: ['value', 'parts', 'ttl'],
    properties: { value: { type: 'string' }, parts: { type: 'array', items: { type: 'string' } }, ttl },
  },
  CNAME: { type: 'object', required: ['name', 'target', 'ttl'], properties: { name: { type: 'string' }, target: { type: 'string' }, ttl } },
} as const;

const recordLists = Object.fromEntries(Object.entries(recordSchemas).map(([t, s]) => [t, { type: 'array', items: s }]));

const querySchema = {
  oneOf: [
    {
      type: 'object',
      required: ['rcode', 'rttMs', 'transport', 'answers'],
      properties: {
        rcode: { type: 'string', examples: ['NOERROR', 'NXDOMAIN', 'SERVFAIL', 'REFUSED'] },
        flags: { type: 'array', items: { enum: ['qr', 'aa', 'tc', 'rd', 'ra', 'ad', 'cd'] } },
        rttMs: { type: 'number', minimum: 0 },
        transport: { enum: ['udp', 'tcp'] },
        answers: { type: 'array' },
        cnames: { type: 'array', items: recordSchemas.CNAME, description: 'Alias links followed to reach the answers.' },
      },
    },
    { type: 'object', required: ['error'], properties: { error: { type: 'string', examples: ['timeout'] } } },
  ],
} as const;

export const dnsResolverResultSchema = {
  $id: 'DnsResolverResult',
  type: 'object',
  required: ['id', 'address', 'queries'],
  properties: {
    id: { type: 'string' },
    address: { type: 'string' },
    queries: { type: 'object', additionalProperties: querySchema },
  },
} as const;

export const dnsResultSchema = {
  $id: 'DnsResult',
  type: 'object',
  required: ['domain', 'records', 'consistent', 'resolvers', 'durationMs'],
  properties: {
    domain: { type: 'string' },
    records: { type: 'object', properties: recordLists, description: 'Union over resolvers, de-duplicated; ttl is the smallest seen.' },
    consistent: { type: 'boolean', description: 'False when two resolvers that answered the same type returned different record sets.' },
    resolvers: { type: 'array', items: { $ref: 'DnsResolverResult' } },
    durationMs: { type: 'number', minimum: 0 },
  },
} as const;
