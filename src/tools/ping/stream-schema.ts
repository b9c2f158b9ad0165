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
  items: { reply: { ...result.replies.items, description: 'One echo, as it stands in a JSON body\'s `replies`, sent once its outcome is decided.' } },
  summary: {
    type: 'object',
    description:
      'The JSON 200 body; but a ping of more than 10 echoes (longer than JSON allows) ends with its statistics alone, without `replies`: each reply was streamed already, and a stream keeps none of them, so what it holds does not grow with its length. Its statistics are computed over every echo, in seq order, as for a JSON ping.',
    required: pingResultSchema.required.filter((name) => name !== 'replies'),
    properties: { ...result, replies: { ...result.replies, description: 'Only for a ping of at most 10 echoes: one entry per echo request, in the order sent.' } },
  },
};
