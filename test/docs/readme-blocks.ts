import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { ROOT } from '../architecture/source-files';

// The README's marked code blocks, as a reader copies them: the fenced block right after an HTML comment
// `<!-- trial: NAME -->`, cut into command lines (a line ending in a backslash goes on; comment lines and
// blank lines are not commands, a trailing `# ...` stays: the shell drops it as it would for the reader).

export function markedBlock(name: string, text = readFileSync(join(ROOT, 'README.md'), 'utf8')): string {
  const marker = `<!-- trial: ${name} -->\n`;
  const at = text.indexOf(marker);
  if (at < 0) throw new Error(`README.md has no ${marker.trim()}`);
  const fence = /^```sh\n([\s\S]*?)^```$/m.exec(text.slice(at + marker.length));
  if (fence === null || fence.index !== 0) throw new Error(`README.md's ${marker.trim()} is not followed by a sh block`);
  return fence[1] as string;
}

export function commandsOf(block: string): string[] {
  const commands: string[] = [];
  let pending = '';
  for (const line of block.split('\n')) {
    if (pending === '' && (line.trim() === '' || line.trim().startsWith('#'))) continue;
    if (line.endsWith('\\')) {
      pending += line + '\n';
      continue;
    }
    commands.push(pending + line);
    pending = '';
  }
  if (pending !== '') throw new Error(`a command ends with a backslash: ${pending}`);
  return commands;
}
