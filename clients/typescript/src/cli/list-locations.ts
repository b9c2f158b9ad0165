import type { NettoolsClient } from '../client.js';
import type { Location } from '../types.js';
import type { Command } from './args.js';
import type { Deadline } from './deadline.js';
import { EXIT } from './exit-codes.js';
import { refused } from './refused.js';
import { oneLine } from './terminal.js';

interface Io {
  out(line: string): void;
  err(line: string): void;
}

const isText = (v: unknown) => typeof v === 'string';
const isLocation = (v: unknown): v is Location => {
  const l = v as Location | null;
  return typeof l === 'object' && l !== null && isText(l.name) && isText(l.version) && isText(l.connectedSince) && Array.isArray(l.tools) && l.tools.every(isText) && typeof l.labels === 'object' && l.labels !== null && Object.values(l.labels).every(isText);
};

// The rows padded to their widest cell, columns two spaces apart.
function table(rows: string[][]): string[] {
  const widths = rows[0]!.map((_, i) => Math.max(...rows.map((r) => r[i]!.length)));
  return rows.map((r) => r.map((cell, i) => (i === r.length - 1 ? cell : cell.padEnd(widths[i]!))).join('  '));
}

// `nettools locations`: where the server can measure from (itself first, then its agents), as a table
// or, with --json, the API's answer.
export async function listLocations(client: NettoolsClient, cmd: Extract<Command, { command: 'locations' }>, io: Io, deadline: Deadline): Promise<number> {
  const answer = await client.locations({ signal: deadline.signal });
  if (!answer.ok && deadline.expired) return io.err(`nettools: no answer from ${cmd.server} within the deadline of ${deadline.ms / 1000} s`), EXIT.noAnswer;
  if (!answer.ok) return refused(answer, { server: cmd.server }, io, cmd.json ? (p) => io.out(JSON.stringify(p, null, 2)) : null);
  if (!Array.isArray(answer.value) || !answer.value.every(isLocation)) return io.err(`nettools: no usable answer from ${cmd.server}: not a list of locations`), EXIT.noAnswer;
  if (cmd.json) return io.out(JSON.stringify(answer.value, null, 2)), EXIT.ok;
  const rows = answer.value.map((l) => [
    l.name,
    Object.entries(l.labels).map(([k, v]) => `${k}=${v}`).join(',') || '-',
    l.tools.join(','),
    l.version,
    l.connectedSince,
  ]);
  for (const line of table([['NAME', 'LABELS', 'TOOLS', 'VERSION', 'SINCE'], ...rows.map((r) => r.map(oneLine))])) io.out(line);
  return EXIT.ok;
}
