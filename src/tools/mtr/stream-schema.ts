import { resolveMsProperty } from '../target-schema';
import type { StreamEventSchemas } from '../tool';
import { mtrHopSchema, mtrRequestSchema, mtrResultSchema } from './schema';

const result = mtrResultSchema.properties;
const request = mtrRequestSchema.properties;

// A streamed mtr's events: what will be probed, then after each cycle every hop's figures so far.
export const mtrStreamEvents: StreamEventSchemas = {
  start: {
    type: 'object',
    description: 'The mtr starts: the resolved address and the settings in force.',
    required: ['host', 'address', 'ipVersion', 'cycles', 'intervalMs', 'maxHops', 'timeoutMs', 'resolveMs', 'startedAt'],
    properties: {
      host: result.host,
      address: result.address,
      ipVersion: result.ipVersion,
      cycles: { type: 'integer', description: 'Cycles to run.' },
      intervalMs: request.intervalMs,
      maxHops: request.maxHops,
      timeoutMs: request.timeoutMs,
      resolveMs: resolveMsProperty,
      startedAt: result.startedAt,
    },
  },
  items: {
    cycle: {
      type: 'object',
      description: "Sent as each cycle ends: every hop's figures over the cycles so far, as the summary's `hops` will show them (names and AS numbers that are already in).",
      required: ['cycle', 'destinationReached', 'hops'],
      properties: {
        cycle: { type: 'integer', minimum: 1, description: 'The cycle that just ended, from 1.' },
        destinationReached: { ...result.destinationReached, description: 'True once the target itself has answered in some cycle.' },
        hops: { type: 'array', items: mtrHopSchema, description: result.hops.description },
      },
    },
  },
};
