import type { LocatedOutcomes } from '../locations/measure-at';
import type { Outcome } from '../tools/outcome';
import type { Tool } from '../tools/tool';
import { problemJson } from './problem-json';
import { problemFor } from './refusal';

// A location's problem as its entry shows it: the RFC 9457 object a request of its own would have had.
export function locationProblem(outcome: Outcome<unknown> & { ok: false }): Record<string, unknown> {
  const problem = problemFor(outcome.failure);
  return JSON.parse(problemJson(problem.code, problem.detail, problem.extensions)) as Record<string, unknown>;
}

// The 200 body of a request with `locations`: each location's own 200 body or `{ problem }`, in the order
// they were named, and the tool's verdict over them.
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export function locatedBody(tool: Tool<any, any> | undefined, outcomes: LocatedOutcomes): { locations: Record<string, unknown>; verdict: Record<string, unknown> } {
  const locations: Record<string, unknown> = {};
  const results: unknown[] = [];
  for (const [name, outcome] of outcomes) {
    if (outcome.ok) results.push(outcome.value);
    locations[name] = outcome.ok ? outcome.value : { problem: locationProblem(outcome) };
  }
  const verdict = tool?.verdict?.(results, outcomes.length) ?? { answered: results.length, of: outcomes.length };
  return { locations, verdict };
}
