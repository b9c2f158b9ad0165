import { hostProperty, ipVersionProperty, resolveMsProperty } from '../target-schema';

export const TCP_LIMITS = {
  port: { minimum: 1, maximum: 65535 },
  count: { minimum: 1, maximum: 10, default: 4 },
  intervalMs: { minimum: 200, maximum: 1000, default: 1000 },
  timeoutMs: { minimum: 100, maximum: 10_000, default: 2000 },
} as const;

export const tcpRequestSchema = {
  $id: 'TcpRequest',
  type: 'object',
  additionalProperties: false,
  required: ['host', 'port'],
  properties: {
    host: hostProperty,
    port: {
      type: 'integer',
      ...TCP_LIMITS.port,
      description: 'The port to connect to. 80, 443 and 1024..65535 are allowed; any other port below 1024 is refused (422 target-forbidden, range "port") unless the operator lists it in NETTOOLS_CHECK_PORTS.',
      examples: [443],
    },
    count: { type: 'integer', ...TCP_LIMITS.count, description: 'Connection attempts. Up to 3600 when the response is streamed (Accept: application/x-ndjson or text/event-stream).', examples: [4] },
    intervalMs: { type: 'integer', ...TCP_LIMITS.intervalMs, description: 'Time between attempt starts, ms (an attempt never starts before the previous one ended). Up to 60000 when the response is streamed.', examples: [1000] },
    timeoutMs: { type: 'integer', ...TCP_LIMITS.timeoutMs, description: 'How long one attempt may take to be established, ms.', examples: [2000] },
    ipVersion: ipVersionProperty,
  },
  examples: [{ host: 'example.com', port: 443, count: 4 }],
} as const;

// A streamed check shows each attempt as it ends, so it may run long (NETTOOLS_STREAM_MAX_SECONDS caps it).
export const TCP_STREAM_LIMITS = {
  count: { ...TCP_LIMITS.count, maximum: 3600 },
  intervalMs: { ...TCP_LIMITS.intervalMs, maximum: 60_000 },
} as const;

export const tcpStreamRequestSchema = {
  ...tcpRequestSchema,
  $id: 'TcpStreamRequest',
  properties: {
    ...tcpRequestSchema.properties,
    count: { ...tcpRequestSchema.properties.count, ...TCP_STREAM_LIMITS.count },
    intervalMs: { ...tcpRequestSchema.properties.intervalMs, ...TCP_STREAM_LIMITS.intervalMs },
  },
} as const;

const ms = { type: 'number', minimum: 0 } as const;

export const tcpAttemptSchema = {
  type: 'object',
  required: ['seq', 'status'],
  properties: {
    seq: { type: 'integer', minimum: 0, description: 'The attempt, from 0.' },
    status: {
      enum: ['connected', 'refused', 'timeout', 'unreachable', 'error'],
      description: 'connected: the handshake completed (and the connection was closed at once, no byte sent); refused: a RST answered; unreachable: an ICMP destination unreachable came back, or there is no route; timeout: nothing within timeoutMs; error: any other socket error, named in errno.',
    },
    connectMs: { ...ms, description: 'Only when connected: from the SYN leaving (the non-blocking connect() call) to the socket reporting the connection established, ms with microsecond precision.' },
    errno: { type: 'string', description: "refused, unreachable and error: the socket's error as the kernel named it, e.g. ECONNREFUSED, EHOSTUNREACH, ENETUNREACH.", examples: ['ECONNREFUSED'] },
  },
} as const;

export const tcpResultSchema = {
  $id: 'TcpResult',
  type: 'object',
  description: 'The attempts were made, whatever their outcome: a closed port is a 200 with connected false.',
  required: ['host', 'address', 'ipVersion', 'port', 'connected', 'attempts', 'connectMs', 'results', 'resolveMs', 'durationMs', 'startedAt'],
  properties: {
    host: { type: 'string', description: 'The host as asked (an IDN in its ASCII form).', examples: ['example.com'] },
    address: { type: 'string', description: 'The address connected to.', examples: ['192.0.2.10'] },
    ipVersion: { enum: [4, 6], description: 'Address family of `address`.' },
    port: { type: 'integer', minimum: 1, maximum: 65535, description: 'The port connected to.' },
    connected: { type: 'boolean', description: 'True when at least one attempt connected.' },
    attempts: {
      type: 'object',
      description: 'Attempts made and attempts that connected.',
      required: ['sent', 'connected', 'lossPercent'],
      properties: {
        sent: { type: 'integer', minimum: 0, description: 'Attempts made.' },
        connected: { type: 'integer', minimum: 0, description: 'Attempts that connected.' },
        lossPercent: { type: 'number', minimum: 0, maximum: 100, description: 'Share of attempts that did not connect, in percent.' },
      },
    },
    connectMs: {
      description: 'Null when no attempt connected. Over the attempts that did: stddev is the population standard deviation (as ping\'s mdev).',
      oneOf: [
        { type: 'null' },
        {
          type: 'object',
          required: ['min', 'avg', 'max', 'stddev'],
          properties: {
            min: { ...ms, description: 'Shortest connect time, ms.' },
            avg: { ...ms, description: 'Mean connect time, ms.' },
            max: { ...ms, description: 'Longest connect time, ms.' },
            stddev: { ...ms, description: 'Population standard deviation of the connect times, ms.' },
          },
        },
      ],
    },
    results: { type: 'array', description: 'One entry per attempt, in order.', items: tcpAttemptSchema },
    resolveMs: resolveMsProperty,
    durationMs: { ...ms, description: 'Time for the whole check, resolution included, ms.' },
    startedAt: { type: 'string', format: 'date-time', description: 'When the check started (UTC).' },
  },
  examples: [
    {
      host: 'example.com',
      address: '192.0.2.10',
      ipVersion: 4,
      port: 443,
      connected: true,
      attempts: { sent: 3, connected: 2, lossPercent: 33.333 },
      connectMs: { min: 11.021, avg: 11.534, max: 12.047, stddev: 0.513 },
      results: [
        { seq: 0, status: 'connected', connectMs: 11.021 },
        { seq: 1, status: 'timeout' },
        { seq: 2, status: 'connected', connectMs: 12.047 },
      ],
      resolveMs: 4.2,
      durationMs: 2014.9,
      startedAt: '2026-11-22T12:00:00.000Z',
    },
  ],
} as const;
