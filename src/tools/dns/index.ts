import { DNS_VERDICT_SCHEMA, dnsVerdict } from '../located-verdict';
import type { Tool } from '../tool';
import { dnsStreamEvents } from './stream-schema';
import { dnsProbe } from './probe';
import { openDns } from './run';
import { normalizeDns } from './normalize';
import { dnsRequestSchema, dnsResolverResultSchema, dnsResultSchema } from './schema';
import type { DnsRequest, DnsResult } from './types';

export type { DnsRequest, DnsResult, RecordType, ResolverReport } from './types';

export const dnsTool: Tool<DnsRequest, DnsResult> = {
  name: 'dns',
  path: '/api/tools/dns',
  summary: 'Records of one domain (A, AAAA, MX, TXT and twelve more types), or the PTR of an address, from several recursive resolvers at once',
  requestSchema: (resolverIds) => dnsRequestSchema(resolverIds),
  resultSchema: dnsResultSchema,
  components: [dnsResolverResultSchema],
  failures: ['upstream-failed', 'upstream-timeout', 'upstream-busy', 'invalid-field', 'engine-unavailable', 'internal-error'],
  streamEvents: dnsStreamEvents,
  normalize: (request, formats) => normalizeDns(request, formats),
  open: (deps) => openDns(deps),
  verdictSchema: DNS_VERDICT_SCHEMA,
  verdict: dnsVerdict,
  probe: dnsProbe,
};
