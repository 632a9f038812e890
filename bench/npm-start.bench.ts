/**
 * The README's first command as a new user meets it (issue 30): `npm start` in a checkout (a fresh clone after its
 * `npm ci`), 3 runs of a first start on an empty `DATA_DIR`, then a restart on it, each timed from spawning `npm start`
 * to the `ready` line on its stderr (npm's own start-up included). Run: `node bin/run-ts.js bench/npm-start.bench.ts
 * <checkout>` (default: this one). Figures only, with the load average; never asserted.
 */
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { PROJECT_ROOT } from '../src/core/project-root.ts';

const root = resolve(process.argv[2] ?? PROJECT_ROOT);
const RUNS = Number(process.env.RUNS ?? 3);
// Between the first start's ready and its stop: its history is stored in the background meanwhile.
const HOLD_MS = Number(process.env.HOLD_MS ?? 12_000);

interface Started {
  ms: number;
  stop: () => Promise<void>;
}

/** `npm start` in its own process group (so that SIGTERM reaches npm, its shell and the server), ready. */
function start(dataDir: string): Promise<Started> {
  const t0 = performance.now();
  const child = spawn('npm', ['start'], {
    cwd: root,
    detached: true,
    env: { ...process.env, PORT: '0', DATA_DIR: dataDir },
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  const exited = new Promise<void>((r) => child.once('exit', () => r()));
  let out = '';
  return new Promise((resolveStart, reject) => {
    const failed = (code: number | null) => reject(new Error(`npm start exited ${code}:\n${out}`));
    child.once('exit', failed);
    child.stderr.on('data', (d: Buffer) => {
      out += d.toString();
      if (!out.includes('coinwallet: ready')) return;
      child.stderr.removeAllListeners('data');
      child.stderr.resume();
      // Only the refusal: `exited` keeps its own listener (removing every one left `stop` waiting forever).
      child.removeListener('exit', failed);
      resolveStart({
        ms: performance.now() - t0,
        stop: async () => {
          process.kill(-(child.pid as number), 'SIGTERM');
          await exited;
          // npm exits at the signal; the server closes its store after it: wait until the whole group is gone.
          while (groupAlive(child.pid as number)) await new Promise((r) => setTimeout(r, 20));
        },
      });
    });
  });
}

/** Whether any process of the group `pgid` is still running. */
function groupAlive(pgid: number): boolean {
  try {
    process.kill(-pgid, 0);
    return true;
  } catch {
    return false;
  }
}

const load = (): string =>
  loadavg()
    .map((x) => x.toFixed(2))
    .join(' ');

process.stdout.write(`npm start in ${root}: ${RUNS} runs\n`);
for (let i = 1; i <= RUNS; i++) {
  const dataDir = mkdtempSync(join(tmpdir(), 'cw-npm-start-'));
  const before = load();
  const first = await start(dataDir);
  await new Promise((r) => setTimeout(r, HOLD_MS));
  await first.stop();
  const again = await start(dataDir);
  await again.stop();
  rmSync(dataDir, { recursive: true, force: true });
  process.stdout.write(
    `run ${i}: first start ${(first.ms / 1000).toFixed(2)} s, restart ${(again.ms / 1000).toFixed(2)} s ` +
      `(load ${before} → ${load()})\n`,
  );
}
