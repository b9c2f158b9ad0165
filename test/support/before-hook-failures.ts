// Preloaded by `npm test` (`uvu -r`). uvu 0.5 runs a suite's `before` hooks inside a try/finally whose
// `return` swallows the hook's error: the suite's tests never run, nothing is reported as failed and the
// run exits 0. Every `before` hook is wrapped here so that its error is printed where it happens and the
// run exits 1; the suite's tests still count as not passed in uvu's Total/Passed lines.
type Hook = (state: unknown) => unknown;
interface Registrar {
  (name: string, handler: Hook): void;
  before: ((hook: Hook) => void) & { each: (hook: Hook) => void };
}
interface UvuExports {
  test: Registrar;
  suite: (name?: string, state?: unknown) => Registrar;
}

// Mutable on purpose: the wrappers replace properties of uvu's own CommonJS exports object.
const uvu = require('uvu') as UvuExports;
const failures: string[] = [];

// The file uvu is loading when a hook is registered (its CLI queues the file name before requiring it).
function currentFile(): string {
  const g = globalThis as { UVU_QUEUE?: unknown[][]; UVU_INDEX?: number };
  const name = g.UVU_QUEUE?.[g.UVU_INDEX ?? 0]?.[0];
  return typeof name === 'string' ? name : '(unknown file)';
}

function guardBefore(registrar: Registrar, suiteName: string): void {
  const register = registrar.before;
  const each = register.each;
  const guarded = ((hook: Hook) => {
    const where = [currentFile(), suiteName].filter(Boolean).join(' / ');
    register(async (state: unknown) => {
      try {
        await hook(state);
      } catch (err) {
        const text = err instanceof Error ? (err.stack ?? err.message) : String(err);
        failures.push(where);
        console.error(`\n✘ before hook failed in ${where}; its tests did not run:\n${text}\n`);
        throw err;
      }
    });
  }) as Registrar['before'];
  guarded.each = each;
  registrar.before = guarded;
}

guardBefore(uvu.test, '');
const makeSuite = uvu.suite;
uvu.suite = (name = '', state?: unknown) => {
  const registrar = makeSuite(name, state);
  guardBefore(registrar, name);
  return registrar;
};

process.on('exit', () => {
  if (failures.length === 0) return;
  console.error(`✘ ${failures.length} before hook(s) failed: ${failures.join(', ')}`);
  process.exitCode = 1;
});
