import Ajv2020, { type ValidateFunction } from 'ajv/dist/2020';
import { PROBLEMS, PROBLEM_TYPE_BASE } from '../../src/problems/codes';
import type { Case } from './cases';
import { ANSWER_WAIT_MS, type Reply } from './send';

// What every answer must be, whatever was sent (CONTRACT.md): an answer at all; never a 500; a 5xx
// only where the contract names one (no engine, a spent budget, no resolver answering); no 429, as
// the fuzz server's limits are raised so that none can hide a case; UTF-8 JSON, with problems as
// application/problem+json whose body matches the Problem schema and its own status.
const LEGITIMATE_5XX = new Set(['overloaded', 'engine-unavailable', 'upstream-busy', 'rate-limit-store-unavailable', 'upstream-failed', 'upstream-timeout']);
const PROMETHEUS_TEXT = 'text/plain; version=0.0.4; charset=utf-8';

export interface Judge {
  (c: Case, reply: Reply): string[];
}

// Schemas from the server's own /openapi.json: a 200 must match its path's result schema.
export function createJudge(doc: any): Judge {
  const ajv = new Ajv2020({ strict: false, validateFormats: false, allErrors: false });
  for (const [name, schema] of Object.entries<object>(doc.components.schemas)) ajv.addSchema(schema, `#/components/schemas/${name}`);
  const schema = (ref: string | undefined) => (ref === undefined ? undefined : ajv.getSchema(ref));
  const problem = schema('#/components/schemas/Problem') as ValidateFunction;
  const results = new Map<string, ValidateFunction | undefined>();
  for (const [path, item] of Object.entries<any>(doc.paths)) results.set(path, schema(item.post?.responses?.['200']?.content?.['application/json']?.schema?.$ref));
  return (c, reply) => {
    if (reply.kind === 'hung') return [`no answer within ${ANSWER_WAIT_MS / 1000} s`];
    if (reply.kind === 'dropped') return [`the connection dropped without an answer (${reply.error})`];
    const path = c.path.split('?')[0] as string;
    return judgeAnswer(c.method, path, reply, problem, results.get(path));
  };
}

function utf8(bytes: Buffer): string | null {
  try {
    return new TextDecoder('utf-8', { fatal: true }).decode(bytes);
  } catch {
    return null;
  }
}

function judgeAnswer(method: string, path: string, reply: Extract<Reply, { kind: 'answer' }>, problem: ValidateFunction, result: ValidateFunction | undefined): string[] {
  const { status } = reply;
  const type = reply.headers['content-type'] ?? '';
  if (status === 204) return reply.bytes.length === 0 ? [] : ['a 204 with a body'];
  const text = utf8(reply.bytes);
  if (text === null) return [`status ${status}: the body is not UTF-8`];
  if (method === 'GET' && path === '/' && status === 200) return type === 'text/html; charset=utf-8' ? [] : [`the live page is not HTML (${type})`];
  if (method === 'GET' && path === '/probe' && status === 200) return type === PROMETHEUS_TEXT && /^probe_success [01]$/m.test(text) ? [] : [`probe 200 is not metrics text (${type})`];
  let body: any;
  try {
    body = JSON.parse(text);
  } catch {
    return [`status ${status}: the body is not JSON (${type}): ${text.slice(0, 200)}`];
  }
  if (status < 400) return judgeSuccess(status, type, body, result);
  return judgeProblem(status, type, body, problem, reply.headers['allow']);
}

function judgeSuccess(status: number, type: string, body: unknown, result: ValidateFunction | undefined): string[] {
  const wrong: string[] = [];
  if (type !== 'application/json') wrong.push(`status ${status} with content-type ${type}`);
  if (typeof body !== 'object' || body === null) wrong.push(`status ${status}: the body is not a JSON object`);
  if (result !== undefined && !result(body)) wrong.push(`status ${status}: the body does not match the result schema: ${JSON.stringify(result.errors)}`);
  return wrong;
}

function judgeProblem(status: number, type: string, body: any, problem: ValidateFunction, allow: string | undefined): string[] {
  const wrong: string[] = [];
  const code = String(body?.code);
  if (status >= 500 && !LEGITIMATE_5XX.has(code)) wrong.push(`status ${status} ${code}: ${body?.detail}`);
  if (status === 429) wrong.push(`429 ${code} although the fuzz server's limits are raised: it hides the case`);
  if (type !== 'application/problem+json') wrong.push(`status ${status} with content-type ${type}`);
  if (!problem(body)) wrong.push(`status ${status}: the body does not match the Problem schema: ${JSON.stringify(problem.errors)}`);
  const known = PROBLEMS[code as keyof typeof PROBLEMS];
  if (known === undefined || known.status !== status || body.status !== status || body.type !== `${PROBLEM_TYPE_BASE}${code}`) wrong.push(`status ${status}: problem ${code} does not agree with its status and type (${body?.status}, ${body?.type})`);
  if (status === 405 && !allow) wrong.push('405 without an Allow header');
  return wrong;
}
