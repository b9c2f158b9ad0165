import { traceHopSchema } from '../traceroute/schema';
import { asnProperty, asnRequestProperty, hostProperty, ipVersionProperty } from '../target-schema';

export const MTR_LIMITS = {
  cycles: { minimum: 1, maximum: 10, default: 10 },
  intervalMs: { minimum: 200, maximum: 60_000, default: 1000 },
  maxHops: { minimum: 1, maximum: 32, default: 30 },
  timeoutMs: { minimum: 100, maximum: 3000, default: 1000 },
} as const;

export const mtrRequestSchema = {
  $id: 'MtrRequest',
  type: 'object',
  additionalProperties: false,
  required: ['host'],
  properties: {
    host: { ...hostProperty, description: `${hostProperty.description} The target policy applies after resolution, as for ping.` },
    cycles: { type: 'integer', ...MTR_LIMITS.cycles, description: 'Rounds of probes over the whole path. Up to 3600 when the response is streamed (Accept: application/x-ndjson or text/event-stream).', examples: [10] },
    intervalMs: { type: 'integer', ...MTR_LIMITS.intervalMs, description: 'Time from the start of one cycle to the start of the next, ms (a cycle still waiting for a silent hop delays the next until it ends).', examples: [1000] },
    maxHops: { type: 'integer', ...MTR_LIMITS.maxHops, description: 'Highest TTL (hop limit) probed; once the destination answers, later cycles probe no further than its hop.', examples: [30] },
    timeoutMs: { type: 'integer', ...MTR_LIMITS.timeoutMs, description: "How long to wait for each probe's answer, ms.", examples: [1000] },
    ipVersion: ipVersionProperty,
    resolveNames: {
      type: 'boolean',
      default: false,
      description:
        "Ask the configured resolvers for the PTR name of each address that answers at a hop, once, when it is first seen (within timeoutMs, charged to each resolver's query budget). An address without an answer in time, or whose question a budget cannot take, has no name; the mtr is never refused for it.",
    },
    asn: { ...asnRequestProperty, description: `${asnRequestProperty.description} Each address is asked about once, when it is first seen.` },
  },
  examples: [{ host: 'example.com', cycles: 10, intervalMs: 1000 }],
} as const;

// A streamed mtr reports every cycle as it ends, so it may run long (NETTOOLS_STREAM_MAX_SECONDS caps
// the whole run); everything else as above.
export const mtrStreamRequestSchema = {
  ...mtrRequestSchema,
  $id: 'MtrStreamRequest',
  properties: {
    ...mtrRequestSchema.properties,
    cycles: { ...mtrRequestSchema.properties.cycles, maximum: 3600 },
  },
} as const;

const ms = { type: 'number', minimum: 0 } as const;
const msOrNull = (description: string) => ({ oneOf: [{ type: 'null' }, ms], description }) as const;

export const mtrHopSchema = {
  type: 'object',
  required: ['ttl', 'addresses', 'sent', 'received', 'lossPercent', 'lastMs', 'bestMs', 'avgMs', 'worstMs', 'stddevMs', 'jitterMs', 'jitterMaxMs'],
  additionalProperties: false,
  properties: {
    ttl: { type: 'integer', minimum: 1, maximum: 32, description: "The TTL (hop limit) of this hop's probes." },
    addresses: {
      type: 'array',
      description: 'Every address that answered at this hop (at most 8; a hop that load-balances over more counts all its answers in the figures), in the order first seen.',
      items: {
        type: 'object',
        required: ['address', 'count'],
        additionalProperties: false,
        properties: {
          address: { type: 'string', description: 'Who answered: a router (time exceeded, unreachable) or the target.' },
          name: { type: 'string', description: 'Its PTR name, without the final dot (with resolveNames, when a resolver gave one).' },
          asn: asnProperty,
          count: { type: 'integer', minimum: 1, description: "How many of this hop's probes it answered." },
        },
      },
    },
    sent: { type: 'integer', minimum: 0, description: 'Probes sent to this hop (one per cycle that reached it).' },
    received: { type: 'integer', minimum: 0, description: 'Probes answered.' },
    lossPercent: { type: 'number', minimum: 0, maximum: 100, description: 'Share of probes without an answer, in percent.' },
    lastMs: msOrNull('Round trip of the latest answer, ms; null while nothing came back (also for the figures below).'),
    bestMs: msOrNull('Shortest round trip, ms.'),
    avgMs: msOrNull('Mean round trip, ms.'),
    worstMs: msOrNull('Longest round trip, ms.'),
    stddevMs: msOrNull('Sample standard deviation of the round trips, as mtr computes it, ms (0 with one answer).'),
    jitterMs: msOrNull("Mean absolute difference between an answer's round trip and the previous answer's, the first answer counting 0 (mtr's Javg), ms."),
    jitterMaxMs: msOrNull("Largest such difference (mtr's Jmax), ms."),
    icmp: { ...traceHopSchema.properties.probes.items.oneOf[0].properties.icmp, description: "The ICMP message of this hop's latest answer." },
  },
} as const;

export const mtrResultSchema = {
  $id: 'MtrResult',
  type: 'object',
  description: 'An mtr was run, whatever its outcome: a target that never answers is a 200 with destinationReached false.',
  required: ['host', 'address', 'ipVersion', 'destinationReached', 'cycles', 'hops', 'durationMs', 'startedAt'],
  properties: {
    host: { type: 'string', description: 'The host as asked (an IDN in its ASCII form).', examples: ['example.com'] },
    address: { type: 'string', description: 'The address probed.', examples: ['192.0.2.10'] },
    ipVersion: { enum: [4, 6], description: 'Address family of `address`.' },
    destinationReached: { type: 'boolean', description: 'True when the target itself answered in some cycle.' },
    cycles: { type: 'integer', minimum: 0, description: 'Cycles run.' },
    hops: {
      type: 'array',
      items: mtrHopSchema,
      description: "From TTL 1 up to the first TTL answered by the target (or by a router refusing with destination unreachable); without such an answer, up to one past the highest hop that answered (as mtr shows it), at most maxHops.",
    },
    durationMs: { ...ms, description: 'Time for the whole mtr, resolution included, ms.' },
    startedAt: { type: 'string', format: 'date-time', description: 'When the mtr started (UTC).' },
  },
  examples: [
    {
      host: '192.0.2.10',
      address: '192.0.2.10',
      ipVersion: 4,
      destinationReached: true,
      cycles: 3,
      hops: [
        { ttl: 1, addresses: [{ address: '198.51.100.1', count: 3 }], sent: 3, received: 3, lossPercent: 0, lastMs: 0.41, bestMs: 0.398, avgMs: 0.412, worstMs: 0.428, stddevMs: 0.015, jitterMs: 0.013, jitterMaxMs: 0.03, icmp: { type: 11, code: 0, name: 'ttl-exceeded' } },
        { ttl: 2, addresses: [], sent: 3, received: 0, lossPercent: 100, lastMs: null, bestMs: null, avgMs: null, worstMs: null, stddevMs: null, jitterMs: null, jitterMaxMs: null },
        { ttl: 3, addresses: [{ address: '192.0.2.10', count: 2 }], sent: 3, received: 2, lossPercent: 33.333, lastMs: 11.021, bestMs: 10.977, avgMs: 10.999, worstMs: 11.021, stddevMs: 0.031, jitterMs: 0.022, jitterMaxMs: 0.044, icmp: { type: 0, code: 0, name: 'echo-reply' } },
      ],
      durationMs: 2004.2,
      startedAt: '2026-11-22T12:00:00.000Z',
    },
  ],
} as const;
