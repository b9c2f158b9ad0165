import type { StreamEventSchemas } from '../tool';
import { tlsResultSchema } from './schema';

const result = tlsResultSchema.properties;

// A streamed check is one handshake: its start (the address resolved and admitted), then its summary.
export const tlsStreamEvents: StreamEventSchemas = {
  start: {
    type: 'object',
    description: 'The check starts: the resolved address and the settings in force.',
    required: ['host', 'address', 'ipVersion', 'port', 'timeoutMs', 'resolveMs', 'startedAt'],
    properties: {
      host: result.host,
      address: result.address,
      ipVersion: result.ipVersion,
      port: result.port,
      timeoutMs: { type: 'integer', description: 'For the connection and the handshake together, ms.' },
      resolveMs: result.timings.properties.resolveMs,
      startedAt: result.startedAt,
    },
  },
  items: {},
};
