/**
 * The data work of start-up, timed by calling the functions the warm-up calls (PGlite on a temp dir, no server):
 * a first start on an empty store (`loadMarketData` → demo dataset generated and aggregated, then the demo proof of
 * reserves and `startMarket`'s first tick and rollup) and a restart on the same store (`market.load()` and the same
 * steps). Each phase runs in a child process of its own, so its CPU time, heap and RSS are its own.
 *
 * With `--baseline REV` the same phases also run on the code of git revision REV (extracted to a temp dir), in
 * alternating rounds of the same run, and the script prints ratios current / baseline.
 *
 * Run: `node bin/run-ts.js bench/startup-data.bench.ts [--rounds N] [--days N] [--baseline REV]`.
 */
import { execFileSync, spawnSync } from 'node:child_process';
import { copyFileSync, cpSync, mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import type * as DeploymentModule from '../src/bridge/deployment.ts';
import type * as ConfigModule from '../src/config.ts';
import type * as GcModule from '../src/start/collect-garbage.ts';
import type * as WiringModule from '../src/start/wiring.ts';
import type * as OpenModule from '../src/store/open.ts';

const HERE = resolve(import.meta.dirname, '..');

interface Figures {
  /** Opening the store (PGlite on a fresh or existing dir, migrations): not part of the data work. */
  openMs: number;
  /** From an opened store to ready: wall time, ms. */
  wallMs: number;
  /** CPU time of the process over the same span (user + sys), ms. */
  cpuMs: number;
  /** Each step's wall time, ms. */
  steps: Record<string, number>;
  /** JS heap in use at ready, after the warm-up's full collection, MiB. */
  heapMiB: number;
  /** RSS with the store open, before the data work (PGlite's share and the modules), MiB. */
  rssOpenMiB: number;
  /** RSS at ready, MiB. */
  rssReadyMiB: number;
  /** Highest RSS of the process (VmHWM), MiB. */
  rssPeakMiB: number;
  /** RSS 3 s after ready (V8 hands freed pages back to the system lazily), MiB. */
  rssSettledMiB: number;
}

function status(field: string): number {
  const m = new RegExp(`${field}:\\s+(\\d+) kB`).exec(readFileSync('/proc/self/status', 'utf8'));
  return m?.[1] ? Number(m[1]) / 1024 : NaN;
}

function cpuMs(): number {
  const u = process.cpuUsage();
  return (u.user + u.system) / 1000;
}

/** One phase in this process: the code under `root`, the store under `dataDir`. */
async function child(root: string, phase: string, dataDir: string, days: number): Promise<void> {
  const mod = <T>(p: string): Promise<T> => import(pathToFileURL(join(root, p)).href) as Promise<T>;
  const { loadConfig } = await mod<typeof ConfigModule>('src/config.ts');
  const { openDb } = await mod<typeof OpenModule>('src/store/open.ts');
  const wiring = await mod<typeof WiringModule>('src/start/wiring.ts');
  const { loadDeployment } = await mod<typeof DeploymentModule>('src/bridge/deployment.ts');
  const { collectGarbage } = await mod<typeof GcModule>('src/start/collect-garbage.ts');
  const cfg = loadConfig({ DATA_DIR: dataDir, DEMO_DAYS: String(days), LOG_LEVEL: 'silent' });
  const deployment = loadDeployment(cfg.bridgeNetwork, cfg.bridgeConfigDir);
  const log = { info() {}, warn() {}, error() {} };
  const tOpen = performance.now();
  const db = await openDb({ dataDir });
  const openMs = performance.now() - tOpen;
  const { market, useDemo } = wiring.marketFor(cfg, db, log, null);
  collectGarbage();
  const rssOpenMiB = status('VmRSS');
  const steps: Record<string, number> = {};
  const step = async <T>(name: string, fn: () => Promise<T>): Promise<T> => {
    const t = performance.now();
    const r = await fn();
    steps[name] = performance.now() - t;
    return r;
  };
  const c0 = cpuMs();
  const t0 = performance.now();
  await step('loadMarketData', () => wiring.loadMarketData(cfg, db, market, useDemo));
  await step('proofOfReserves', () => wiring.startProofOfReserves(cfg, db, deployment, null, log));
  // The first tick and the rollup, then ticking (whose timer never fires here; the history cache is written then).
  await step('startMarket', () => wiring.startMarket(market));
  await step('gc', async () => collectGarbage());
  const wallMs = performance.now() - t0;
  const cpu = cpuMs() - c0;
  const figures: Figures = {
    openMs,
    wallMs,
    cpuMs: cpu,
    steps,
    heapMiB: process.memoryUsage().heapUsed / 2 ** 20,
    rssOpenMiB,
    rssReadyMiB: status('VmRSS'),
    rssPeakMiB: status('VmHWM'),
    rssSettledMiB: 0,
  };
  await new Promise((r) => setTimeout(r, 3000));
  figures.rssSettledMiB = status('VmRSS');
  await market.stop();
  await db.close();
  process.stdout.write(`${JSON.stringify({ phase, figures })}\n`);
}

/** Extracts git revision `rev`'s sources into a temp dir that resolves this checkout's packages. */
function extract(rev: string): string {
  const dir = mkdtempSync(join(tmpdir(), 'cw-bench-base-'));
  const tar = execFileSync(
    'git',
    ['archive', rev, 'src', 'router', 'subgraphs', 'schema', 'config', 'package.json'],
    {
      cwd: HERE,
      maxBuffer: 1 << 30,
    },
  );
  spawnSync('tar', ['-x', '-C', dir], { input: tar });
  symlinkSync(join(HERE, 'node_modules'), join(dir, 'node_modules'));
  // The same prepared empty store as the current code opens (no initdb: its share of RSS is the same on both sides).
  cpSync(join(HERE, 'dist', 'pglite', 'template'), join(dir, 'dist', 'pglite', 'template'), {
    recursive: true,
  });
  copyFileSync(join(HERE, 'tsconfig.json'), join(dir, 'tsconfig.json'));
  return dir;
}

function runChild(root: string, phase: string, dataDir: string, days: number): Figures {
  const r = spawnSync(
    process.execPath,
    [
      join(HERE, 'bin', 'run-ts.js'),
      join(HERE, 'bench', 'startup-data.bench.ts'),
      '--child',
      root,
      phase,
      dataDir,
      String(days),
    ],
    { encoding: 'utf8', maxBuffer: 1 << 26 },
  );
  const line = r.stdout.split('\n').find((l) => l.startsWith('{"phase"'));
  if (r.status !== 0 || !line) throw new Error(`child ${phase} (${root}) failed: ${r.stderr}`);
  return (JSON.parse(line) as { figures: Figures }).figures;
}

function median(xs: number[]): number {
  const s = [...xs].sort((a, b) => a - b);
  const m = s.length >> 1;
  return s.length % 2 ? (s[m] as number) : ((s[m - 1] as number) + (s[m] as number)) / 2;
}

async function main(): Promise<void> {
  const argv = process.argv.slice(2);
  if (argv[0] === '--child') {
    await child(argv[1] as string, argv[2] as string, argv[3] as string, Number(argv[4]));
    return;
  }
  const flag = (name: string): string | undefined => {
    const i = argv.indexOf(name);
    return i >= 0 ? argv[i + 1] : undefined;
  };
  const rounds = Number(flag('--rounds') ?? 3);
  const days = Number(flag('--days') ?? 420);
  const baseline = flag('--baseline');
  const roots: [string, string][] = [['current', HERE]];
  const extracted: string[] = [];
  if (baseline) {
    const dir = extract(baseline);
    extracted.push(dir);
    roots.unshift([`baseline ${baseline}`, dir]);
  }
  const results = new Map<string, Map<string, Figures[]>>();
  const loads: number[] = [];
  try {
    for (let round = 0; round < rounds; round++) {
      // Alternate which code goes first, so neither always runs on the warmer machine.
      const order = round % 2 === 0 ? roots : [...roots].reverse();
      for (const [label, root] of order) {
        const dataDir = mkdtempSync(join(tmpdir(), 'cw-bench-start-'));
        try {
          for (const phase of ['first start', 'restart']) {
            loads.push(loadavg()[0] as number);
            const f = runChild(root, phase, dataDir, days);
            loads.push(loadavg()[0] as number);
            const byPhase = results.get(label) ?? new Map<string, Figures[]>();
            results.set(label, byPhase);
            byPhase.set(phase, [...(byPhase.get(phase) ?? []), f]);
            process.stderr.write(
              `round ${round + 1} ${label} ${phase}: wall ${f.wallMs.toFixed(0)} ms, cpu ${f.cpuMs.toFixed(0)} ms, ` +
                `heap ${f.heapMiB.toFixed(1)} MiB, rss ${f.rssOpenMiB.toFixed(0)} → ${f.rssReadyMiB.toFixed(0)} ` +
                `(peak ${f.rssPeakMiB.toFixed(0)}, 3 s later ${f.rssSettledMiB.toFixed(0)}) MiB; ${Object.entries(
                  f.steps,
                )
                  .map(([k, v]) => `${k} ${v.toFixed(0)}`)
                  .join(', ')}\n`,
            );
          }
        } finally {
          rmSync(dataDir, { recursive: true, force: true });
        }
      }
    }
  } finally {
    for (const d of extracted) rmSync(d, { recursive: true, force: true });
  }
  console.log(
    `\n${rounds} rounds, ${days} days; load average (1 min) during the run: ${Math.min(...loads).toFixed(2)}–${Math.max(...loads).toFixed(2)}`,
  );
  console.log(
    '| code | phase | wall ms | cpu ms | heap at ready MiB | RSS open → ready (peak; 3 s later) MiB |',
  );
  console.log('| --- | --- | --- | --- | --- | --- |');
  for (const [label, byPhase] of results) {
    for (const [phase, fs] of byPhase) {
      const m = (k: keyof Figures): number => median(fs.map((f) => f[k] as number));
      console.log(
        `| ${label} | ${phase} | ${m('wallMs').toFixed(0)} | ${m('cpuMs').toFixed(0)} | ${m('heapMiB').toFixed(1)} | ` +
          `${m('rssOpenMiB').toFixed(0)} → ${m('rssReadyMiB').toFixed(0)} (${m('rssPeakMiB').toFixed(0)}; ${m('rssSettledMiB').toFixed(0)}) |`,
      );
    }
  }
  if (baseline) {
    const base = results.get(`baseline ${baseline}`);
    const cur = results.get('current');
    console.log('\nratios current / baseline (medians):');
    for (const phase of ['first start', 'restart']) {
      const b = base?.get(phase) ?? [];
      const c = cur?.get(phase) ?? [];
      const r = (k: keyof Figures): string =>
        (median(c.map((f) => f[k] as number)) / median(b.map((f) => f[k] as number))).toFixed(3);
      console.log(
        `${phase}: wall ×${r('wallMs')}, cpu ×${r('cpuMs')}, heap ×${r('heapMiB')}, peak RSS ×${r('rssPeakMiB')}`,
      );
    }
  }
}

mkdirSync(tmpdir(), { recursive: true });
await main();
