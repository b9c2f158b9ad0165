import { PROBLEMS } from '../http/problems';

export const problemSchema = {
  $id: 'Problem',
  type: 'object',
  description: 'RFC 9457 problem details.',
  required: ['type', 'title', 'status', 'detail', 'code'],
  properties: {
    type: { type: 'string', format: 'uri' },
    title: { type: 'string' },
    status: { type: 'integer' },
    detail: { type: 'string' },
    code: { enum: Object.keys(PROBLEMS) },
    errors: {
      type: 'array',
      items: {
        type: 'object',
        required: ['pointer', 'message'],
        properties: { pointer: { type: 'string', description: 'JSON Pointer into the request body.' }, message: { type: 'string' } },
      },
    },
    resolvers: { type: 'array', items: { $ref: 'DnsResolverResult' }, description: 'Only on upstream-timeout.' },
  },
} as const;
