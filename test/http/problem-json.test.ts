import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { jsonString, problemJson } from '../../src/http/problem-json';
import { PROBLEM_TYPE_BASE, PROBLEMS, type ProblemCode } from '../../src/problems/codes';
import { randomStrings } from '../support/random';

// The RFC 9457 object as the contract spells it, for JSON.stringify to serialise as the reference.
function problem(code: ProblemCode, detail: string, extensions: Record<string, unknown> = {}): Record<string, unknown> {
  const { status, title } = PROBLEMS[code];
  return { type: PROBLEM_TYPE_BASE + code, title, status, detail, code, ...extensions };
}

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

// Quote, backslash, controls, DEL, non-ASCII, a surrogate pair's halves alone and together.
const TRICKY = 'ab"\\\n\t\u0000\u001f\u007fé€\ud83d\ude00\ud800\udc00 /~';

test('jsonString writes exactly what JSON.stringify writes, escapes and lone surrogates included', () => {
  for (const text of ['', 'plain', 'must be >= 1', '/count', '\ud83d\ude00', '\ud800', '\udc00', 'x\ud800y', '\udc00\ud800', '\ud800\ud800\udc00']) {
    assert.is(jsonString(text), JSON.stringify(text), JSON.stringify(text));
  }
  for (const text of randomStrings(7, 3000, TRICKY, 12)) assert.is(jsonString(text), JSON.stringify(text), JSON.stringify(text));
});

test('field errors are written as JSON.stringify writes them, whatever their text', () => {
  const texts = randomStrings(11, 400, TRICKY, 8);
  for (let i = 0; i + 1 < texts.length; i += 2) {
    const errors = [{ pointer: texts[i]!, message: texts[i + 1]! }, { pointer: '/count', message: 'must be >= 1' }];
    assert.is(problemJson('validation-failed', texts[i]!, { errors }), JSON.stringify(problem('validation-failed', texts[i]!, { errors })));
  }
});

test('an errors extension of another shape is left to JSON.stringify', () => {
  const odd = [{ message: 'm', pointer: '/p' }, { pointer: '/q', message: 'n', extra: 1 }, 'text', null];
  assert.is(problemJson('validation-failed', 'd', { errors: odd }), JSON.stringify(problem('validation-failed', 'd', { errors: odd })));
  const withJson = [{ pointer: '/p', message: 'm', toJSON: () => 'x' }];
  assert.is(problemJson('validation-failed', 'd', { errors: withJson }), JSON.stringify(problem('validation-failed', 'd', { errors: withJson })));
  assert.is(problemJson('validation-failed', 'd', { errors: [] }), JSON.stringify(problem('validation-failed', 'd', { errors: [] })));
});

test.run();
