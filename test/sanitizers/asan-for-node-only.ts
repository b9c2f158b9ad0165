// Loaded into every node process of the sanitizer run (NODE_OPTIONS=--require, see run.sh).
// The ASan runtime is preloaded through LD_PRELOAD, which every child would inherit, but only node loads
// the instrumented addon. Other programs the tests start (knotd, kdig, ip, iptables, python3) are not
// ours, and some do not survive it: kdig hung for minutes with libasan preloaded. So a child that is not
// node gets its environment without LD_PRELOAD; a node child keeps it and loads this file in turn, also
// when it is started through a launcher (`ip netns exec <ns> node ...`), which then execs it.
import childProcess from 'node:child_process';
import path from 'node:path';

type Env = NodeJS.ProcessEnv;

function isNode(file: unknown): boolean {
  return typeof file === 'string' && (file === process.execPath || path.basename(file) === 'node');
}

function runsNode(file: unknown, args: unknown): boolean {
  return isNode(file) || (Array.isArray(args) && args.some(isNode));
}

function withoutPreload(env: Env): Env {
  const copy = { ...env };
  delete copy['LD_PRELOAD'];
  return copy;
}

// Every asynchronous spawn (spawn, execFile, exec, fork) ends in ChildProcess#spawn with the environment
// already flattened into "NAME=value" pairs.
interface SpawnOptions {
  file?: string;
  args?: string[];
  envPairs?: string[];
}
const proto = childProcess.ChildProcess.prototype as unknown as { spawn(options: SpawnOptions): unknown };
const spawnAsync = proto.spawn;
proto.spawn = function (this: unknown, options: SpawnOptions) {
  if (!runsNode(options.file, options.args) && Array.isArray(options.envPairs)) {
    options.envPairs = options.envPairs.filter((pair) => !pair.startsWith('LD_PRELOAD='));
  }
  return spawnAsync.call(this, options);
};

// The synchronous ones reach an internal binding directly, so their exported entry points are wrapped:
// the options object (wherever it sits among the arguments) gets an environment without LD_PRELOAD.
type SyncFn = (...args: unknown[]) => unknown;
function wrapSync(name: 'spawnSync' | 'execFileSync' | 'execSync'): void {
  const exports = childProcess as unknown as Record<string, SyncFn>;
  const original = exports[name]!;
  exports[name] = (...args: unknown[]) => {
    // execSync runs a shell command line: never node here, so always stripped.
    if (name !== 'execSync' && runsNode(args[0], args[1])) return original(...args);
    const at = args.findIndex((a, i) => i > 0 && a !== null && typeof a === 'object' && !Array.isArray(a));
    if (at >= 0) {
      const options = args[at] as { env?: Env };
      args[at] = { ...options, env: withoutPreload(options.env ?? process.env) };
    } else {
      args.push({ env: withoutPreload(process.env) });
    }
    return original(...args);
  };
}
wrapSync('spawnSync');
wrapSync('execFileSync');
wrapSync('execSync');
