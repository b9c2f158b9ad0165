import { RECORD_TYPES } from '../../engines/dns/types';
import { TYPE_OUTCOMES } from '../resolver-verdict';
import { recordSchemas, rrsigSchema } from './record-schemas';

// What a request without `types` asks.
export const DEFAULT_TYPES = ['A', 'AAAA', 'MX', 'TXT'] as const;
export const MAX_TYPES = 8;

export const DNS_LIMITS = { timeoutMs: { minimum: 100, maximum: 5000, default: 2000 } } as const;
// RFC 7871 section 11.1: a client subnet longer than these gives away more than a resolver needs.
export const CLIENT_SUBNET_MAX_PREFIX = { 4: 24, 6: 56 } as const;

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
        description:
          'Domain name, 1..253 characters, labels 1..63; trailing dot allowed; IDN converted to ASCII. Or an IPv4 or IPv6 literal (brackets allowed): its reverse name (in-addr.arpa, ip6.arpa) is asked instead, PTR alone unless `types` says otherwise.',
        examples: ['example.com', 'bücher.example', '192.0.2.10'],
      },
      types: {
        type: 'array',
        items: { type: 'string', enum: [...RECORD_TYPES] },
        minItems: 1,
        maxItems: MAX_TYPES,
        uniqueItems: true,
        description: 'Record types to query, 1..8 of them; each answer is shaped per type (see `records`). Default: A, AAAA, MX, TXT for a name; PTR for an IP literal.',
      },
      resolvers: {
        type: 'array',
        items: { type: 'string', enum: [...resolverIds] },
        minItems: 1,
        uniqueItems: true,
        description: 'Ids of configured resolvers to ask; all of them when absent.',
      },
      dnssec: { type: 'boolean', default: false, description: 'Sets the DO bit: each answer reports its RRSIGs (`rrsigs`) and the AD flag in `flags`; `records` marks each record `validated` when every validating resolver set AD.' },
      clientSubnet: {
        type: 'string',
        minLength: 2,
        maxLength: 50,
        description: 'An EDNS Client Subnet (RFC 7871) to send: an IPv4 prefix of at most /24 or an IPv6 prefix of at most /56, host bits zero. Each answer then reports `clientSubnet`.',
        examples: ['203.0.113.0/24', '2001:db8:1200::/40'],
      },
      timeoutMs: { type: 'integer', ...DNS_LIMITS.timeoutMs, description: "Per resolver, per query, retries included, ms. A question already in flight for another request is shared, and its answer used if it comes within this request's own timeout.", examples: [2000] },
    },
    examples: [{ domain: 'example.com', types: ['A', 'AAAA'] }],
  } as const;
}

const recordLists = Object.fromEntries(
  Object.entries(recordSchemas).map(([t, s]) => [t, { type: 'array', items: s, description: `${t} records${t === 'CNAME' ? ' asked for, and those followed on the way to the answers' : ''}.` }]),
);

export const querySchema = {
  description: "One query's outcome: the resolver's answer, whatever its rcode, or why none came.",
  oneOf: [
    {
      type: 'object',
      required: ['rcode', 'rttMs', 'transport', 'answers'],
      properties: {
        rcode: { type: 'string', description: 'DNS response code; NXDOMAIN and SERVFAIL are answers, not errors.', examples: ['NOERROR', 'NXDOMAIN', 'SERVFAIL', 'REFUSED'] },
        flags: { type: 'array', items: { enum: ['qr', 'aa', 'tc', 'rd', 'ra', 'ad', 'cd'] }, description: 'Header flags set in the answer.' },
        rttMs: { type: 'number', minimum: 0, description: "From the first send to the answer, ms (a resend or a retry over TCP included). A question shared with other requests in flight reports the shared query's." },
        transport: { enum: ['udp', 'tcp', 'tls'], description: 'tcp when the UDP answer was truncated and the query went again over TCP; tls for a DoT resolver (RFC 7858), whose answers all come over its TLS connection.' },
        answers: { type: 'array', description: 'Records of the asked type, shaped as in `records`.' },
        cnames: { type: 'array', items: recordSchemas.CNAME, description: 'Alias links followed to reach the answers.' },
        rrsigs: { type: 'array', items: rrsigSchema, description: 'Only when the request asked for `dnssec`: every RRSIG of the answer section, in wire order.' },
        ede: {
          type: 'array',
          maxItems: 8,
          description: 'Only when the answer carried them: its Extended DNS Errors (RFC 8914), at most 8, in wire order.',
          items: {
            type: 'object',
            required: ['code', 'name'],
            properties: {
              code: { type: 'integer', minimum: 0, maximum: 65535, description: 'INFO-CODE.', examples: [6] },
              name: { type: 'string', description: 'Its name in the RFC 8914 registry (codes 0-29), or "unknown".', examples: ['DNSSEC Bogus'] },
              text: { type: 'string', maxLength: 512, description: "EXTRA-TEXT, at most 512 bytes of it, invalid UTF-8 replaced by U+FFFD; absent when empty." },
            },
          },
        },
        clientSubnet: {
          description: 'Only when the request sent `clientSubnet`: the ECS option of the answer, or `ignored` when it carried none.',
          oneOf: [
            { type: 'object', required: ['sourcePrefix', 'scopePrefix'], properties: { sourcePrefix: { type: 'integer', minimum: 0, maximum: 255, description: 'SOURCE PREFIX-LENGTH the answer echoed.' }, scopePrefix: { type: 'integer', minimum: 0, maximum: 255, description: 'SCOPE PREFIX-LENGTH: how much of the subnet the answer depends on (0: none).' } } },
            { type: 'object', required: ['ignored'], properties: { ignored: { const: true, description: 'The answer carried no ECS option.' } } },
          ],
        },
      },
    },
    {
      type: 'object',
      required: ['error'],
      properties: {
        error: {
          type: 'string',
          description: "Why no answer: timeout, connection-refused, connection-closed, network-error, malformed or cancelled; from a DoT resolver also tls-certificate-invalid (its certificate is not valid for the configured name, or chains to no trusted anchor), tls-handshake-failed or tls-unavailable (the trust anchors could not be loaded).",
          examples: ['timeout', 'tls-certificate-invalid'],
        },
        detail: { type: 'string', description: "More about the error, when there is more to say: for tls-certificate-invalid the verifier's reason (e.g. \"hostname mismatch\"), for tls-handshake-failed OpenSSL's.", examples: ['hostname mismatch'] },
      },
    },
  ],
} as const;

export const dnsResolverResultSchema = {
  $id: 'DnsResolverResult',
  type: 'object',
  description: 'What one resolver answered, per record type.',
  required: ['id', 'address', 'queries'],
  properties: {
    id: { type: 'string', description: "The resolver's id in the server's configuration.", examples: ['quad9'] },
    address: { type: 'string', description: "The resolver's address.", examples: ['9.9.9.9'] },
    queries: { type: 'object', additionalProperties: querySchema, description: 'One entry per requested record type.' },
  },
} as const;

export const dnsResultSchema = {
  $id: 'DnsResult',
  type: 'object',
  description: 'At least one resolver answered (NOERROR or NXDOMAIN) at least one query.',
  required: ['domain', 'records', 'consistent', 'outcomes', 'resolvers', 'durationMs'],
  properties: {
    domain: { type: 'string', description: 'The domain as asked, in ASCII form, without a trailing dot; or the IP literal as asked, bare and lowercase.', examples: ['example.com'] },
    reverseName: { type: 'string', description: 'Only when `domain` is an IP literal: the name asked in its place, in in-addr.arpa or ip6.arpa.', examples: ['10.2.0.192.in-addr.arpa'] },
    records: { type: 'object', properties: recordLists, description: 'Union over resolvers, de-duplicated; ttl is the smallest seen. Only requested types appear.' },
    consistent: {
      type: 'boolean',
      description:
        'False when two resolvers that answered the same type (NOERROR or NXDOMAIN) said different things: other record sets, or NXDOMAIN against NOERROR. Resolvers that failed (REFUSED, SERVFAIL, timeout, ...) count for nothing.',
    },
    outcomes: {
      type: 'object',
      description:
        'Per requested type, what the resolvers that answered it said: records (some answered with records), nxdomain (every one said the name does not exist), no-data (the name exists without this type), upstream-failed (none answered this type: retry later).',
      properties: Object.fromEntries(RECORD_TYPES.map((t) => [t, { enum: [...TYPE_OUTCOMES], description: `What the resolvers said of ${t}.` }])),
      additionalProperties: false,
    },
    resolvers: { type: 'array', items: { $ref: 'DnsResolverResult' }, description: 'Each asked resolver and its answers.' },
    durationMs: { type: 'number', minimum: 0, description: 'Time for the whole request, every resolver included, ms.' },
  },
  examples: [
    {
      domain: 'example.com',
      records: { A: [{ address: '192.0.2.10', ttl: 300 }], AAAA: [{ address: '2001:db8::10', ttl: 300 }] },
      consistent: true,
      outcomes: { A: 'records', AAAA: 'records' },
      resolvers: [
        {
          id: 'quad9',
          address: '9.9.9.9',
          queries: {
            A: { rcode: 'NOERROR', flags: ['qr', 'rd', 'ra'], rttMs: 11.2, transport: 'udp', answers: [{ address: '192.0.2.10', ttl: 300 }] },
            AAAA: { rcode: 'NOERROR', flags: ['qr', 'rd', 'ra'], rttMs: 10.9, transport: 'udp', answers: [{ address: '2001:db8::10', ttl: 300 }] },
          },
        },
      ],
      durationMs: 11.6,
    },
  ],
} as const;
