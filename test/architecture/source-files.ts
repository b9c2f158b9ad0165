import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';

// The project root from dist/test/architecture, and every TypeScript file under src/ with its text.
export const ROOT = join(__dirname, '..', '..', '..');

export function sourceFiles(dir = join(ROOT, 'src')): Array<{ path: string; text: string }> {
  const out: Array<{ path: string; text: string }> = [];
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const full = join(dir, entry.name);
    if (entry.isDirectory()) out.push(...sourceFiles(full));
    else if (entry.name.endsWith('.ts')) out.push({ path: relative(ROOT, full), text: readFileSync(full, 'utf8') });
  }
  return out;
}
