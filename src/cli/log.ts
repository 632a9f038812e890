import type { Logger } from '../market/service.ts';

const ORDER = { info: 0, warn: 1, error: 2, silent: 3 } as const;

/** Logs one line per event to stderr: `level message {json}`. Secrets never reach the logger. */
export function createLogger(
  level: keyof typeof ORDER,
  stream: NodeJS.WritableStream = process.stderr,
): Logger {
  const min = ORDER[level];
  const write = (lvl: 'info' | 'warn' | 'error', msg: string, data?: Record<string, unknown>) => {
    if (ORDER[lvl] < min) return;
    stream.write(`${new Date().toISOString()} ${lvl} ${msg}${data ? ' ' + JSON.stringify(data) : ''}\n`);
  };
  return {
    info: (m, d) => write('info', m, d),
    warn: (m, d) => write('warn', m, d),
    error: (m, d) => write('error', m, d),
  };
}
