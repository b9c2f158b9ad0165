import { asnProperty, asnRequestProperty, hostProperty, ipVersionProperty } from '../target-schema';

export const TRACEROUTE_LIMITS = {
  maxHops: { minimum: 1, maximum: 32, default: 30 },
  probesPerHop: { minimum: 1, maximum: 3, default: 2 },
  timeoutMs: { minimum: 100, maximum: 3000, default: 1000 },
} as const;

export const tracerouteRequestSchema = {
  $id: 'TracerouteRequest',
  type: 'object',
  additionalProperties: false,
  required: ['host'],
  properties: {
    host: { ...hostProperty, description: `${hostProperty.description} The target policy applies after resolution, as for ping.` },
    maxHops: { type: 'integer', ...TRACEROUTE_LIMITS.maxHops, description: 'Highest TTL (hop limit) probed.', examples: [30] },
    probesPerHop: { type: 'integer', ...TRACEROUTE_LIMITS.probesPerHop, description: 'Probes per TTL.', examples: [2] },
    timeoutMs: { type: 'integer', ...TRACEROUTE_LIMITS.timeoutMs, description: "How long to wait for each probe's answer, ms.", examples: [1000] },
    ipVersion: ipVersionProperty,
    resolveNames: {
      type: 'boolean',
      default: false,
      description:
        "Ask the configured resolvers for the PTR name of each hop's first answering address, as the hop is decided (all hops at once, within timeoutMs, charged to each resolver's query budget). A hop without an answer in time, or whose question a resolver's budget cannot take, has no name; the trace is never refused for it. Streamed hops then come each once its name is in, still in TTL order.",
    },
    asn: { ...asnRequestProperty, description: `${asnRequestProperty.description} Asked about each hop's first answering address, as resolveNames asks its name; streamed hops come once both are in.` },
  },
  examples: [{ host: 'example.com', maxHops: 30, probesPerHop: 2 }],
} as const;

const ms = { type: 'number', minimum: 0 } as const;

const probeSchema = {
  oneOf: [
    {
      type: 'object',
      description: 'An answer to the probe.',
      required: ['address', 'rttMs', 'icmp'],
      additionalProperties: false,
      properties: {
        address: { type: 'string', description: 'Who answered: a router (time exceeded, unreachable) or the target.' },
        rttMs: { ...ms, description: 'Round-trip time, ms with microsecond precision.' },
        icmp: {
          type: 'object',
          description: 'The ICMP message that answered.',
          required: ['type', 'code', 'name'],
          additionalProperties: false,
          properties: {
            type: { type: 'integer', minimum: 0, maximum: 255, description: 'ICMP (IPv4) or ICMPv6 type of the answer: 11 / 3 time exceeded, 3 / 1 unreachable, 0 / 129 echo reply.' },
            code: { type: 'integer', minimum: 0, maximum: 255, description: 'Its ICMP code.' },
            name: { type: 'string', description: 'What type and code mean, e.g. echo-reply, ttl-exceeded, hop-limit-exceeded, admin-prohibited.' },
          },
        },
      },
    },
    {
      type: 'object',
      description: 'No answer within timeoutMs.',
      required: ['status'],
      additionalProperties: false,
      properties: { status: { const: 'timeout', description: 'Nothing came back (or the probe could not be sent).' } },
    },
  ],
} as const;

export const traceHopSchema = {
  type: 'object',
  required: ['ttl', 'probes'],
  properties: {
    ttl: { type: 'integer', minimum: 1, maximum: 32, description: 'The TTL (hop limit) of this hop’s probes.' },
    probes: { type: 'array', items: probeSchema, description: 'One entry per probe, in the order sent.' },
    name: { type: 'string', description: "PTR name of the hop's first answering address, without its final dot (with resolveNames, when a resolver gave one)." },
    asn: { ...asnProperty, description: "The origin AS of the hop's first answering address (with asn, when the ASN zone gave one in time)." },
  },
} as const;

export const tracerouteResultSchema = {
  $id: 'TracerouteResult',
  type: 'object',
  description: 'A trace was made, whatever its outcome: a target that never answers is a 200 with destinationReached false.',
  required: ['host', 'address', 'ipVersion', 'destinationReached', 'hops', 'durationMs', 'startedAt'],
  properties: {
    host: { type: 'string', description: 'The host as asked (an IDN in its ASCII form).', examples: ['example.com'] },
    address: { type: 'string', description: 'The address traced to.', examples: ['192.0.2.10'] },
    ipVersion: { enum: [4, 6], description: 'Address family of `address`.' },
    destinationReached: { type: 'boolean', description: 'True when the target itself answered (echo reply or destination unreachable).' },
    hops: {
      type: 'array',
      items: traceHopSchema,
      description: 'From TTL 1 up to the first TTL answered by the target (or by a router refusing with destination unreachable), or to maxHops.',
    },
    durationMs: { ...ms, description: 'Time for the whole trace, resolution included, ms.' },
    startedAt: { type: 'string', format: 'date-time', description: 'When the trace started (UTC).' },
  },
  examples: [
    {
      host: '192.0.2.10',
      address: '192.0.2.10',
      ipVersion: 4,
      destinationReached: true,
      hops: [
        { ttl: 1, probes: [{ address: '198.51.100.1', rttMs: 0.412, icmp: { type: 11, code: 0, name: 'ttl-exceeded' } }, { address: '198.51.100.1', rttMs: 0.398, icmp: { type: 11, code: 0, name: 'ttl-exceeded' } }] },
        { ttl: 2, probes: [{ status: 'timeout' }, { status: 'timeout' }] },
        { ttl: 3, probes: [{ address: '192.0.2.10', rttMs: 11.021, icmp: { type: 0, code: 0, name: 'echo-reply' } }, { address: '192.0.2.10', rttMs: 10.977, icmp: { type: 0, code: 0, name: 'echo-reply' } }] },
      ],
      durationMs: 1004.2,
      startedAt: '2026-11-22T12:00:00.000Z',
    },
  ],
} as const;
