import { spawnSync } from 'node:child_process';
import path from 'node:path';
import { test } from 'uvu';
import * as assert from 'uvu/assert';

const MODULE = path.resolve(__dirname, '..', '..', 'src', 'observability', 'last-resort.js');
const LOG = path.resolve(__dirname, '..', '..', 'src', 'log.js');

// A thread with the last-resort handler installed: a throw from a timer and a rejection nobody
// handles are each logged and counted, and the thread carries on to its own end.
function run(body: string) {
  const source = `
    const { installLastResort, uncaughtErrors } = require(${JSON.stringify(MODULE)});
    const { createLogger } = require(${JSON.stringify(LOG)});
    const lines = [];
    installLastResort(createLogger('error', { write: (l) => lines.push(l) }));
    ${body}
    setTimeout(() => { console.log(JSON.stringify({ count: uncaughtErrors(), lines: lines.map((l) => JSON.parse(l).msg) })); }, 100);`;
  const child = spawnSync(process.execPath, ['-e', source], { encoding: 'utf8', timeout: 10_000 });
  return { status: child.status, out: child.stdout.trim() === '' ? null : JSON.parse(child.stdout.trim().split('\n').pop() as string) };
}

test('a throw from a timer is logged and counted, and the process goes on', () => {
  const { status, out } = run(`setTimeout(() => { throw new Error('timer bug'); }, 10);`);
  assert.is(status, 0);
  assert.equal(out, { count: 1, lines: ['uncaught exception; the server goes on'] });
});

test('a rejection nobody handles is logged and counted, and the process goes on', () => {
  const { status, out } = run(`Promise.reject(new Error('store bug'));`);
  assert.is(status, 0);
  assert.equal(out, { count: 1, lines: ['uncaught rejection; the server goes on'] });
});

test('without the handler the same throw ends the process (what the handler is for)', () => {
  const child = spawnSync(process.execPath, ['-e', `setTimeout(() => { throw new Error('timer bug'); }, 10); setTimeout(() => console.log('alive'), 100);`], { encoding: 'utf8', timeout: 10_000 });
  assert.is.not(child.status, 0);
  assert.not.match(child.stdout, 'alive');
});

test.run();
