// The engine's types in one place. Values are imported from the file that defines them: a value
// re-exported here would compile to a getter that turns this module's exports into a dictionary
// (test/architecture/module-exports.test.ts).
export type { PingLimits, Range } from './native';
export type * from './types';
