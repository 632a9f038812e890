/**
 * Memory of the embedded server with the demo dataset loaded: RSS of a real `coinwallet serve` process after
 * `/healthz` turns 200 (first start: generate + aggregate; second start: load from the store), against the RSS of
 * an idle Node process in the same run (the floor). Run: `npm run bench:memory`.
 */
import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startServe, waitForStatus } from '../test/support/process.ts';

function rssMiB(pid: number): number {
  const m = /VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
  return m?.[1] ? Number(m[1]) / 1024 : NaN;
}

async function idleNodeRss(): Promise<number> {
  const child = spawn(process.execPath, ['-e', 'setTimeout(() => {}, 60000)'], { stdio: 'ignore' });
  await new Promise((r) => setTimeout(r, 500));
  const v = rssMiB(child.pid as number);
  child.kill('SIGKILL');
  return v;
}

const dataDir = mkdtempSync(join(tmpdir(), 'cw-bench-mem-'));
try {
  const floor = await idleNodeRss();
  const rows: [string, number, number][] = [];
  for (const label of ['first start (generate + aggregate 420 days)', 'restart (load from store)']) {
    const t0 = Date.now();
    const p = await startServe({ DATA_DIR: dataDir }, 120_000);
    await waitForStatus(`${p.url}/healthz`, 200, 600_000);
    const secs = (Date.now() - t0) / 1000;
    await new Promise((r) => setTimeout(r, 1000));
    rows.push([label, rssMiB(p.child.pid as number), secs]);
    await p.stop('SIGTERM');
  }
  console.log(`idle node process RSS (floor): ${floor.toFixed(1)} MiB`);
  for (const [label, rss, secs] of rows) {
    console.log(
      `${label}: RSS ${rss.toFixed(1)} MiB (${(rss / floor).toFixed(1)}× the floor), ready in ${secs.toFixed(1)} s`,
    );
  }
} finally {
  rmSync(dataDir, { recursive: true, force: true });
}
