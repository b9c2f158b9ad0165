import type { SoakResult } from './types';

// Indented, except the samples: one line each, so a 30-minute run stays a readable file.
export function resultJson(r: SoakResult): string {
  const { samples, ...rest } = r;
  const head = JSON.stringify({ ...rest, samples: [] }, null, 1).replace(/,\n\s*"samples": \[\]\n\}$/, '');
  return `${head},\n "samples": [\n${samples.map((s) => `  ${JSON.stringify(s)}`).join(',\n')}\n ]\n}\n`;
}
