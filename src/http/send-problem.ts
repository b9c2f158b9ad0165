import type { Exchange } from './exchange';
import { problemJson } from './problem-json';
import { PROBLEMS, type ProblemCode } from './problems';

export function sendProblem(ex: Exchange, code: ProblemCode, detail: string, extensions?: Record<string, unknown>): void {
  ex.problemCode = code;
  ex.send(PROBLEMS[code].status, 'application/problem+json', problemJson(code, detail, extensions));
}
