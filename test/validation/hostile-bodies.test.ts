import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { requestValidators } from '../../src/tools/registry';
import { createSchemaCompiler, type Validate } from '../../src/validation/validator';
import { assertUniqueItemsTyped, UnsafeSchemaError } from '../../src/validation/unique-items';

// Bodies as JSON.parse makes them from what a client sends: its own "valueOf", "toString" and
// "__proto__" are plain own properties, never functions of ours.
const v = requestValidators(['r1', 'r2']) as Record<'ping' | 'dns', Validate<any>>;
const parse = (text: string) => JSON.parse(text) as Record<string, unknown>;

function refusedAt(validate: Validate<any>, text: string): string[] {
  let r: ReturnType<Validate<any>> | undefined;
  assert.not.throws(() => (r = validate(parse(text))), text);
  assert.ok(r !== undefined && !r.ok, `expected ${text} to be refused`);
  return r !== undefined && !r.ok ? r.errors.map((e) => e.pointer) : [];
}

test('objects with their own valueOf in types are refused as not strings, without a throw', () => {
  assert.ok(refusedAt(v.dns, '{"domain":"a.test","types":[{},{"valueOf":1}]}').includes('/types/1'));
});

test('objects with their own toString in types are refused as not strings, without a throw', () => {
  assert.ok(refusedAt(v.dns, '{"domain":"a.test","types":[{},{"toString":1}]}').includes('/types/1'));
});

test('objects with their own valueOf in resolvers are refused as not strings, without a throw', () => {
  assert.ok(refusedAt(v.dns, '{"domain":"a.test","resolvers":[{"valueOf":1},{}]}').includes('/resolvers/0'));
});

test('nested arrays holding such objects are refused as not strings, without a throw', () => {
  const at = refusedAt(v.dns, '{"domain":"a.test","types":[[{"valueOf":1}],[{}]],"resolvers":[[{"toString":{}}],[{}]]}');
  assert.ok(at.includes('/types/0') && at.includes('/resolvers/0'));
});

test('repeated strings are still refused as duplicates', () => {
  assert.ok(refusedAt(v.dns, '{"domain":"a.test","types":["A","A"]}').includes('/types'));
  assert.ok(refusedAt(v.dns, '{"domain":"a.test","resolvers":["r1","r1"]}').includes('/resolvers'));
});

test('repeated prototype names in types are refused, without a throw', () => {
  for (const name of ['__proto__', 'constructor', 'hasOwnProperty', 'toString', 'valueOf']) {
    assert.ok(refusedAt(v.dns, `{"domain":"a.test","types":["${name}","${name}"]}`).includes('/types/0'), name);
  }
});

test('prototype-named fields at the top of a body are unknown fields', () => {
  for (const name of ['__proto__', 'constructor', 'hasOwnProperty']) {
    assert.equal(refusedAt(v.dns, `{"domain":"a.test","${name}":{"valueOf":1}}`), [`/${name}`], name);
    assert.equal(refusedAt(v.ping, `{"host":"127.0.0.1","${name}":[{"toString":1}]}`), [`/${name}`], name);
  }
});

test('prototype-named fields inside array items are refused with the item', () => {
  const at = refusedAt(v.dns, '{"domain":"a.test","types":[{"__proto__":{"valueOf":1}},{"constructor":1},{"hasOwnProperty":1}]}');
  assert.equal([...new Set(at)], ['/types/0', '/types/1', '/types/2']);
});

test('a field given an object with its own valueOf where a number belongs is refused', () => {
  assert.ok(refusedAt(v.ping, '{"host":"127.0.0.1","count":{"valueOf":4},"size":{"toString":"1"}}').includes('/count'));
});

test('a request schema asking unique items of untyped items is refused when compiled', () => {
  const compile = createSchemaCompiler();
  const schema = { type: 'object', properties: { list: { type: 'array', items: { enum: ['a', 'b'] }, uniqueItems: true } } };
  assert.throws(() => compile(schema, (x) => x), (err: unknown) => err instanceof UnsafeSchemaError && /properties\/list/.test((err as Error).message));
});

test('unique items of object items are refused when compiled, at any depth', () => {
  const nested = { type: 'object', properties: { a: { type: 'object', properties: { b: { type: 'array', items: { type: 'object' }, uniqueItems: true } } } } };
  const unsafe = (err: unknown) => err instanceof UnsafeSchemaError;
  assert.throws(() => assertUniqueItemsTyped(nested), unsafe);
  assert.throws(() => assertUniqueItemsTyped({ type: 'array', uniqueItems: true }), unsafe);
});

test('unique items of a declared scalar type compile', () => {
  assert.not.throws(() => assertUniqueItemsTyped({ type: 'array', items: { type: 'string', enum: ['a'] }, uniqueItems: true }));
  assert.not.throws(() => assertUniqueItemsTyped({ type: 'array', items: { type: ['integer', 'null'] }, uniqueItems: true }));
});

test.run();
