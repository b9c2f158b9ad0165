import type { StreamEventSchemas } from '../tool';
import { pingResultSchema } from './schema';

const result = pingResultSchema.properties;

// A streamed ping's events: what will be measured, then each echo as its outcome is decided.
export const pingStreamEvents: StreamEventSchemas = {
  start: {
    type: 'object',
    description: 'The measurement starts: the resolved address and the settings in force.',
    required: ['host', 'address', 'ipVersion', 'count', 'intervalMs', 'timeoutMs', 'size', 'resolveMs', 'startedAt'],
    properties: {
      host: result.host,
      address: result.address,
      ipVersion: result.ipVersion,
      count: { type: 'integer', description: 'Echo requests to send.' },
      intervalMs: { type: 'integer', description: 'Time between echo requests, ms.' },
      timeoutMs: { type: 'integer', description: 'How long each echo request waits for its reply, ms.' },
      size: { type: 'integer', description: 'Payload bytes per echo request.' },
      resolveMs: result.resolveMs,
      startedAt: result.startedAt,
    },
  },
  items: { reply: { ...result.replies.items, description: 'One echo, as it will stand in the summary\'s `replies`, sent once its outcome is decided.' } },
};
