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
    host: {
      type: 'string',
      minLength: 1,
      maxLength: 253,
      format: 'host',
      description:
        'Host name (IDN in Unicode is converted to ASCII), IPv4 literal, or IPv6 literal (brackets allowed). No scheme, port, path, spaces or control characters.',
      examples: ['example.com', '192.0.2.10', '[2001:db8::10]'],
    },
    count: { type: 'integer', ...PING_LIMITS.count, description: 'Echo requests to send.' },
    intervalMs: { type: 'integer', ...PING_LIMITS.intervalMs, description: 'Gap between sends, ms.' },
    timeoutMs: { type: 'integer', ...PING_LIMITS.timeoutMs, description: 'How long to wait for each reply, ms.' },
    ipVersion: {
      enum: [4, 6],
      description: 'Address family to resolve a host name to; an IP literal decides it itself. Without it: IPv4 first, then IPv6.',
    },
    size: { type: 'integer', ...PING_LIMITS.size, description: 'Payload bytes per echo request.' },
  },
} as const;

const ms = { type: 'number', minimum: 0, description: 'Milliseconds with microsecond precision.' } as const;

export const pingResultSchema = {
  $id: 'PingResult',
  type: 'object',
  required: ['host', 'address', 'ipVersion', 'reachable', 'packets', 'rtt', 'replies', 'resolveMs', 'durationMs', 'startedAt'],
  properties: {
    host: { type: 'string' },
    address: { type: 'string', description: 'The address that was pinged.' },
    ipVersion: { enum: [4, 6] },
    reachable: { type: 'boolean', description: 'True when at least one reply came back.' },
    packets: {
      type: 'object',
      required: ['sent', 'received', 'duplicates', 'lossPercent'],
      properties: {
        sent: { type: 'integer', minimum: 0 },
        received: { type: 'integer', minimum: 0 },
        duplicates: { type: 'integer', minimum: 0 },
        lossPercent: { type: 'number', minimum: 0, maximum: 100 },
      },
    },
    rtt: {
      description: 'Null when nothing came back. stddevMs is iputils mdev; jitterMs the mean absolute difference of consecutive RTTs.',
      oneOf: [
        { type: 'null' },
        {
          type: 'object',
          required: ['minMs', 'avgMs', 'maxMs', 'stddevMs', 'jitterMs'],
          properties: { minMs: ms, avgMs: ms, maxMs: ms, stddevMs: ms, jitterMs: ms },
        },
      ],
    },
    replies: {
      type: 'array',
      items: {
        type: 'object',
        required: ['seq', 'status'],
        properties: {
          seq: { type: 'integer', minimum: 0 },
          status: { enum: ['reply', 'timeout', 'unreachable', 'time-exceeded'] },
          rttMs: ms,
          ttl: { type: 'integer', minimum: 0, maximum: 255 },
          bytes: { type: 'integer', minimum: 0 },
          from: { type: 'string', description: 'Who sent an ICMP error.' },
          reason: { type: 'string', description: 'ICMP error code, e.g. host-unreachable.' },
        },
      },
    },
    resolveMs: ms,
    durationMs: ms,
    startedAt: { type: 'string', format: 'date-time' },
  },
} as const;
