/**
 * The one logger. Everything below the transports logs through {@link Logger} (a message and its structured data);
 * the process's implementation is pino, JSON lines on stderr, the same pino Fastify writes its own lines with.
 */
import { pino } from 'pino';
import type { DestinationStream, Logger as Pino } from 'pino';
import pretty from 'pino-pretty';

export type LogLevel = 'info' | 'warn' | 'error' | 'silent';

export interface Logger {
  info(msg: string, data?: Record<string, unknown>): void;
  warn(msg: string, data?: Record<string, unknown>): void;
  error(msg: string, data?: Record<string, unknown>): void;
}

export const silentLogger: Logger = { info() {}, warn() {}, error() {} };

/**
 * The process's pino: one JSON object a line, ISO timestamps, on `dest` — by default stderr through pino's own
 * asynchronous destination (each line written at once, without blocking the event loop on a slow reader; no
 * buffering to a minimum length, which would hold a quiet process's warnings back; pino writes what is left when
 * the process exits). On a terminal the same lines are printed pretty
 * (pino-pretty: time, level, message, fields) unless `format` (`LOG_FORMAT`) says `json`.
 */
export function createPino(level: LogLevel, dest?: DestinationStream, format?: 'json' | 'pretty'): Pino {
  const options = { level, timestamp: pino.stdTimeFunctions.isoTime };
  if (dest) return pino(options, dest);
  if (logFormat(format, process.stderr.isTTY) === 'pretty') return pino(options, prettyStream(2));
  return pino(options, pino.destination({ dest: 2, sync: false }));
}

/** The format asked for (`LOG_FORMAT`), else pretty on a terminal and JSON anywhere else. */
export function logFormat(setting: string | undefined, isTTY: boolean | undefined): 'json' | 'pretty' {
  if (setting === 'json' || setting === 'pretty') return setting;
  return isTTY ? 'pretty' : 'json';
}

/** pino-pretty's stream: `[HH:MM:ss.l] LEVEL: message`, its fields indented below, colours on a terminal. */
export const prettyStream = (destination: number | DestinationStream): DestinationStream =>
  pretty({
    destination,
    translateTime: 'SYS:HH:MM:ss.l',
    ignore: 'pid,hostname',
    colorize: typeof destination === 'number' && process.stderr.isTTY === true,
  });

/** The {@link Logger} view of a pino logger: `warn(msg, data)` writes pino's `warn(data, msg)`. */
export function loggerOf(p: Pino): Logger {
  const at =
    (level: 'info' | 'warn' | 'error') =>
    (msg: string, data?: Record<string, unknown>): void =>
      data === undefined ? p[level](msg) : p[level](data, msg);
  return { info: at('info'), warn: at('warn'), error: at('error') };
}

/** A {@link Logger} over a new pino at `level`: what the command line's one-shot commands log with. */
export const createLogger = (level: LogLevel, dest?: DestinationStream): Logger =>
  loggerOf(createPino(level, dest));
