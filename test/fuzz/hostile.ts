import fc from 'fast-check';
import { arr, lit, obj, str, type JText, type StrPart } from './json-text';

// Names that mean something to a JavaScript object: a validator or a copy that reads them as methods
// or prototypes instead of as data is the class of bug this fuzzer exists for.
export const PROTO_NAMES = ['__proto__', 'constructor', 'prototype', 'hasOwnProperty', 'toString', 'valueOf', 'toJSON', 'isPrototypeOf', 'propertyIsEnumerable', 'toLocaleString', '__defineGetter__', 'then', 'length'];

// Number tokens that JSON.parse reads as something other than what they say, or that sit on an edge.
export const NUMBER_TOKENS = ['1e309', '-1e309', '-0', '-0.0', '0.0', '1e-400', '9007199254740993', '-9007199254740993', '4.5', '100.0', '1e2', '1E+2', '5e-324', '1.7976931348623157e308', '0.1e1', '4294967296', '-1', '0', '1'.repeat(400), '1e999999999'];

// Bytes that are not UTF-8: a lone surrogate as UTF-8 would encode it, an overlong NUL, a code point
// past U+10FFFF, a cut sequence, and bytes that never start anything.
export const BAD_UTF8: number[][] = [[0xed, 0xa0, 0x80], [0xed, 0xbf, 0xbf], [0xc0, 0x80], [0xf4, 0x90, 0x80, 0x80], [0xe2, 0x82], [0xff], [0xfe], [0x80], [0xf8, 0x88, 0x80, 0x80, 0x80]];

// Text that is valid JSON but hostile to whatever reads it next.
export const HOSTILE_TEXT = ['\ud800', '\udfff', '\udc00\ud800', '\u0000', 'a\u0000b', '\u0001\u001f\u007f', '\n', '\r\n', '\u2028\u2029', '\ufeff', '\u202e', '\uffff', '%00', '../', '${x}', '\\', '"', '', ' ', '𝔘𝔫𝔦', ...PROTO_NAMES];

const protoName = fc.constantFrom(...PROTO_NAMES);
const numberToken = fc.constantFrom(...NUMBER_TOKENS).map(lit);
const badBytes = fc.constantFrom(...BAD_UTF8).map((bytes): StrPart => ({ bytes }));
// Raw control bytes inside a string are invalid JSON: the parser must refuse them, not the process die.
const rawControl = fc.integer({ min: 0, max: 0x1f }).map((b): StrPart => ({ bytes: [b] }));

export const hostileString: fc.Arbitrary<JText & { k: 'str' }> = fc.oneof(
  fc.constantFrom(...HOSTILE_TEXT).map((t) => str(t)),
  fc.array(fc.oneof(fc.string({ unit: 'binary', maxLength: 8 }), fc.constantFrom(...HOSTILE_TEXT), badBytes, rawControl), { minLength: 1, maxLength: 4 }).map((parts) => str(...parts)),
  fc.string({ unit: 'binary-ascii', maxLength: 40 }).map((t) => str(t)),
  fc.integer({ min: 254, max: 3000 }).map((n) => str('a'.repeat(n))),
);

export const scalar: fc.Arbitrary<JText> = fc.oneof(numberToken, hostileString, fc.constantFrom('null', 'true', 'false', '{}', '[]').map(lit));

// `[[[...]]]` or `{"a":{"a":...}}` or `[{"valueOf":[{"valueOf":...` as raw bytes, `depth` levels deep.
export function nested(depth: number, open: string, close: string, leaf = '1'): JText {
  return { k: 'raw', bytes: [...Buffer.from(open.repeat(depth) + leaf + close.repeat(depth), 'utf8')] };
}

export const deepNesting: fc.Arbitrary<JText> = fc
  .tuple(
    fc.constantFrom(100, 500, 900, 1000, 1300, 1900),
    fc.constantFrom<[string, string, number]>(['[', ']', 2], ['{"a":', '}', 6], ['[{"valueOf":', '}]', 15], ['{"__proto__":', '}', 14], ['[{},', ']', 5], ['{"toString":[', ']}', 15]),
  )
  .map(([depth, [open, close, width]]) => nested(Math.min(depth, Math.floor(3900 / width)), open, close));

// An object whose keys are the prototype names, with values that may be anything here.
export const protoObject = (value: fc.Arbitrary<JText>): fc.Arbitrary<JText> =>
  fc.array(fc.tuple(protoName, value), { minLength: 1, maxLength: 3 }).map((members) => obj(members));

// Exactly the shape that ended the process: an empty object beside one with a method-named key, in
// either order, at any depth of arrays.
export const methodPairs: fc.Arbitrary<JText> = fc
  .tuple(fc.constantFrom('valueOf', 'toString', 'constructor', 'toJSON', 'hasOwnProperty', '__proto__'), numberToken, fc.boolean(), fc.integer({ min: 0, max: 3 }))
  .map(([name, value, swap, depth]) => {
    let pair: JText[] = [obj([]), obj([[name, value]])];
    if (swap) pair = pair.reverse();
    for (let i = 0; i < depth; i++) pair = pair.map((item) => arr([item]));
    return arr(pair);
  });

// Any hostile value, up to `depth` levels of containers.
export const hostileValue: fc.Arbitrary<JText> = fc.letrec<{ value: JText }>((tie) => ({
  value: fc.oneof(
    { depthSize: 'small', withCrossShrink: true },
    { arbitrary: scalar, weight: 6 },
    { arbitrary: protoObject(tie('value')), weight: 3 },
    { arbitrary: fc.array(tie('value'), { maxLength: 4 }).map(arr), weight: 2 },
    { arbitrary: methodPairs, weight: 2 },
    { arbitrary: deepNesting, weight: 1 },
  ),
})).value;

// Members to add beside or instead of a schema's own: prototype names, duplicates of real field names.
export function hostileMembers(fieldNames: readonly string[]): fc.Arbitrary<Array<[JText & { k: 'str' }, JText]>> {
  const name = fc.oneof(protoName.map((n) => str(n)), fc.constantFrom(...(fieldNames.length > 0 ? fieldNames : ['x'])).map((n) => str(n)), hostileString);
  return fc.array(fc.tuple(name, hostileValue), { maxLength: 3 });
}
