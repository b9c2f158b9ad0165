// The ICMP engine's counters as a tool's metrics: one counter per family, read at scrape time from the
// worker's one engine (shared by ping and traceroute).
import type { Registry } from 'prom-client';
import type { FamilyStats } from '../engines/icmp/types';
import { counterReadAtScrape } from '../observability/plain-counter';

export type EngineStats = () => { v4: FamilyStats; v6: FamilyStats };

export function familyCounter(registry: Registry, name: string, help: string, read: EngineStats, field: keyof FamilyStats): void {
  counterReadAtScrape(registry, name, help, ['family'], () => {
    const stats = read();
    return [
      [{ family: '4' }, stats.v4[field]],
      [{ family: '6' }, stats.v6[field]],
    ];
  });
}
