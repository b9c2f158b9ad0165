import type { StreamEventSchemas } from '../tool';
import { tcpResultSchema } from './schema';

const result = tcpResultSchema.properties;

// A streamed check's events: what will be measured, then each attempt as it ends.
export const tcpStreamEvents: StreamEventSchemas = {
  start: {
    type: 'object',
    description: 'The check starts: the resolved address and the settings in force.',
    required: ['host', 'address', 'ipVersion', 'port', 'count', 'intervalMs', 'timeoutMs', 'resolveMs', 'startedAt'],
    properties: {
      host: result.host,
      address: result.address,
      ipVersion: result.ipVersion,
      port: result.port,
      count: { type: 'integer', description: 'Connection attempts to make.' },
      intervalMs: { type: 'integer', description: 'Time between attempt starts, ms.' },
      timeoutMs: { type: 'integer', description: 'How long each attempt may take, ms.' },
      resolveMs: result.resolveMs,
      startedAt: result.startedAt,
    },
  },
  items: { attempt: { ...result.results.items, description: "One attempt, as it stands in a JSON body's `results`, sent as it ends." } },
  summary: {
    type: 'object',
    description: 'The JSON 200 body; but a check of more than 10 attempts ends with its statistics alone, without `results` (each attempt was streamed already).',
    required: tcpResultSchema.required.filter((name) => name !== 'results'),
    properties: { ...result, results: { ...result.results, description: 'Only for a check of at most 10 attempts: one entry per attempt, in order.' } },
  },
};
