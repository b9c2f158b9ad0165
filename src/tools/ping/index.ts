import { REACHED_VERDICT_SCHEMA, reachedVerdict } from '../located-verdict';
import { withTarget } from '../host-target';
import { TARGET_FAILURES } from '../target-path';
import type { Tool } from '../tool';
import { pingStreamEvents } from './stream-schema';
import { pingProbe } from './probe';
import { openPing } from './run';
import { pingRequestSchema, pingResultSchema, pingStreamRequestSchema } from './schema';
import type { PingRequest, PingResult } from './types';

export type { PingRequest, PingResult } from './types';

export const pingTool: Tool<PingRequest, PingResult> = {
  name: 'ping',
  path: '/api/tools/ping',
  summary: 'ICMP echo test of one host: reachability and latency',
  requestSchema: () => pingRequestSchema,
  streamRequestSchema: () => pingStreamRequestSchema,
  resultSchema: pingResultSchema,
  components: [],
  failures: TARGET_FAILURES,
  streamEvents: pingStreamEvents,
  normalize: (request, formats) => withTarget<PingRequest>(request, formats),
  open: (deps) => openPing(deps),
  verdictSchema: REACHED_VERDICT_SCHEMA,
  verdict: reachedVerdict<PingResult>((r) => r.reachable),
  probe: pingProbe,
};
