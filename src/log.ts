import pino from 'pino';
import type { Config } from './config/types';

type Level = 'debug' | 'info' | 'warn' | 'error';

export interface Logger {
  log(level: Level, msg: string, fields?: Record<string, unknown>): void;
  // Lets a hot path skip building fields nobody will write.
  enabled(level: Level): boolean;
  // Writes out what is buffered; call before process.exit.
  flush(): void;
}

export interface LineSink {
  write(line: string): void;
}

// One JSON object per line on stdout (pino, written asynchronously off the request path). `fields` go
// on every line.
export function createLogger(level: Config['logLevel'], sink?: LineSink, fields?: Record<string, unknown>): Logger {
  const destination = sink ?? pino.destination({ dest: 1, sync: false, minLength: 0 });
  const logger = pino(
    {
      level,
      base: fields ?? undefined, // e.g. the worker thread's index
      messageKey: 'msg',
      timestamp: pino.stdTimeFunctions.isoTime,
      formatters: { level: (label) => ({ level: label }) },
    },
    destination as pino.DestinationStream,
  );
  return {
    log(lvl, msg, fields = {}) {
      logger[lvl](fields, msg);
    },
    enabled: (lvl) => logger.isLevelEnabled(lvl),
    flush() {
      if (!sink) (destination as ReturnType<typeof pino.destination>).flushSync();
    },
  };
}
