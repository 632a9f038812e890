import { spawn } from 'node:child_process';
import { closeSync, openSync, readFileSync } from 'node:fs';
import type { ChildProcess } from 'node:child_process';
import { join } from 'node:path';

const ROOT = join(import.meta.dirname, '..', '..');

/**
 * A `coinwallet serve` child process, started with PORT=0; `url` (scheme, host and port, no path) comes from its
 * start-up line: `listening on http://…` of the whole product or of one graph part (`serve --only …`).
 */
export interface ServeProcess {
  child: ChildProcess;
  url: string;
  output: () => string;
  /** Sends a signal and waits for exit. */
  stop(signal?: NodeJS.Signals): Promise<number | null>;
}

export async function startServe(
  env: Record<string, string>,
  timeoutMs = 60_000,
  nodeArgs: readonly string[] = [],
  /** Extra `serve` arguments, e.g. `['--only', 'router']`. */
  serveArgs: readonly string[] = [],
  /**
   * Where the child's stderr (its log) goes: a file, written by the child alone (a benchmark's server as a log shipper
   * would tail it); unset: kept in memory for `output()`.
   */
  stderrFile?: string,
): Promise<ServeProcess> {
  const logFd = stderrFile === undefined ? null : openSync(stderrFile, 'w');
  const child = spawn(
    process.execPath,
    [...nodeArgs, join(ROOT, 'bin', 'coinwallet.js'), 'serve', ...serveArgs],
    {
      cwd: ROOT,
      env: { ...process.env, PORT: '0', HOST: '127.0.0.1', LOG_LEVEL: 'warn', ...env },
      stdio: ['ignore', 'pipe', logFd ?? 'pipe'],
    },
  );
  if (logFd !== null) closeSync(logFd);
  let out = '';
  child.stdout?.on('data', (d: Buffer) => (out += d.toString()));
  child.stderr?.on('data', (d: Buffer) => (out += d.toString()));
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  const url = await new Promise<string>((resolve, reject) => {
    const timer = setTimeout(() => {
      child.kill('SIGKILL'); // the caller gets no handle to stop it
      reject(new Error(`no listening line after ${timeoutMs} ms:\n${out}`));
    }, timeoutMs);
    const check = () => {
      // `listening on http://127.0.0.1:1234 (health: …)` or `subgraph:markets listening on http://127.0.0.1:1234/graphql`
      const m = /listening on (http:\/\/[^\s/]+)/.exec(out);
      if (m?.[1]) {
        clearTimeout(timer);
        if (poll) clearInterval(poll);
        // Once found, stop: matching the whole output again on every chunk is quadratic in a verbose child's output.
        child.stderr?.off('data', check);
        resolve(m[1]);
      }
    };
    child.stderr?.on('data', check);
    // A file instead of a pipe: read back until the listening line is there.
    const poll =
      stderrFile === undefined
        ? null
        : setInterval(() => {
            out = readFileSync(stderrFile, 'utf8');
            check();
          }, 50);
    child.once('exit', (code) => {
      clearTimeout(timer);
      if (poll) clearInterval(poll);
      reject(new Error(`exited with ${code} before listening:\n${out}`));
    });
  });
  return {
    child,
    url,
    output: () => (stderrFile === undefined ? out : readFileSync(stderrFile, 'utf8')),
    async stop(signal = 'SIGTERM') {
      if (child.exitCode === null) child.kill(signal);
      return exited;
    },
  };
}

/** Polls `url` until it answers `status` (never a fixed sleep); returns the statuses seen before it. */
export async function waitForStatus(
  url: string,
  status: number,
  timeoutMs: number,
): Promise<{ seen: number[]; body: unknown }> {
  const seen: number[] = [];
  const end = Date.now() + timeoutMs;
  while (Date.now() < end) {
    try {
      const r = await fetch(url);
      const body: unknown = await r.json();
      if (r.status === status) return { seen, body };
      if (seen[seen.length - 1] !== r.status) seen.push(r.status);
    } catch {
      // not accepting connections yet
    }
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error(`${url} did not answer ${status} within ${timeoutMs} ms (saw ${seen.join(', ')})`);
}
