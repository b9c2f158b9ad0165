// The addon's one packed form (native/common/packed_js.h), as src/native/packed.ts reads it.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { PackedReader } from '../../src/native/packed';

test('numbers read back in order, only as many as the first number counts from a longer (reused) array', () => {
  const r = new PackedReader('test', Float64Array.from([2, 1.5, -1, 7, 7]), '');
  assert.is(r.remaining, 2);
  assert.equal([r.num(), r.num()], [1.5, -1]);
  assert.ok(r.done);
  r.checkRead();
  assert.is(r.num(), undefined, 'the number after the count, not the reused array\'s');
  assert.throws(() => r.checkRead(), /test: number 3 missing/);
});

test('a number ahead is looked at without being read, and none past the count is', () => {
  const r = new PackedReader('test', Float64Array.from([2, 1.5, -1, 7]), '');
  assert.equal([r.peekAt(0), r.peekAt(1)], [1.5, -1]);
  assert.is(r.num(), 1.5);
  assert.throws(() => r.peekAt(1), /test: number 3 missing/);
});

test('ASCII texts are slices of the one string, taken in order by their lengths', () => {
  const r = new PackedReader('test', Float64Array.from([3, 3, 0, 2]), 'abcde');
  assert.equal([r.str(), r.str(), r.str()], ['abc', '', 'de']);
});

test('a text marked -1 is the next of the other texts, and -2 is none', () => {
  const r = PackedReader.of('test', [Float64Array.from([4, -1, -2, 1, -1]), 'x', ['é', 'ü']]);
  assert.equal([r.optStr(), r.optStr(), r.optStr(), r.optStr()], ['é', undefined, 'x', 'ü']);
});

test('a required text that is none, or another text that is missing, is refused', () => {
  assert.throws(() => new PackedReader('test', Float64Array.from([1, -2]), '').str(), /text expected/);
  assert.throws(() => new PackedReader('test', Float64Array.from([1, -1]), '').str(), /text 0 expected/);
});

test('texts longer than the string are refused, not read past its end', () => {
  assert.throws(() => new PackedReader('test', Float64Array.from([1, 6]), 'short').str(), /cut short/);
});

test('values that are not a Float64Array and a string are refused', () => {
  assert.throws(() => new PackedReader('test', [1], ''), /numbers expected first/);
  assert.throws(() => new PackedReader('test', new Float64Array(0), ''), /numbers expected first/);
  assert.throws(() => new PackedReader('test', Float64Array.from([0]), 1), /texts expected second/);
});

test.run();
