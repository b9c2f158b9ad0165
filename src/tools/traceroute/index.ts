import { REACHED_VERDICT_SCHEMA, reachedVerdict } from '../located-verdict';
import { withTarget } from '../host-target';
import { TARGET_FAILURES } from '../target-path';
import type { Tool } from '../tool';
import { openTraceroute } from './run';
import { tracerouteRequestSchema, tracerouteResultSchema } from './schema';
import { tracerouteStreamEvents } from './stream-schema';
import type { TracerouteRequest, TracerouteResult } from './types';

export type { TracerouteRequest, TracerouteResult } from './types';

export const tracerouteTool: Tool<TracerouteRequest, TracerouteResult> = {
  name: 'traceroute',
  path: '/api/tools/traceroute',
  summary: 'The path to one host, hop by hop, with ICMP echo probes of rising TTL / hop limit',
  requestSchema: () => tracerouteRequestSchema,
  resultSchema: tracerouteResultSchema,
  components: [],
  failures: TARGET_FAILURES,
  streamEvents: tracerouteStreamEvents,
  normalize: (request, formats) => withTarget<TracerouteRequest>(request, formats),
  open: (deps) => openTraceroute(deps),
  verdictSchema: REACHED_VERDICT_SCHEMA,
  verdict: reachedVerdict<TracerouteResult>((r) => r.destinationReached),
};
