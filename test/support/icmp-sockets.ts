// The ICMP sockets this process holds, per family: its socket descriptors (/proc/self/fd) whose inodes the
// kernel lists among the raw and ping sockets of this network namespace (/proc/self/net/raw, icmp, ...).
import { readFileSync, readdirSync, readlinkSync } from 'node:fs';

function inodes(table: string): Set<string> {
  let text: string;
  try {
    text = readFileSync(`/proc/self/net/${table}`, 'utf8');
  } catch {
    return new Set();
  }
  // Columns: sl local rem st tx:rx tr:when retrnsmt uid timeout inode ...
  return new Set(text.split('\n').slice(1).map((line) => line.trim().split(/\s+/)[9]).filter((x): x is string => x !== undefined));
}

export function icmpSockets(): { v4: number; v6: number } {
  const v4 = new Set([...inodes('raw'), ...inodes('icmp')]);
  const v6 = new Set([...inodes('raw6'), ...inodes('icmp6')]);
  const counts = { v4: 0, v6: 0 };
  for (const fd of readdirSync('/proc/self/fd')) {
    let target: string;
    try {
      target = readlinkSync(`/proc/self/fd/${fd}`);
    } catch {
      continue; // closed since the listing
    }
    const inode = /^socket:\[(\d+)\]$/.exec(target)?.[1];
    if (inode === undefined) continue;
    if (v4.has(inode)) counts.v4++;
    if (v6.has(inode)) counts.v6++;
  }
  return counts;
}
