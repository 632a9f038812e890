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
 * pino's ISO time (`,"time":"…"`), formatted once per millisecond: a busy process writes several lines in each, and
 * `toISOString` was the dearest part of an access line.
 */
let lastMs = -1;
let lastTime = '';
function isoTime(): string {
  const now = Date.now();
  if (now !== lastMs) {
    lastMs = now;
    lastTime = `,"time":"${new Date(now).toISOString()}"`;
  }
  return lastTime;
}

/** Lines are gathered up to this many per write to stderr (a write per access line cost a system call each)… */
const LOG_BATCH_LINES = 128;
/** ... and written at most this long after they were logged, however quiet the process. */
export const LOG_FLUSH_MS = 100;

/**
 * pino's lines gathered into one string per write of pino's asynchronous destination (SonicBoom): it measures the
 * UTF-8 length of every string it is given, which for one line each was the dearest part of an access line.
 */
class BatchedStderr implements DestinationStream {
  private lines: string[] = [];
  private readonly out = pino.destination({ dest: 2, sync: false });

  constructor() {
    setInterval(() => this.flush(), LOG_FLUSH_MS).unref();
    // What is still gathered when the process ends is written before it does.
    process.once('exit', () => {
      this.flush();
      try {
        this.out.flushSync();
      } catch {
        // stderr is gone: nothing to write to
      }
    });
  }

  write(line: string): void {
    this.lines.push(line);
    if (this.lines.length >= LOG_BATCH_LINES) this.flush();
  }

  flush(): void {
    if (this.lines.length === 0 || (this.out as { destroyed?: boolean }).destroyed) return;
    this.out.write(this.lines.length === 1 ? (this.lines[0] as string) : this.lines.join(''));
    this.lines = [];
  }
}

/**
 * The process's pino: one JSON object a line, ISO timestamps, on `dest` — by default stderr through pino's own
 * asynchronous destination, without blocking the event loop on a slow reader: lines gathered up to
 * {@link LOG_BATCH_LINES} per write, and written at most {@link LOG_FLUSH_MS} after they were logged (a quiet
 * process's warnings are not held back), what is left when the process exits. On a terminal the same lines are
 * printed pretty (pino-pretty: time, level, message, fields), at once, unless `format` (`LOG_FORMAT`) says `json`.
 */
export function createPino(level: LogLevel, dest?: DestinationStream, format?: 'json' | 'pretty'): Pino {
  const options = { level, timestamp: isoTime };
  if (dest) return pino(options, dest);
  if (logFormat(format, process.stderr.isTTY) === 'pretty') return pino(options, prettyStream(2));
  return pino(options, new BatchedStderr());
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

/**
 * A writer of one message at info, in pino's own format and on pino's own stream, for the line a process writes per
 * request: pino's generic serializer was most of that line's cost. Fields are strings and numbers (left out when
 * undefined; a number that is not finite is written `null`), their names plain identifiers. Null when `p` is above
 * info.
 */
export function infoLineWriter(
  p: Pino,
  msg: string,
): ((fields: Readonly<Record<string, unknown>>) => void) | null {
  if (!p.isLevelEnabled('info')) return null;
  const own = p as unknown as Record<symbol, unknown>;
  const stream = own[pino.symbols.streamSym] as DestinationStream;
  const head = `{"level":${p.levels.values['info']}`;
  const bindings = own[pino.symbols.chindingsSym] as string;
  const tail = `,"msg":${JSON.stringify(msg)}}\n`;
  return (fields) => {
    let line = head + isoTime() + bindings;
    for (const k in fields) {
      const v = fields[k];
      if (v === undefined) continue;
      line += `,"${k}":${typeof v === 'number' ? (Number.isFinite(v) ? String(v) : 'null') : JSON.stringify(v)}`;
    }
    stream.write(line + tail);
  };
}

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
