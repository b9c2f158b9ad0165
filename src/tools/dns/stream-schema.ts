import type { StreamEventSchemas } from '../tool';
import { querySchema } from './schema';

// A streamed dns request's events: the queries admitted, then each resolver's answer to each type.
export const dnsStreamEvents: StreamEventSchemas = {
  start: {
    type: 'object',
    description: "The queries start: every resolver's budget took them.",
    required: ['domain', 'types', 'timeoutMs', 'resolvers'],
    properties: {
      domain: { type: 'string', description: 'The domain asked, in ASCII form; or the IP literal as asked.' },
      reverseName: { type: 'string', description: 'Only when `domain` is an IP literal: the name asked in its place.' },
      types: { type: 'array', items: { type: 'string' }, description: 'Record types asked.' },
      timeoutMs: { type: 'integer', description: 'How long each query may take, ms.' },
      resolvers: {
        type: 'array',
        description: 'The resolvers asked, in configured order.',
        items: { type: 'object', required: ['id', 'address'], properties: { id: { type: 'string', description: "The resolver's id." }, address: { type: 'string', description: "The resolver's address." } } },
      },
    },
  },
  items: {
    answer: {
      type: 'object',
      description: "One resolver's answer to one type, as the summary's `resolvers` will hold it, sent as it settles.",
      required: ['resolver', 'address', 'type', 'query'],
      properties: {
        resolver: { type: 'string', description: "The resolver's id." },
        address: { type: 'string', description: "The resolver's address." },
        type: { type: 'string', description: 'The record type.' },
        query: querySchema,
      },
    },
  },
};
