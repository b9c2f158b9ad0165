import type { Exchange } from './exchange';
import { problem, type ProblemCode } from './problems';

export function sendProblem(ex: Exchange, code: ProblemCode, detail: string, extensions: Record<string, unknown> = {}): void {
  const body = problem(code, detail, extensions);
  ex.problemCode = code;
  ex.json(body.status, body, 'application/problem+json');
}
