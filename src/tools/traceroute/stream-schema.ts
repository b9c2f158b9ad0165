import type { StreamEventSchemas } from '../tool';
import { resolveMsProperty } from '../target-schema';
import { traceHopSchema, tracerouteRequestSchema, tracerouteResultSchema } from './schema';

const result = tracerouteResultSchema.properties;
const request = tracerouteRequestSchema.properties;

// A streamed trace's events: what will be traced, then each hop in TTL order once all its probes are decided.
export const tracerouteStreamEvents: StreamEventSchemas = {
  start: {
    type: 'object',
    description: 'The trace starts: the resolved address and the settings in force.',
    required: ['host', 'address', 'ipVersion', 'maxHops', 'probesPerHop', 'timeoutMs', 'resolveMs', 'startedAt'],
    properties: {
      host: result.host,
      address: result.address,
      ipVersion: result.ipVersion,
      maxHops: request.maxHops,
      probesPerHop: request.probesPerHop,
      timeoutMs: request.timeoutMs,
      resolveMs: resolveMsProperty,
      startedAt: result.startedAt,
    },
  },
  items: { hop: { ...traceHopSchema, description: "One hop, as it will stand in the summary's `hops`, sent in TTL order once it and every lower hop are decided." } },
};
