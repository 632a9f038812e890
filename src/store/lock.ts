/**
 * One owner per embedded store. The process that opens `DATA_DIR` holds `DATA_DIR/coinwallet.lock`: a file made with
 * exclusive creation, holding the owner's pid, its start time and, once it listens, its URL. A second process that
 * would open the same store is refused with a message naming the holder; a lock left by a process that died (kill -9,
 * a crash, a power cut) is taken over, and the caller logs that it was.
 *
 * A holder is alive when its pid runs and, where `/proc` tells, that process started when the lock says (so a pid
 * reused by another program after a reboot does not hold the store). Takeovers are serialised by a directory made
 * beside the lock (`mkdir` is atomic): two processes finding the same dead holder never both win.
 */
import {
  closeSync,
  fsyncSync,
  mkdirSync,
  openSync,
  readFileSync,
  renameSync,
  rmdirSync,
  statSync,
  unlinkSync,
  writeSync,
} from 'node:fs';
import { join, resolve } from 'node:path';

export const LOCK_FILE = 'coinwallet.lock';

/** What the lock file says. */
export interface LockHolder {
  pid: number;
  /** When the holder started (ISO time). */
  startedAt: string;
  /** The holder's start in clock ticks since boot (`/proc/<pid>/stat`), null where there is no `/proc`. */
  startTicks: number | null;
  /** What holds it: `serve`, `keys`, `ingest`… */
  command: string;
  /** Where the holder answers (`http://HOST:PORT`), once it listens; null before, and for commands that do not. */
  url: string | null;
}

/** Another live process holds the store: the message names it and says what to do. */
export class StoreLockedError extends Error {
  constructor(
    readonly dataDir: string,
    readonly holder: LockHolder,
  ) {
    super(
      `the embedded store in ${dataDir} is in use by coinwallet ${holder.command} (pid ${holder.pid}, started ` +
        `${holder.startedAt}${holder.url ? `, at ${holder.url}` : ''}); stop it first, or use its URL ` +
        `(--url, COINWALLET_URL), or give this process a DATA_DIR of its own`,
    );
  }
}

/** A held lock: {@link announce} the URL once listening; {@link release} when the store is closed. */
export interface StoreLock {
  readonly dataDir: string;
  /** The dead holder this lock was taken over from, if any (for the log). */
  readonly tookOverFrom: LockHolder | null;
  announce(url: string): void;
  release(): void;
}

/** Locks held by this process, by data directory: `announceUrl` finds them without a handle. */
const held = new Map<string, StoreLock>();

const TAKEOVER_STALE_MS = 10_000;

/**
 * Takes the lock of `dataDir` for this process (`command` says what holds it). Throws {@link StoreLockedError} when
 * a live process holds it, this one included (a second opening in one process is refused too).
 */
export function acquireStoreLock(dataDir: string, command: string): StoreLock {
  const dir = resolve(dataDir);
  mkdirSync(dir, { recursive: true });
  const path = join(dir, LOCK_FILE);
  const me: LockHolder = {
    pid: process.pid,
    startedAt: new Date(Date.now() - process.uptime() * 1000).toISOString(),
    startTicks: startTicksOf(process.pid),
    command,
    url: null,
  };
  let tookOverFrom: LockHolder | null = null;
  for (let attempt = 0; ; attempt++) {
    if (tryCreate(path, me)) break;
    const holder = readHolder(path);
    if (holder && isAlive(holder)) throw new StoreLockedError(dir, holder);
    if (!holder && recentlyWritten(path)) {
      // A holder between creating the file and writing it: alive, unless it stays empty.
      if (attempt > 20) throw new StoreLockedError(dir, unknownHolder());
      sleep(50);
      continue;
    }
    const taken = takeOver(path, holder, me);
    if (taken === 'busy') {
      if (attempt > 200) throw new Error(`cannot take over ${path}: another process keeps taking it over`);
      sleep(50);
      continue;
    }
    if (taken === 'taken') {
      tookOverFrom = holder;
      break;
    }
  }
  let current = me;
  const lock: StoreLock = {
    dataDir: dir,
    tookOverFrom,
    announce(url) {
      current = { ...current, url };
      // Written aside and renamed over the lock: a reader never sees half a file.
      const tmp = `${path}.${process.pid}.tmp`;
      writeHolder(tmp, current, 'w');
      renameSync(tmp, path);
    },
    release() {
      if (held.get(dir) !== lock) return;
      held.delete(dir);
      process.off('exit', lock.release);
      const now = readHolder(path);
      if (now?.pid === process.pid && now.startTicks === current.startTicks) unlinkQuietly(path);
    },
  };
  held.set(dir, lock);
  // A process that ends without closing its store leaves no lock behind (a crash still may: it is taken over).
  process.once('exit', lock.release);
  return lock;
}

/** Records the URL this process listens on in the lock it holds for `dataDir` (nothing when it holds none). */
export function announceUrl(dataDir: string, url: string): void {
  held.get(resolve(dataDir))?.announce(url);
}

/** The live process holding `dataDir`, or null when nobody does (no lock, or the lock of a dead process). */
export function storeHolder(dataDir: string): LockHolder | null {
  const holder = readHolder(join(resolve(dataDir), LOCK_FILE));
  return holder && isAlive(holder) ? holder : null;
}

function tryCreate(path: string, me: LockHolder): boolean {
  try {
    writeHolder(path, me, 'wx');
    return true;
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'EEXIST') return false;
    throw err;
  }
}

/**
 * Replaces the lock of a dead `holder` with ours, under the takeover directory. `busy`: another process is taking
 * it over now; `retry`: the lock changed meanwhile (look again).
 */
function takeOver(path: string, holder: LockHolder | null, me: LockHolder): 'taken' | 'busy' | 'retry' {
  const mutex = `${path}.takeover`;
  try {
    mkdirSync(mutex);
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== 'EEXIST') throw err;
    // A taker that died inside its takeover leaves the directory: old enough, it is removed.
    if (Date.now() - mtimeOf(mutex) > TAKEOVER_STALE_MS) rmdirQuietly(mutex);
    return 'busy';
  }
  try {
    const now = readHolder(path);
    if (JSON.stringify(now) !== JSON.stringify(holder)) return 'retry';
    unlinkQuietly(path);
    return tryCreate(path, me) ? 'taken' : 'retry';
  } finally {
    rmdirQuietly(mutex);
  }
}

function writeHolder(path: string, holder: LockHolder, flag: 'w' | 'wx'): void {
  const fd = openSync(path, flag, 0o644);
  try {
    writeSync(fd, JSON.stringify(holder) + '\n');
    fsyncSync(fd);
  } finally {
    closeSync(fd);
  }
}

function readHolder(path: string): LockHolder | null {
  let text: string;
  try {
    text = readFileSync(path, 'utf8');
  } catch {
    return null;
  }
  try {
    const h = JSON.parse(text) as Partial<LockHolder>;
    if (typeof h.pid !== 'number' || !Number.isInteger(h.pid) || h.pid <= 0) return null;
    return {
      pid: h.pid,
      startedAt: typeof h.startedAt === 'string' ? h.startedAt : 'unknown',
      startTicks: typeof h.startTicks === 'number' ? h.startTicks : null,
      command: typeof h.command === 'string' ? h.command : 'unknown',
      url: typeof h.url === 'string' ? h.url : null,
    };
  } catch {
    return null;
  }
}

/** The pid runs, and (where `/proc` tells) it is the process that took the lock, not a later one with its pid. */
function isAlive(h: LockHolder): boolean {
  try {
    process.kill(h.pid, 0);
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== 'EPERM') return false;
  }
  if (h.startTicks === null) return true;
  const ticks = startTicksOf(h.pid);
  return ticks === null || ticks === h.startTicks;
}

/** Field 22 of `/proc/<pid>/stat`: when the process started, in clock ticks since boot; null without `/proc`. */
function startTicksOf(pid: number): number | null {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    // The command name (field 2) is in parentheses and may hold spaces: count fields after its closing one.
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    const ticks = Number(fields[19]);
    return Number.isFinite(ticks) ? ticks : null;
  } catch {
    return null;
  }
}

function recentlyWritten(path: string): boolean {
  return Date.now() - mtimeOf(path) < 2_000;
}

function mtimeOf(path: string): number {
  try {
    return statSync(path).mtimeMs;
  } catch {
    return 0;
  }
}

function unknownHolder(): LockHolder {
  return { pid: 0, startedAt: 'unknown', startTicks: null, command: 'unknown', url: null };
}

function unlinkQuietly(path: string): void {
  try {
    unlinkSync(path);
  } catch {
    // already gone
  }
}

function rmdirQuietly(path: string): void {
  try {
    rmdirSync(path);
  } catch {
    // already gone
  }
}

/** Blocks this thread for `ms` (the lock is taken before anything else runs, once per process). */
function sleep(ms: number): void {
  Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, ms);
}
