/**
 * The one logger. Everything below the transports logs through {@link Logger} (a message and its structured data);
 * the process's implementation is pino, JSON lines on stderr, the same pino Fastify writes its own lines with.
 */
import { writeSync } from 'node:fs';
import { createRequire } from 'node:module';
import { pino } from 'pino';
import type { DestinationStream, Logger as Pino } from 'pino';
import type pinoPretty from 'pino-pretty';
import { projectPath } from './project-root.ts';

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
function isoTime(now = Date.now()): string {
  if (now !== lastMs) {
    lastMs = now;
    lastTime = `,"time":"${new Date(now).toISOString()}"`;
  }
  return lastTime;
}

/**
 * Lines are gathered in this many bytes outside the JS heap and written to stderr when full (a write per access line
 * cost a system call each)...
 */
const LOG_BUFFER_BYTES = 64 * 1024;
/** ... and written at most this long after they were logged, however quiet the process. */
export const LOG_FLUSH_MS = 100;
/** Lines held as their fields before they are rendered into the buffer ({@link BatchedStderr.hold}). */
const HELD_LINES = 128;

/**
 * pino's lines gathered into one buffer, written to stderr with one synchronous system call (pino's own default is
 * synchronous too). Each line is encoded into the buffer as it comes, so no batch of strings lives on the heap until
 * its write: on a busy price API, a batch kept as one string survived the young generation's collections, was copied
 * by each, and flattened and encoded at the write (a microsecond a line). An asynchronous write (pino's destination
 * with `sync: false`) cost more than building the lines: the text copied for the thread pool, a request object and a
 * callback.
 */
class BatchedStderr implements DestinationStream {
  private readonly buf = Buffer.allocUnsafe(LOG_BUFFER_BYTES);
  private used = 0;
  /** Lines held as their fields ({@link hold}): the item, then its renderer, for each. */
  private readonly held: unknown[] = new Array<unknown>(2 * HELD_LINES).fill(null);
  /** When each held line was logged (ms since the epoch). */
  private readonly heldAt = new Float64Array(HELD_LINES);
  private holding = 0;

  constructor() {
    setInterval(() => this.flush(), LOG_FLUSH_MS).unref();
    // What is still gathered when the process ends is written before it does.
    process.once('exit', () => this.flush());
  }

  /**
   * A line kept as `item` and rendered by `render` (with the time it was logged at, pino's `,"time":…`) when the
   * batch is written, or before any other line (lines stay in the order they were logged). Rendering the access
   * lines in a loop of their own, not each inside its request, took 3 % off a price request's CPU (1.6 µs).
   */
  hold<T>(item: T, render: (item: T, time: string) => string): void {
    const i = this.holding++;
    this.heldAt[i] = Date.now();
    this.held[2 * i] = item;
    this.held[2 * i + 1] = render;
    if (this.holding === HELD_LINES) this.renderHeld();
  }

  private renderHeld(): void {
    const n = this.holding;
    this.holding = 0;
    for (let i = 0; i < n; i++) {
      const render = this.held[2 * i + 1] as (item: unknown, time: string) => string;
      this.put(render(this.held[2 * i], isoTime(this.heldAt[i])));
      this.held[2 * i] = this.held[2 * i + 1] = null;
    }
  }

  write(line: string): void {
    if (this.holding > 0) this.renderHeld();
    this.put(line);
  }

  private put(line: string): void {
    // At most 3 bytes of UTF-8 for each UTF-16 unit.
    const most = line.length * 3;
    if (this.used + most > this.buf.length) {
      this.flush();
      if (most > this.buf.length) return writeAll(2, Buffer.from(line));
    }
    this.used += this.buf.write(line, this.used);
  }

  flush(): void {
    if (this.holding > 0) this.renderHeld();
    if (this.used === 0) return;
    const n = this.used;
    this.used = 0;
    writeAll(2, this.buf.subarray(0, n));
  }
}

/** How long a write waits for a full pipe (`EAGAIN`) to drain, at most, before the batch is dropped. */
const FULL_PIPE_WAIT_MS = 1_000;

/**
 * Writes all of `data` to `fd`, at once: the rest of a partial write after it, a full non-blocking pipe (`EAGAIN`)
 * waited for in steps of 10 ms up to {@link FULL_PIPE_WAIT_MS}. A reader that went away (`EPIPE`) or a closed stderr:
 * the lines are dropped, and serving goes on.
 */
function writeAll(fd: number, data: Buffer): void {
  let done = 0;
  for (let waited = 0; waited <= FULL_PIPE_WAIT_MS;) {
    try {
      done += writeSync(fd, data, done);
      if (done >= data.length) return;
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== 'EAGAIN') return;
      Atomics.wait(SLEEPER, 0, 0, 10);
      waited += 10;
    }
  }
}

const SLEEPER = new Int32Array(new SharedArrayBuffer(4));

/**
 * The process's pino: one JSON object a line, ISO timestamps, on `dest` — by default stderr, lines gathered up to
 * {@link LOG_BUFFER_BYTES} per write, and written at most {@link LOG_FLUSH_MS} after they were logged (a quiet
 * process's warnings are not held back), what is left when the process exits. On a terminal the same lines are printed
 * pretty (pino-pretty: time, level, message, fields), at once, unless `format` (`LOG_FORMAT`) says `json`.
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

/**
 * pino-pretty's stream: `[HH:MM:ss.l] LEVEL: message`, its fields indented below, colours on a terminal. pino-pretty
 * and its dependencies are loaded here, when a pretty log is asked for, not by every process that imports the logger.
 */
export const prettyStream = (destination: number | DestinationStream): DestinationStream =>
  (createRequire(projectPath('package.json'))('pino-pretty') as typeof pinoPretty)({
    destination,
    translateTime: 'SYS:HH:MM:ss.l',
    ignore: 'pid,hostname',
    colorize: typeof destination === 'number' && process.stderr.isTTY === true,
  });

/**
 * A writer of one message at info, in pino's own format and on pino's own stream, for the line a process writes per
 * request: pino's generic serializer was most of that line's cost. `fields` renders the line's own fields, each as
 * `,"name":value` (see {@link jsonString}). Null when `p` is above info.
 */
export function infoLineWriter<T>(p: Pino, msg: string, fields: (f: T) => string): ((f: T) => void) | null {
  if (!p.isLevelEnabled('info')) return null;
  const own = p as unknown as Record<symbol, unknown>;
  const stream = own[pino.symbols.streamSym] as DestinationStream;
  const head = `{"level":${p.levels.values['info']}`;
  const bindings = own[pino.symbols.chindingsSym] as string;
  const tail = `,"msg":${JSON.stringify(msg)}}\n`;
  // The line's start (level, time, the logger's bindings) made once per millisecond, as its time.
  let at = '';
  let start = '';
  const render = (f: T, time: string): string => {
    if (time !== at) start = head + (at = time) + bindings;
    return start + fields(f) + tail;
  };
  // On the default destination the line is held as its fields, rendered with the batch.
  if (stream instanceof BatchedStderr) return (f) => stream.hold(f, render);
  return (f) => stream.write(render(f, isoTime()));
}

/** Printable ASCII except `"` and backslash: written between quotes as it is. */
const PLAIN = /^[\x20\x21\x23-\x5b\x5d-\x7e]*$/;

/** `s` as a JSON string, as `JSON.stringify` writes it; a plain string (the usual) without calling it. */
export const jsonString = (s: string): string => (PLAIN.test(s) ? `"${s}"` : JSON.stringify(s));

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
