import { measureNativeDns } from './native';
import { measureNodeResolver } from './node-resolver';
import type { DnsEngineOptions } from './questions';

// `node dns-child.js native|node-resolver '<DnsEngineOptions as JSON>'`: one JavaScript DNS engine
// measured in a process of its own, its result printed as one line of JSON (see in-child.ts).
async function main(): Promise<void> {
  const [which, json] = process.argv.slice(2);
  const opts = JSON.parse(json ?? '') as DnsEngineOptions;
  const result = which === 'native' ? await measureNativeDns(opts) : which === 'node-resolver' ? await measureNodeResolver(opts) : null;
  if (result === null) throw new Error(`unknown engine "${which}"`);
  process.stdout.write(`${JSON.stringify(result)}\n`);
}

main().then(
  () => process.exit(0),
  (err: unknown) => {
    process.stderr.write(`${err instanceof Error ? err.message : String(err)}\n`);
    process.exit(1);
  },
);
