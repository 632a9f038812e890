/**
 * The embedded store's lock (src/store/lock.ts): one live owner, refusals naming it, dead owners' locks taken over
 * (a dead pid, a pid reused by a later process, a file left unreadable), and one winner when several processes take
 * over the same dead lock at once.
 */
import { execFile, execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, describe, expect, it } from 'vitest';
import {
  acquireStoreLock,
  announceUrl,
  LOCK_FILE,
  storeHolder,
  StoreLockedError,
} from '../../src/store/lock.ts';

const root = mkdtempSync(join(tmpdir(), 'cw-lockunit-'));
afterAll(() => rmSync(root, { recursive: true, force: true }));
let n = 0;
const freshDir = () => join(root, `d${n++}`);
const lockOf = (dir: string) =>
  JSON.parse(readFileSync(join(dir, LOCK_FILE), 'utf8')) as Record<string, unknown>;

/** The pid of a process that has ended. */
const deadPid = (): number =>
  Number(execFileSync(process.execPath, ['-e', 'console.log(process.pid)']).toString());

describe('one owner', () => {
  it('holds the lock with its pid, start time and, once announced, its URL; releases it on close', () => {
    const dir = freshDir();
    const lock = acquireStoreLock(dir, 'serve');
    expect(lockOf(dir)).toMatchObject({ pid: process.pid, command: 'serve', url: null });
    expect(storeHolder(dir)?.pid).toBe(process.pid);
    announceUrl(dir, 'http://127.0.0.1:4411');
    expect(lockOf(dir)).toMatchObject({ url: 'http://127.0.0.1:4411' });
    lock.release();
    expect(storeHolder(dir)).toBeNull();
    acquireStoreLock(dir, 'keys').release();
  });

  it('refuses a second opening while the owner lives (this process too), naming it', () => {
    const dir = freshDir();
    const lock = acquireStoreLock(dir, 'serve');
    announceUrl(dir, 'http://127.0.0.1:4411');
    try {
      expect(() => acquireStoreLock(dir, 'keys')).toThrow(StoreLockedError);
      expect(() => acquireStoreLock(dir, 'keys')).toThrow(
        new RegExp(
          `in use by coinwallet serve \\(pid ${process.pid}, started .*, at http://127\\.0\\.0\\.1:4411\\)`,
        ),
      );
    } finally {
      lock.release();
    }
  });
});

describe('a dead owner’s lock is taken over', () => {
  it.each([
    ['a pid that no longer runs', () => ({ pid: deadPid(), startTicks: null })],
    ['a pid reused by a later process (its start time differs)', () => ({ pid: process.pid, startTicks: 1 })],
  ])('%s', (_, holder) => {
    const dir = freshDir();
    const lock = acquireStoreLock(dir, 'serve');
    lock.release();
    const dead = { startedAt: '2026-01-01T00:00:00.000Z', command: 'serve', url: 'http://x:1', ...holder() };
    writeFileSync(join(dir, LOCK_FILE), JSON.stringify(dead));
    expect(storeHolder(dir)).toBeNull();
    const taken = acquireStoreLock(dir, 'serve');
    try {
      expect(taken.tookOverFrom).toMatchObject({ pid: dead.pid, command: 'serve' });
      expect(lockOf(dir)).toMatchObject({ pid: process.pid });
    } finally {
      taken.release();
    }
  });

  it('an unreadable lock file left long ago (a crash while writing it)', () => {
    const dir = freshDir();
    acquireStoreLock(dir, 'serve').release();
    writeFileSync(join(dir, LOCK_FILE), '');
    const old = new Date(Date.now() - 60_000);
    utimesSync(join(dir, LOCK_FILE), old, old);
    const taken = acquireStoreLock(dir, 'serve');
    expect(taken.tookOverFrom).toBeNull();
    taken.release();
  });

  it('four processes taking over the same dead lock at once: exactly one wins', async () => {
    const dir = freshDir();
    acquireStoreLock(dir, 'serve').release();
    writeFileSync(join(dir, LOCK_FILE), JSON.stringify({ pid: deadPid(), startedAt: 'x', command: 'serve' }));
    const script = join(root, 'take.mts');
    writeFileSync(
      script,
      `import { acquireStoreLock } from ${JSON.stringify(join(import.meta.dirname, '../../src/store/lock.ts'))};
       try { acquireStoreLock(process.argv[2], 'ingest'); console.log('won'); await new Promise((r) => setTimeout(r, 1500)); }
       catch (e) { console.log(e.constructor.name); }`,
    );
    const runTs = join(import.meta.dirname, '..', '..', 'bin', 'run-ts.js');
    const outs = await Promise.all(
      Array.from({ length: 4 }, () => promisify(execFile)(process.execPath, [runTs, script, dir])),
    );
    const results = outs.map((o) => o.stdout.trim()).sort();
    expect(results).toEqual(['StoreLockedError', 'StoreLockedError', 'StoreLockedError', 'won']);
  });
});
