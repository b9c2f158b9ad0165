import type { Case } from './cases';

// Every request the HTTP fuzzer (or its first study) found to break the server, replayed by name in
// `npm test`. Add each new finding here, with what it broke, once it is fixed (or before, to prove it).
export interface Regression {
  name: string;
  case: Case;
  status?: number; // the answer it must get, where one is certain
}

const json = (path: string, body: string): Case => ({ method: 'POST', path, headers: { 'content-type': 'application/json' }, body: Buffer.from(body, 'utf8') });
const dns = (body: string) => json('/api/tools/dns', body);
const ping = (body: string) => json('/api/tools/ping', body);
const probe = (query: string): Case => ({ method: 'GET', path: `/probe?${query}`, headers: {} });

// The process ended: ajv's uniqueItems compared two object items with fast-deep-equal, which called
// the second one's `valueOf` (or `toString`), a number; the TypeError escaped uWS's data callback.
const UNIQUE_ITEMS: Regression[] = [
  { name: 'dns types [{}, {"valueOf":1}] is a 400, not a crash', case: dns('{"types":[{},{"valueOf":1}]}'), status: 400 },
  { name: 'dns types [{}, {"toString":1}] is a 400, not a crash', case: dns('{"types":[{},{"toString":1}]}'), status: 400 },
  { name: 'dns types [{"valueOf":1}, {}] (the other order) is a 400', case: dns('{"types":[{"valueOf":1},{}]}'), status: 400 },
  { name: 'dns resolvers [{}, {"valueOf":1}] is a 400, not a crash', case: dns('{"domain":"fuzz.test","resolvers":[{},{"valueOf":1}]}'), status: 400 },
  { name: 'dns resolvers [{}, {"toString":1}] is a 400, not a crash', case: dns('{"domain":"fuzz.test","resolvers":[{},{"toString":1}]}'), status: 400 },
  { name: 'dns types of nested arrays [[{"valueOf":1}],[{}]] is a 400', case: dns('{"types":[[{"valueOf":1}],[{}]]}'), status: 400 },
  { name: 'dns types [[{}],[{"valueOf":1}]] is a 400', case: dns('{"types":[[{}],[{"valueOf":1}]]}'), status: 400 },
  { name: 'dns types [{}, {"valueOf":{}}] is a 400', case: dns('{"domain":"fuzz.test","types":[{},{"valueOf":{}}]}'), status: 400 },
  { name: 'dns types [{"a":{}}, {"a":{"valueOf":1}}] (deep inside the items) is a 400', case: dns('{"types":[{"a":{}},{"a":{"valueOf":1}}]}'), status: 400 },
  { name: 'dns types [{}, {"constructor":1}] is a 400', case: dns('{"types":[{},{"constructor":1}]}'), status: 400 },
  { name: 'dns types [{}, {"toJSON":1}] is a 400', case: dns('{"types":[{},{"toJSON":1}]}'), status: 400 },
];

// Prototype-named members at the top of a body and nested in it.
const PROTO_NAMED: Regression[] = [
  { name: 'dns with a top-level "hasOwnProperty" member is a 400', case: dns('{"domain":"fuzz.test","hasOwnProperty":1}'), status: 400 },
  { name: 'dns with a top-level "constructor" member is a 400', case: dns('{"domain":"fuzz.test","constructor":{"prototype":{"x":1}}}'), status: 400 },
  { name: 'dns with a top-level "__proto__" member is a 400', case: dns('{"domain":"fuzz.test","__proto__":{"types":["A"]}}'), status: 400 },
  { name: 'dns with only "__proto__" naming the domain is a 400', case: dns('{"__proto__":{"domain":"fuzz.test"}}'), status: 400 },
  { name: 'dns with "hasOwnProperty" nested in types is a 400', case: dns('{"domain":"fuzz.test","types":[{"hasOwnProperty":1}]}'), status: 400 },
  { name: 'dns with "__proto__" nested in resolvers is a 400', case: dns('{"domain":"fuzz.test","resolvers":[{"__proto__":[]},{"__proto__":null}]}'), status: 400 },
  { name: 'dns with "constructor" nested twice in types is a 400', case: dns('{"domain":"fuzz.test","types":[{"constructor":{"constructor":1}},{"constructor":{}}]}'), status: 400 },
  { name: 'ping with a top-level "hasOwnProperty" member is a 400', case: ping('{"host":"127.0.0.1","hasOwnProperty":1}'), status: 400 },
  { name: 'ping with a top-level "__proto__" member is a 400', case: ping('{"host":"127.0.0.1","__proto__":{"count":1}}'), status: 400 },
  { name: 'ping with a top-level "constructor" member is a 400', case: ping('{"host":"127.0.0.1","constructor":{"valueOf":1}}'), status: 400 },
  { name: 'ping with "toString" nested in host is a 400', case: ping('{"host":{"toString":1,"valueOf":1}}'), status: 400 },
  { name: 'ping with "__proto__" nested in count is a 400', case: ping('{"host":"127.0.0.1","count":{"__proto__":{"valueOf":1}}}'), status: 400 },
  { name: 'probe with a "__proto__" parameter is a 400', case: probe('module=dns&target=fuzz.test&__proto__=1'), status: 400 },
  { name: 'probe with a "constructor" module is a 400', case: probe('module=constructor&target=fuzz.test'), status: 400 },
  { name: 'probe with a "hasOwnProperty" parameter is a 400', case: probe('hasOwnProperty=1&module=icmp&target=127.0.0.1'), status: 400 },
];

export const REGRESSIONS: readonly Regression[] = [...UNIQUE_ITEMS, ...PROTO_NAMED];
