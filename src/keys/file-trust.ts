import type { Stats } from 'node:fs';

// The keys file decides who gets which budget, so the server trusts it only as ssh's StrictModes trusts
// an authorized_keys file: its owner is the user the server runs as, or root, and neither its group nor
// others may write it. Anyone else who could write it could hand themselves a key.

// Why the file described by `stats` is not to be trusted, or null when it is.
export function distrustReason(path: string, stats: Stats, euid: number | undefined = process.geteuid?.()): string | null {
  if (euid !== undefined && stats.uid !== euid && stats.uid !== 0) {
    return `${path} is owned by uid ${stats.uid}, neither the user nettools runs as (uid ${euid}) nor root`;
  }
  const writers = [stats.mode & 0o020 ? 'its group' : '', stats.mode & 0o002 ? 'others' : ''].filter((w) => w !== '');
  if (writers.length > 0) {
    const mode = (stats.mode & 0o7777).toString(8).padStart(4, '0');
    return `${path} is writable by ${writers.join(' and ')} (mode ${mode}); chmod go-w it`;
  }
  return null;
}
