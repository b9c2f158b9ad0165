import { execFileSync } from 'node:child_process';

// Fails early, naming what is missing and how to get it, when a program a run needs is not installed.
export function checkTools(tools: readonly string[], install: string): void {
  const missing = tools.filter((t) => {
    try {
      execFileSync('sh', ['-c', `command -v ${t}`], { stdio: 'ignore' });
      return false;
    } catch {
      return true;
    }
  });
  if (missing.length > 0) throw new Error(`missing ${missing.join(', ')}: ${install}`);
}
