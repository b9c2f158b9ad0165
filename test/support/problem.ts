import * as assert from 'uvu/assert';
import type { Reply } from './http';

// Every error is an RFC 9457 body with our code; checks the whole envelope once, here.
export function assertProblem(reply: Reply, status: number, code: string): any {
  assert.is(reply.status, status, `status for ${code}: ${reply.text}`);
  assert.is(reply.headers['content-type'], 'application/problem+json');
  assert.is(reply.headers['x-content-type-options'], 'nosniff');
  const body = reply.json();
  assert.is(body.status, status);
  assert.is(body.code, code);
  assert.is(body.type, `https://nettools.dev/problems/${code}`);
  assert.type(body.title, 'string');
  assert.type(body.detail, 'string');
  assert.ok(body.detail.length > 0);
  return body;
}
