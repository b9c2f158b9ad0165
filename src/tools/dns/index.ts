import { DNS_VERDICT_SCHEMA, dnsVerdict } from '../located-verdict';
import type { Tool } from '../tool';
import { dnsStreamEvents } from './stream-schema';
import { dnsProbe } from './probe';
import { openDns } from './run';
import { dnsRequestSchema, dnsResolverResultSchema, dnsResultSchema } from './schema';
import type { DnsRequest, DnsResult } from './types';

export type { DnsRequest, DnsResult, RecordType, ResolverReport } from './types';

export const dnsTool: Tool<DnsRequest, DnsResult> = {
  name: 'dns',
  path: '/api/tools/dns',
  summary: 'A, AAAA, MX, TXT records of one domain from several recursive resolvers at once',
  requestSchema: (resolverIds) => dnsRequestSchema(resolverIds),
  resultSchema: dnsResultSchema,
  components: [dnsResolverResultSchema],
  failures: ['upstream-failed', 'upstream-timeout', 'upstream-busy', 'invalid-field', 'engine-unavailable', 'internal-error'],
  streamEvents: dnsStreamEvents,
  // The schema's `domain` format has accepted it: its ASCII form is the one the format made.
  normalize: (request, formats) => ({ ...request, domain: formats.domain(request.domain) as string }),
  open: (deps) => openDns(deps),
  verdictSchema: DNS_VERDICT_SCHEMA,
  verdict: dnsVerdict,
  probe: dnsProbe,
};
