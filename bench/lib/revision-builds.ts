import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { say } from './log';

// A revision built in a git worktree of its own, outside the clone, kept by commit id: a later run against
// the same commit reuses the build (npm ci and the addon take minutes here). The marker is written last,
// so a build that failed or was interrupted is redone, not served.

const CACHE = path.join(tmpdir(), 'nettools-revisions');
const MARKER = '.nettools-revision-built';

export interface RevisionBuild {
  label: string; // what the reader asked for: the revision as given, or "working tree"
  commit: string;
  dirty: boolean; // the working tree only: uncommitted changes are part of what is measured
  entry: string; // dist/src/main.js of that build
}

export function resolveCommit(root: string, rev: string): string {
  try {
    return execFileSync('git', ['rev-parse', '--verify', '--quiet', `${rev}^{commit}`], { cwd: root }).toString().trim();
  } catch {
    throw new Error(`"${rev}" is not a commit of this repository`);
  }
}

export function buildRevision(root: string, rev: string): RevisionBuild {
  const commit = resolveCommit(root, rev);
  const dir = path.join(CACHE, commit);
  const entry = path.join(dir, 'dist', 'src', 'main.js');
  if (existsSync(path.join(dir, MARKER)) && existsSync(entry)) {
    say(`${rev} (${commit.slice(0, 12)}): reusing the build in ${dir}`);
    return { label: rev, commit, dirty: false, entry };
  }
  if (existsSync(dir)) {
    execFileSync('git', ['worktree', 'remove', '--force', dir], { cwd: root, stdio: 'ignore' });
    rmSync(dir, { recursive: true, force: true });
  }
  mkdirSync(CACHE, { recursive: true });
  execFileSync('git', ['worktree', 'prune'], { cwd: root, stdio: 'ignore' });
  say(`${rev} (${commit.slice(0, 12)}): git worktree and npm ci in ${dir}`);
  quiet('git', ['worktree', 'add', '--detach', dir, commit], root);
  // npm ci runs the addon's node-gyp build (install) and the TypeScript build (prepare).
  quiet('npm', ['ci', '--no-audit', '--no-fund'], dir);
  if (!existsSync(entry)) throw new Error(`npm ci in ${dir} left no dist/src/main.js`);
  writeFileSync(path.join(dir, MARKER), `${commit}\n`);
  return { label: rev, commit, dirty: false, entry };
}

// node-gyp talks at length on stderr: shown only when the step fails, its last lines with the error.
function quiet(command: string, args: string[], cwd: string): void {
  try {
    execFileSync(command, args, { cwd, stdio: ['ignore', 'pipe', 'pipe'], maxBuffer: 64 * 1024 * 1024 });
  } catch (err) {
    const e = err as { stdout?: Buffer; stderr?: Buffer; message: string };
    const tail = `${e.stdout?.toString() ?? ''}${e.stderr?.toString() ?? ''}`.trim().split('\n').slice(-30).join('\n');
    throw new Error(`${command} ${args.join(' ')} in ${cwd} failed: ${e.message}\n${tail}`);
  }
}

// This clone as the npm script has just built it (addon and dist/).
export function workingTreeBuild(root: string, commit: string, dirty: boolean): RevisionBuild {
  return { label: 'working tree', commit, dirty, entry: path.join(root, 'dist', 'src', 'main.js') };
}
