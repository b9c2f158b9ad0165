import { REACHED_VERDICT_SCHEMA, reachedVerdict } from '../located-verdict';
import { withTarget } from '../host-target';
import { TARGET_FAILURES } from '../target-path';
import type { Tool } from '../tool';
import { openMtr } from './run';
import { mtrRequestSchema, mtrResultSchema, mtrStreamRequestSchema } from './schema';
import { mtrStreamEvents } from './stream-schema';
import type { MtrRequest, MtrResult } from './types';

export type { MtrRequest, MtrResult } from './types';

export const mtrTool: Tool<MtrRequest, MtrResult> = {
  name: 'mtr',
  path: '/api/tools/mtr',
  summary: 'Every hop of the path to one host probed again in cycles: loss, round trips and jitter per hop, as mtr reports them',
  requestSchema: () => mtrRequestSchema,
  streamRequestSchema: () => mtrStreamRequestSchema,
  resultSchema: mtrResultSchema,
  components: [],
  failures: TARGET_FAILURES,
  streamEvents: mtrStreamEvents,
  normalize: (request, formats) => withTarget<MtrRequest>(request, formats),
  open: (deps) => openMtr(deps),
  verdictSchema: REACHED_VERDICT_SCHEMA,
  verdict: reachedVerdict<MtrResult>((r) => r.destinationReached),
};
