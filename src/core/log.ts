/**
 * The one logger. Everything below the transports logs through {@link Logger} (a message and its structured data);
 * the process's implementation is pino, JSON lines on stderr, the same pino Fastify writes its own lines with.
 */
import { writeSync } from 'node:fs';
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
 * pino's lines gathered into one string, written to stderr with one synchronous system call (pino's own default is
 * synchronous too). Measured on a busy price API, per batch of 128 lines: an asynchronous write (pino's destination
 * with `sync: false`) cost more than building the lines, the string copied for the thread pool, a request object and
 * a callback; pino's synchronous destination twice a plain `writeSync`, measuring each batch's UTF-8 length on the way.
 */
class BatchedStderr implements DestinationStream {
  private pending = '';
  private count = 0;

  constructor() {
    setInterval(() => this.flush(), LOG_FLUSH_MS).unref();
    // What is still gathered when the process ends is written before it does.
    process.once('exit', () => this.flush());
  }

  write(line: string): void {
    this.pending += line;
    if (++this.count >= LOG_BATCH_LINES) this.flush();
  }

  flush(): void {
    if (this.count === 0) return;
    const text = this.pending;
    this.pending = '';
    this.count = 0;
    writeAll(2, text);
  }
}

/** How long a write waits for a full pipe (`EAGAIN`) to drain, at most, before the batch is dropped. */
const FULL_PIPE_WAIT_MS = 1_000;

/**
 * Writes all of `text` to `fd`, at once: the rest of a partial write after it, a full non-blocking pipe (`EAGAIN`)
 * waited for in steps of 10 ms up to {@link FULL_PIPE_WAIT_MS}. A reader that went away (`EPIPE`) or a closed stderr:
 * the lines are dropped, and serving goes on.
 */
function writeAll(fd: number, text: string): void {
  let buf: Buffer | null = null;
  let done = 0;
  for (let waited = 0; waited <= FULL_PIPE_WAIT_MS;) {
    try {
      if (buf === null) {
        const n = writeSync(fd, text);
        if (n === Buffer.byteLength(text)) return;
        buf = Buffer.from(text);
        done = n;
      } else done += writeSync(fd, buf, done);
      if (done >= buf.length) return;
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== 'EAGAIN') return;
      Atomics.wait(SLEEPER, 0, 0, 10);
      waited += 10;
    }
  }
}

const SLEEPER = new Int32Array(new SharedArrayBuffer(4));

/**
 * The process's pino: one JSON object a line, ISO timestamps, on `dest` — by default stderr, lines gathered up to {@link LOG_BATCH_LINES} per write, and written at most {@link LOG_FLUSH_MS} after
 * they were logged (a quiet process's warnings are not held back), what is left when the process exits. On a terminal the same lines are
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

type PinoMethod = 'fatal' | 'error' | 'warn' | 'info' | 'debug' | 'trace';

/**
 * A request's logger (Fastify's `childLoggerFactory`) that makes pino's child, with the request id bound, only when a
 * line is actually written: pino serialises a child's bindings when it is made, on every request, at whatever level
 * (1.6 % of a keyed price request, where nothing is logged).
 */
export class LazyChildLogger {
  private made: Pino | null = null;

  constructor(
    private readonly parent: Pino,
    private readonly bindings: Record<string, unknown>,
    private readonly opts: Record<string, unknown>,
  ) {}

  private real(): Pino {
    return (this.made ??= this.parent.child(this.bindings, this.opts));
  }

  private write(level: PinoMethod, args: unknown[]): void {
    if (!(this.made ?? this.parent).isLevelEnabled(level)) return;
    (this.real()[level] as (...a: unknown[]) => void)(...args);
  }

  get level(): string {
    return (this.made ?? this.parent).level;
  }
  set level(v: string) {
    this.real().level = v;
  }
  isLevelEnabled(level: string): boolean {
    return (this.made ?? this.parent).isLevelEnabled(level);
  }
  child(bindings: Record<string, unknown>, opts?: Record<string, unknown>): Pino {
    return this.real().child(bindings, opts);
  }
  fatal(...args: unknown[]): void {
    this.write('fatal', args);
  }
  error(...args: unknown[]): void {
    this.write('error', args);
  }
  warn(...args: unknown[]): void {
    this.write('warn', args);
  }
  info(...args: unknown[]): void {
    this.write('info', args);
  }
  debug(...args: unknown[]): void {
    this.write('debug', args);
  }
  trace(...args: unknown[]): void {
    this.write('trace', args);
  }
  silent(): void {}
}
