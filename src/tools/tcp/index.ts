import { REACHED_VERDICT_SCHEMA, reachedVerdict } from '../located-verdict';
import { withTarget } from '../host-target';
import { TARGET_FAILURES } from '../target-path';
import type { Tool } from '../tool';
import { tcpProbe } from './probe';
import { openTcp } from './run';
import { tcpRequestSchema, tcpResultSchema, tcpStreamRequestSchema } from './schema';
import { tcpStreamEvents } from './stream-schema';
import type { TcpRequest, TcpResult } from './types';

export type { TcpRequest, TcpResult, TcpAttempt } from './types';

export const tcpTool: Tool<TcpRequest, TcpResult> = {
  name: 'tcp',
  path: '/api/tools/tcp',
  summary: 'TCP connect test of one port of one host (a tcping): reachability and connection time',
  requestSchema: () => tcpRequestSchema,
  streamRequestSchema: () => tcpStreamRequestSchema,
  resultSchema: tcpResultSchema,
  components: [],
  failures: TARGET_FAILURES,
  streamEvents: tcpStreamEvents,
  normalize: (request, formats) => withTarget<TcpRequest>(request, formats),
  open: (deps) => openTcp(deps),
  verdict: reachedVerdict<TcpResult>((r) => r.connected),
  verdictSchema: REACHED_VERDICT_SCHEMA,
  probe: tcpProbe,
};
