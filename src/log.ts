import type { Config } from './config/types';

const LEVELS = { debug: 10, info: 20, warn: 30, error: 40, silent: 100 } as const;
type Level = Exclude<keyof typeof LEVELS, 'silent'>;

export interface Logger {
  log(level: Level, msg: string, fields?: Record<string, unknown>): void;
}

// One JSON object per line on stdout, so log shippers need no parser of ours.
export function createLogger(level: Config['logLevel'], write: (line: string) => void = (l) => process.stdout.write(l)): Logger {
  const threshold = LEVELS[level];
  return {
    log(lvl, msg, fields = {}) {
      if (LEVELS[lvl] < threshold) return;
      write(JSON.stringify({ time: new Date().toISOString(), level: lvl, msg, ...fields }) + '\n');
    },
  };
}
