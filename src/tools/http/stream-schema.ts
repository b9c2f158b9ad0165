import type { StreamEventSchemas } from '../tool';
import { httpRedirectSchema, httpRequestSchema, httpResultSchema } from './schema';

const result = httpResultSchema.properties;

// A streamed check: its start (the first address resolved and admitted), a `redirect` per redirect
// followed (as it stands in `redirects`), then its summary.
export const httpStreamEvents: StreamEventSchemas = {
  start: {
    type: 'object',
    description: 'The check starts: the first address resolved and admitted, and the settings in force.',
    required: ['host', 'address', 'ipVersion', 'url', 'port', 'method', 'followRedirects', 'timeoutMs', 'resolveMs', 'startedAt'],
    properties: {
      host: { type: 'string', description: "The URL's host (an IDN in its ASCII form, IP literals bare)." },
      address: result.address,
      ipVersion: result.ipVersion,
      url: result.url,
      port: result.port,
      method: result.method,
      followRedirects: httpRequestSchema.properties.followRedirects,
      timeoutMs: httpRequestSchema.properties.timeoutMs,
      resolveMs: result.timings.properties.resolveMs,
      startedAt: result.startedAt,
    },
  },
  items: { redirect: httpRedirectSchema },
};
