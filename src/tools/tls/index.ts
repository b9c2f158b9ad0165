import { REACHED_VERDICT_SCHEMA, reachedVerdict } from '../located-verdict';
import { withTarget } from '../host-target';
import { TARGET_FAILURES } from '../target-path';
import type { Tool } from '../tool';
import { tlsProbe } from './probe';
import { openTls } from './run';
import { tlsRequestSchema, tlsResultSchema } from './schema';
import { tlsStreamEvents } from './stream-schema';
import type { TlsRequest, TlsResult } from './types';

export type { TlsRequest, TlsResult } from './types';

export const tlsTool: Tool<TlsRequest, TlsResult> = {
  name: 'tls',
  path: '/api/tools/tls',
  summary: 'TLS handshake check of one port of one host: protocol, cipher, certificate chain and whether it verifies',
  requestSchema: () => tlsRequestSchema,
  resultSchema: tlsResultSchema,
  components: [],
  failures: TARGET_FAILURES,
  streamEvents: tlsStreamEvents,
  normalize: (request, formats) => withTarget<TlsRequest>(request, formats),
  open: (deps) => openTls(deps),
  verdict: reachedVerdict<TlsResult>((r) => r.status === 'handshake'),
  verdictSchema: REACHED_VERDICT_SCHEMA,
  probe: tlsProbe,
};
