import { hostProperty, ipVersionProperty, resolveMsProperty } from '../target-schema';

export const PING_LIMITS = {
  count: { minimum: 1, maximum: 10, default: 4 },
  intervalMs: { minimum: 100, maximum: 1000, default: 200 },
  timeoutMs: { minimum: 100, maximum: 5000, default: 1000 },
  size: { minimum: 0, maximum: 1400, default: 56 },
} as const;

export const pingRequestSchema = {
  $id: 'PingRequest',
  type: 'object',
  additionalProperties: false,
  required: ['host'],
  properties: {
    host: hostProperty,
    count: { type: 'integer', ...PING_LIMITS.count, description: 'Echo requests to send. Up to 3600 when the response is streamed (Accept: application/x-ndjson or text/event-stream).', examples: [4] },
    intervalMs: { type: 'integer', ...PING_LIMITS.intervalMs, description: 'Gap between sends, ms. Up to 60000 when the response is streamed.', examples: [200] },
    timeoutMs: { type: 'integer', ...PING_LIMITS.timeoutMs, description: 'How long to wait for each reply, ms.', examples: [1000] },
    ipVersion: ipVersionProperty,
    size: { type: 'integer', ...PING_LIMITS.size, description: 'Payload bytes per echo request.' },
  },
  examples: [{ host: 'example.com', count: 4 }],
} as const;

// A streamed ping shows each echo as it comes back, so it may run long: wider bounds on count and
// intervalMs (NETTOOLS_STREAM_MAX_SECONDS caps the whole run), everything else as above.
export const PING_STREAM_LIMITS = {
  count: { ...PING_LIMITS.count, maximum: 3600 },
  intervalMs: { ...PING_LIMITS.intervalMs, maximum: 60_000 },
} as const;

export const pingStreamRequestSchema = {
  ...pingRequestSchema,
  $id: 'PingStreamRequest',
  properties: {
    ...pingRequestSchema.properties,
    count: { ...pingRequestSchema.properties.count, ...PING_STREAM_LIMITS.count },
    intervalMs: { ...pingRequestSchema.properties.intervalMs, ...PING_STREAM_LIMITS.intervalMs },
  },
} as const;

const ms = { type: 'number', minimum: 0 } as const;
const rttMs = { ...ms, description: 'Round-trip time, ms with microsecond precision.' } as const;

export const pingResultSchema = {
  $id: 'PingResult',
  type: 'object',
  description: 'A measurement was made, whatever its outcome: an unreachable host is a 200 with reachable false.',
  required: ['host', 'address', 'ipVersion', 'reachable', 'packets', 'rtt', 'replies', 'resolveMs', 'durationMs', 'startedAt'],
  properties: {
    host: { type: 'string', description: 'The host as asked (an IDN in its ASCII form).', examples: ['example.com'] },
    address: { type: 'string', description: 'The address that was pinged.', examples: ['192.0.2.10'] },
    ipVersion: { enum: [4, 6], description: 'Address family of `address`.' },
    reachable: { type: 'boolean', description: 'True when at least one reply came back.' },
    packets: {
      type: 'object',
      description: 'Echo requests sent and replies received.',
      required: ['sent', 'received', 'duplicates', 'lossPercent'],
      properties: {
        sent: { type: 'integer', minimum: 0, description: 'Echo requests sent.' },
        received: { type: 'integer', minimum: 0, description: 'Echo requests answered (a duplicate counts once).' },
        duplicates: { type: 'integer', minimum: 0, description: 'Replies that came back more than once for one request.' },
        lossPercent: { type: 'number', minimum: 0, maximum: 100, description: 'Share of requests without a reply, in percent.' },
      },
    },
    rtt: {
      description: 'Null when nothing came back. stddevMs is iputils mdev; jitterMs the mean absolute difference of consecutive RTTs.',
      oneOf: [
        { type: 'null' },
        {
          type: 'object',
          required: ['minMs', 'avgMs', 'maxMs', 'stddevMs', 'jitterMs'],
          properties: {
            minMs: { ...ms, description: 'Shortest round trip, ms.' },
            avgMs: { ...ms, description: 'Mean round trip, ms.' },
            maxMs: { ...ms, description: 'Longest round trip, ms.' },
            stddevMs: { ...ms, description: 'Spread of the round trips as iputils computes mdev, ms.' },
            jitterMs: { ...ms, description: 'Mean absolute difference between consecutive round trips, ms (0 with fewer than two).' },
          },
        },
      ],
    },
    replies: {
      type: 'array',
      description: 'One entry per echo request, in the order sent.',
      items: {
        type: 'object',
        required: ['seq', 'status'],
        properties: {
          seq: { type: 'integer', minimum: 0, description: 'Sequence number of the echo request, from 0.' },
          status: {
            enum: ['reply', 'timeout', 'unreachable', 'time-exceeded'],
            description: 'reply: the target answered; timeout: nothing within timeoutMs; unreachable or time-exceeded: a router sent that ICMP error instead.',
          },
          rttMs,
          ttl: { type: 'integer', minimum: 0, maximum: 255, description: "The reply's TTL (IPv4) or hop limit (IPv6)." },
          bytes: { type: 'integer', minimum: 0, description: 'Size of the ICMP reply: 8 header bytes plus the payload.' },
          from: { type: 'string', description: 'Who sent an ICMP error.' },
          reason: { type: 'string', description: 'ICMP error code, e.g. host-unreachable.' },
        },
      },
    },
    resolveMs: resolveMsProperty,
    durationMs: { ...ms, description: 'Time for the whole measurement, resolution included, ms.' },
    startedAt: { type: 'string', format: 'date-time', description: 'When the measurement started (UTC).' },
  },
  examples: [
    {
      host: 'example.com',
      address: '192.0.2.10',
      ipVersion: 4,
      reachable: true,
      packets: { sent: 3, received: 2, duplicates: 0, lossPercent: 33.333 },
      rtt: { minMs: 11.021, avgMs: 11.534, maxMs: 12.047, stddevMs: 0.513, jitterMs: 1.026 },
      replies: [
        { seq: 0, status: 'reply', rttMs: 11.021, ttl: 57, bytes: 64 },
        { seq: 1, status: 'timeout' },
        { seq: 2, status: 'reply', rttMs: 12.047, ttl: 57, bytes: 64 },
      ],
      resolveMs: 4.2,
      durationMs: 1420.9,
      startedAt: '2026-11-22T12:00:00.000Z',
    },
  ],
} as const;
