import fc from 'fast-check';
import { hostileMembers, hostileString, hostileValue, methodPairs, NUMBER_TOKENS, protoObject, scalar } from './hostile';
import { arr, fromValue, lit, obj, str, type JText } from './json-text';

// Request bodies derived from the JSON Schema the server validates with (as published in its own
// /openapi.json): mostly what the schema allows, each value now and then swapped for one on or past a
// bound, of the wrong type, or hostile. Only the keywords request schemas use are read.
export type Schema = { [keyword: string]: any };

export interface SchemaOptions {
  formats: Record<string, fc.Arbitrary<string>>; // arbitraries for `format` values (host, domain)
}

const WRONG_TYPES = ['null', 'true', 'false', '0', '-1', '""', '"4"', '[]', '{}', '[null]', '{"":0}'].map(lit);

function numberEdges(s: Schema): JText[] {
  const edges: string[] = [];
  for (const bound of [s.minimum, s.maximum]) {
    if (typeof bound !== 'number') continue;
    edges.push(String(bound - 1), String(bound), String(bound + 1), `${bound}.0`, `${bound}.5`, `${bound}e0`, `${bound / 10}e1`);
  }
  return [...edges, ...NUMBER_TOKENS].map(lit);
}

function stringEdges(s: Schema): fc.Arbitrary<JText> {
  const lengths = [s.minLength, s.maxLength].filter((n): n is number => typeof n === 'number').flatMap((n) => [n - 1, n, n + 1]).filter((n) => n >= 0);
  const byLength = lengths.length > 0 ? fc.constantFrom(...lengths).map((n) => str('a'.repeat(n))) : hostileString;
  const examples: unknown[] = [...(s.examples ?? []), ...(s.enum ?? [])].filter((e) => typeof e === 'string');
  const variants = examples.flatMap((e) => [` ${e}`, `${e} `, String(e).toLowerCase(), String(e).toUpperCase(), `${e}\u0000`, `${e}.`]);
  return variants.length > 0 ? fc.oneof(byLength, fc.constantFrom(...variants).map((v) => str(v))) : byLength;
}

// Two to four objects where an array of strings (or of anything else) is expected: empty ones and ones
// with prototype-named keys, maybe inside arrays of their own, in any order.
const objectItems: fc.Arbitrary<JText> = fc
  .array(fc.oneof(fc.constant(obj([])), protoObject(fc.oneof(scalar, fc.constant(obj([]))))), { minLength: 2, maxLength: 4 })
  .chain((items) => fc.boolean().map((wrap) => arr(wrap ? items.map((i) => arr([i])) : items)));

// Values on or past one of the schema's own bounds.
function edgeValue(s: Schema, opts: SchemaOptions): fc.Arbitrary<JText> {
  const kinds: Array<fc.WeightedArbitrary<JText>> = [{ arbitrary: fc.constantFrom(...WRONG_TYPES), weight: 2 }];
  if (s.type === 'integer' || s.type === 'number' || (s.enum ?? []).some((e: unknown) => typeof e === 'number')) kinds.push({ arbitrary: fc.constantFrom(...numberEdges(s)), weight: 4 });
  if (s.type === 'string' || (s.enum ?? []).some((e: unknown) => typeof e === 'string')) kinds.push({ arbitrary: stringEdges(s), weight: 4 });
  if (s.type === 'array') {
    const item = ownValue(s.items ?? {}, opts);
    const tooMany = (s.maxItems ?? 8) + 1;
    kinds.push(
      { arbitrary: fc.constant(arr([])), weight: 1 },
      { arbitrary: fc.array(item, { minLength: tooMany, maxLength: tooMany + 2 }).map(arr), weight: 1 },
      { arbitrary: item.map((v) => arr([v, v])), weight: 1 },
      { arbitrary: methodPairs, weight: 2 },
      { arbitrary: objectItems, weight: 4 },
    );
  }
  return fc.oneof(...kinds);
}

function objectValue(s: Schema, opts: SchemaOptions): fc.Arbitrary<JText> {
  const props = Object.entries<Schema>(s.properties ?? {});
  const required = new Set<string>(s.required ?? []);
  const member = ([name, sub]: [string, Schema]) =>
    fc.option(value(sub, opts).map((v): [string, JText] => [name, v]), { freq: required.has(name) ? 12 : 2, nil: null });
  return fc
    .tuple(fc.tuple(...props.map(member)), fc.oneof({ arbitrary: fc.constant([]), weight: 4 }, { arbitrary: hostileMembers(props.map(([n]) => n)), weight: 1 }), fc.nat())
    .map(([own, extra, turn]) => {
      const members: Array<[JText & { k: 'str' }, JText]> = own.filter((m): m is [string, JText] => m !== null).map(([k, v]) => [str(k), v]);
      const all = [...members, ...extra];
      const shift = all.length > 0 ? turn % all.length : 0;
      return { k: 'obj', members: [...all.slice(shift), ...all.slice(0, shift)] } satisfies JText;
    });
}

// A value the schema allows (or nearly: `uniqueItems` is left to chance).
function ownValue(s: Schema, opts: SchemaOptions): fc.Arbitrary<JText> {
  if (Array.isArray(s.enum)) return fc.constantFrom(...s.enum).map(fromValue);
  if ('const' in s) return fc.constant(fromValue(s.const));
  const alternatives = s.oneOf ?? s.anyOf;
  if (Array.isArray(alternatives)) return fc.oneof(...alternatives.map((a: Schema) => ownValue(a, opts)));
  switch (s.type) {
    case 'object':
      return objectValue(s, opts);
    case 'array':
      return fc.array(value(s.items ?? {}, opts), { minLength: s.minItems ?? 0, maxLength: s.maxItems ?? 5 }).map(arr);
    case 'string':
      if (typeof s.format === 'string' && Object.hasOwn(opts.formats, s.format)) return (opts.formats[s.format] as fc.Arbitrary<string>).map((t) => str(t));
      return fc.string({ minLength: s.minLength ?? 0, maxLength: Math.min(s.maxLength ?? 40, 300), unit: 'grapheme' }).map((t) => str(t));
    case 'integer':
      return fc.integer({ min: s.minimum ?? -1_000_000, max: s.maximum ?? 1_000_000 }).map((n) => lit(String(n)));
    case 'number':
      return fc.double({ min: s.minimum ?? -1e9, max: s.maximum ?? 1e9, noNaN: true }).map((n) => lit(JSON.stringify(n)));
    case 'boolean':
      return fc.boolean().map((b) => lit(String(b)));
    default:
      return hostileValue;
  }
}

// Any value for `s`: mostly allowed, sometimes on an edge, sometimes hostile.
export function value(s: Schema, opts: SchemaOptions): fc.Arbitrary<JText> {
  return fc.oneof({ arbitrary: ownValue(s, opts), weight: 8 }, { arbitrary: edgeValue(s, opts), weight: 2 }, { arbitrary: hostileValue, weight: 1 });
}

// A whole request body for an object schema; now and then not an object at all.
export function requestBody(s: Schema, opts: SchemaOptions): fc.Arbitrary<JText> {
  return fc.oneof({ arbitrary: objectValue(s, opts), weight: 12 }, { arbitrary: hostileValue, weight: 1 }, { arbitrary: fc.constant(obj([])), weight: 1 });
}
