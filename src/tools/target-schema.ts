// The request fields every measurement tool on the target path takes (target-path.ts): the host, and the
// family a name resolves to. One definition, so ping, traceroute and what comes next describe them alike.
export const hostProperty = {
  type: 'string',
  minLength: 1,
  maxLength: 253,
  format: 'host',
  description: 'Host name (IDN in Unicode is converted to ASCII), IPv4 literal, or IPv6 literal (brackets allowed). No scheme, port, path, spaces or control characters.',
  examples: ['example.com', '192.0.2.10', '[2001:db8::10]'],
} as const;

// Every tool on the target path reports it: in its start event (target-path.ts), and ping in its result.
export const resolveMsProperty = { type: 'number', minimum: 0, description: 'Time spent resolving the host name, ms (near 0 for an IP literal).' } as const;

export const ipVersionProperty = {
  enum: [4, 6],
  description: 'Address family to resolve a host name to; an IP literal decides it itself. Without it: IPv4 first, then IPv6.',
} as const;

// Asking for each hop address's origin AS (traceroute, mtr), and the AS as a hop address carries it.
export const asnRequestProperty = {
  type: 'boolean',
  default: false,
  description:
    "Ask for the origin AS number and prefix of each public hop address: a TXT question under the server's ASN zone (NETTOOLS_ASN_ZONE_V4 / _V6, Team Cymru's by default) to the configured resolvers, charged to their query budgets, within timeoutMs, answers kept for their TTL. Private and special-range addresses are not asked about. An address without an answer in time has no asn; the measurement is never refused for it.",
} as const;

export const asnProperty = {
  type: 'object',
  description: 'The origin AS of the address (with asn, when the ASN zone gave one in time).',
  required: ['number', 'prefix'],
  additionalProperties: false,
  properties: {
    number: { type: 'integer', minimum: 1, maximum: 4294967295, description: 'The origin AS number (the first, when the prefix has several origins).', examples: [64500] },
    prefix: { type: 'string', description: 'The announced prefix the address lies in.', examples: ['192.0.2.0/24'] },
  },
} as const;
