// The shape of one record of each type, as `records` and each query's `answers` show it.

const ttl = { type: 'integer', minimum: 0, description: 'Seconds the record may be cached.' } as const;
const name = (what: string) => ({ type: 'string', description: `${what}: a name in presentation form, case as sent, without a trailing dot (the root is ".").` }) as const;
const u8 = (description: string) => ({ type: 'integer', minimum: 0, maximum: 255, description }) as const;
const u16 = (description: string) => ({ type: 'integer', minimum: 0, maximum: 65535, description }) as const;
const u32 = (description: string) => ({ type: 'integer', minimum: 0, maximum: 4294967295, description }) as const;
const strings = (description: string) => ({ type: 'array', items: { type: 'string' }, description }) as const;

const validated = { const: true, description: 'Only in `records`, only when the request asked for `dnssec`: every resolver that validated (set AD on any answer of this request) set AD on its answer of this type.' } as const;

function record<P extends Record<string, unknown>>(properties: P, description?: string) {
  return { type: 'object', required: [...Object.keys(properties), 'ttl'], properties: { ...properties, ttl, validated }, ...(description ? { description } : {}) } as const;
}

// An RRSIG beside a DNSSEC answer (RFC 4034 section 3.1).
export const rrsigSchema = {
  type: 'object',
  required: ['typeCovered', 'algorithm', 'labels', 'originalTtl', 'expiration', 'inception', 'keyTag', 'signerName', 'signature', 'ttl'],
  properties: {
    typeCovered: { type: 'string', description: 'The type the signature covers (its mnemonic; an unnamed one as TYPE<n>).', examples: ['A'] },
    algorithm: u8('DNSSEC algorithm number.'),
    labels: u8('Labels of the owner name, the root and a leading wildcard not counted.'),
    originalTtl: u32('TTL of the covered records as the zone has it.'),
    expiration: { type: 'string', format: 'date-time', description: 'Signature expiration, UTC (the 32-bit wire time read as the date nearest now).' },
    inception: { type: 'string', format: 'date-time', description: 'Signature inception, UTC.' },
    keyTag: u16('Key tag of the DNSKEY that made it.'),
    signerName: name("The signing zone's name"),
    signature: { type: 'string', description: 'The signature, base64.' },
    ttl,
  },
} as const;

const svcParams = {
  type: 'object',
  description: 'SvcParams (RFC 9460) by name; a key without a name as `key<N>`, its value in hex.',
  properties: {
    mandatory: strings('Keys a client must understand to use the record, by name.'),
    alpn: strings('ALPN protocol ids, in order.'),
    'no-default-alpn': { const: true, description: 'Present when the default ALPN is not offered.' },
    port: u16('Port of the alternative endpoint.'),
    ipv4hint: strings('IPv4 address hints.'),
    ech: { type: 'string', description: 'ECHConfigList, base64.' },
    ipv6hint: strings('IPv6 address hints, RFC 5952 form.'),
  },
  patternProperties: { '^key[0-9]+$': { type: 'string', description: 'An unnamed key\'s value, hex.' } },
  additionalProperties: false,
} as const;

const svcb = record({
  priority: u16('SvcPriority: 0 is alias mode, otherwise lower is preferred.'),
  target: name('TargetName'),
  params: svcParams,
});

export const recordSchemas = {
  A: record({ address: { type: 'string', description: 'IPv4 address.' } }),
  AAAA: record({ address: { type: 'string', description: 'IPv6 address in RFC 5952 form.' } }),
  MX: record({ priority: { type: 'integer', description: 'Preference: lower is tried first.' }, exchange: { type: 'string', description: 'Mail server name, without a trailing dot.' } }),
  TXT: record({
    value: { type: 'string', description: 'The character strings of the record joined without a separator.' },
    parts: strings('The character strings of the record as sent (each at most 255 bytes).'),
  }),
  CNAME: record({ name: { type: 'string', description: 'The alias.' }, target: { type: 'string', description: 'The name it points to.' } }),
  NS: record({ name: name('Name server') }),
  PTR: record({ name: { type: 'string', description: 'The name the address points to, without a trailing dot.' } }),
  SOA: record({
    mname: name('Primary name server'),
    rname: name("Responsible person's mailbox, as a name"),
    serial: u32('Zone serial.'),
    refresh: u32('Seconds between secondaries\' refreshes.'),
    retry: u32('Seconds before a failed refresh is retried.'),
    expire: u32('Seconds after which a secondary stops answering without a refresh.'),
    minimum: u32('Negative-caching TTL, seconds.'),
  }),
  CAA: record({ flags: u8('Flags; 128 is issuer-critical.'), tag: { type: 'string', description: 'Property tag: issue, issuewild, iodef, ...' }, value: { type: 'string', description: 'Property value.' } }),
  SRV: record({ priority: u16('Lower is tried first.'), weight: u16('Share among equal priorities.'), port: u16('Service port.'), target: name('Host offering the service') }),
  NAPTR: record({
    order: u16('Lower is processed first.'),
    preference: u16('Among equal orders, lower is preferred.'),
    flags: { type: 'string', description: 'Flags, as sent.' },
    services: { type: 'string', description: 'Service parameters, as sent.' },
    regexp: { type: 'string', description: 'Substitution expression, as sent.' },
    replacement: name('Replacement'),
  }),
  DS: record({ keyTag: u16('Key tag of the DNSKEY it refers to.'), algorithm: u8('DNSSEC algorithm number.'), digestType: u8('Digest algorithm number.'), digest: { type: 'string', description: 'Digest, lower-case hex.' } }),
  DNSKEY: record({ flags: u16('Flags; 256 zone key, 257 with the secure entry point (KSK).'), protocol: u8('Always 3.'), algorithm: u8('DNSSEC algorithm number.'), publicKey: { type: 'string', description: 'Public key, base64.' } }),
  TLSA: record({ usage: u8('Certificate usage.'), selector: u8('0 full certificate, 1 SubjectPublicKeyInfo.'), matchingType: u8('0 exact, 1 SHA-256, 2 SHA-512.'), data: { type: 'string', description: 'Certificate association data, lower-case hex.' } }),
  HTTPS: svcb,
  SVCB: svcb,
} as const;
