import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { PROBLEMS, problem, problemJson, type ProblemCode } from '../../src/http/problems';

const codes = Object.keys(PROBLEMS) as ProblemCode[];

test('every code renders exactly what serialising its problem object gives', () => {
  for (const code of codes) {
    assert.is(problemJson(code, `detail for ${code}`), JSON.stringify(problem(code, `detail for ${code}`)), code);
  }
});

test('extensions follow the core members in their own order', () => {
  const extensions = { errors: [{ pointer: '/count', message: 'must be >= 1' }], resolvers: { a: 1 }, limit: 3 };
  assert.is(problemJson('validation-failed', 'see errors', extensions), JSON.stringify(problem('validation-failed', 'see errors', extensions)));
});

test('an undefined extension is left out, as JSON.stringify leaves it out', () => {
  const body = problemJson('overloaded', 'busy', { retry: undefined, limit: 2 });
  assert.equal(JSON.parse(body), { ...problem('overloaded', 'busy'), limit: 2 });
  assert.not.ok(body.includes('retry'));
});

test('quotes, backslashes, control characters and non-ASCII in the detail stay valid JSON', () => {
  const detail = 'bad "host" \\ \n\u0000 ünïcode \ud83d\ude00 \ud800';
  assert.is(problemJson('invalid-json', detail), JSON.stringify(problem('invalid-json', detail)));
  assert.is(JSON.parse(problemJson('invalid-json', detail)).detail, detail);
});

test.run();
