/**
 * Start-up and the command line, before and after, in one run (issue 30): `npm run bench:startup`.
 *
 * For each variant — the checkout as it is (`current`) and a baseline commit (`BASELINE`, default 7b5863f, the last
 * commit before the compiled product) checked out into a temporary worktree sharing this node_modules — in
 * `RUNS` (default 3) interleaved rounds:
 *   - the CLI: `--version`, `--help`, `keys --help`, `serve -h` (wall time of the whole process), and `keys list`
 *     against the running server;
 *   - a first start on an empty DATA_DIR, from spawn to the `ready` line (the demo dataset generated and aggregated),
 *     with RSS and peak RSS at ready;
 *   - a restart on the same DATA_DIR, likewise.
 * Then an empty in-memory PGlite in a process of its own (RSS after initdb), so that RSS at ready can be judged beyond
 * PGlite's own share. Prints medians, ratios current / baseline, and the load average before and after each round.
 */
import { execFile, execFileSync, spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, symlinkSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { PROJECT_ROOT } from '../src/core/project-root.ts';

const RUNS = Number(process.env.RUNS ?? 3);
const CLI_RUNS = Number(process.env.CLI_RUNS ?? 5);
const BASELINE = process.env.BASELINE ?? '7b5863f';
const work = mkdtempSync(join(tmpdir(), 'cw-startup-'));

interface Variant {
  name: string;
  root: string;
}

/** The baseline commit in a worktree of its own, using this checkout's node_modules (the same packages). */
function checkoutBaseline(): Variant {
  const root = join(work, 'baseline');
  execFileSync('git', ['worktree', 'add', '--detach', root, BASELINE], {
    cwd: PROJECT_ROOT,
    stdio: 'ignore',
  });
  symlinkSync(join(PROJECT_ROOT, 'node_modules'), join(root, 'node_modules'));
  // A baseline from the compiled product on is run as `npm ci` leaves it: built.
  const scripts = (
    JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')) as { scripts?: Record<string, string> }
  ).scripts;
  if (scripts?.['build']) execFileSync('npm', ['run', '-s', 'build'], { cwd: root, stdio: 'ignore' });
  return { name: `baseline ${BASELINE}`, root };
}

const load = (): string =>
  loadavg()
    .map((l) => l.toFixed(2))
    .join(' ');

/** Wall time of one CLI run in seconds. */
function timeCli(v: Variant, args: string[], env: NodeJS.ProcessEnv = {}): Promise<number> {
  const t0 = performance.now();
  return new Promise((resolve, reject) =>
    execFile(
      process.execPath,
      [join(v.root, 'bin', 'coinwallet.js'), ...args],
      { cwd: v.root, env: { ...process.env, ...env } },
      (err) => (err ? reject(err) : resolve((performance.now() - t0) / 1000)),
    ),
  );
}

interface Started {
  seconds: number;
  rssMiB: number;
  peakMiB: number;
  url: string;
  stop(): Promise<void>;
}

const statusMiB = (pid: number, field: string): number => {
  const m = new RegExp(`^${field}:\\s+(\\d+) kB`, 'm').exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
  return Number(m?.[1] ?? 0) / 1024;
};

/** Starts `serve` on `dataDir`; resolves at its `ready` line with the time since spawn and its memory. */
function startServer(v: Variant, dataDir: string): Promise<Started> {
  const t0 = performance.now();
  const child = spawn(process.execPath, [join(v.root, 'bin', 'coinwallet.js'), 'serve'], {
    cwd: v.root,
    env: { ...process.env, PORT: '0', HOST: '127.0.0.1', DATA_DIR: dataDir, LOG_LEVEL: 'warn' },
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  const exited = new Promise<void>((r) => child.once('exit', () => r()));
  let out = '';
  return new Promise((resolve, reject) => {
    const early = (code: number | null): void => reject(new Error(`${v.name} exited ${code}:\n${out}`));
    child.once('exit', early);
    child.stderr.on('data', (d: Buffer) => {
      out += d.toString();
      if (!/coinwallet: ready/.test(out)) return;
      child.stderr.removeAllListeners('data');
      child.stderr.resume();
      const pid = child.pid ?? 0;
      resolve({
        seconds: (performance.now() - t0) / 1000,
        rssMiB: statusMiB(pid, 'VmRSS'),
        peakMiB: statusMiB(pid, 'VmHWM'),
        url: /listening on (http:\/\/[^\s/]+)/.exec(out)?.[1] ?? '',
        stop: () => {
          child.off('exit', early);
          child.kill('SIGTERM');
          return exited;
        },
      });
    });
  });
}

/** RSS of a process that has created an empty in-memory PGlite (initdb) and run one query. */
function emptyPgliteMiB(): number {
  const script = `import { PGlite } from '@electric-sql/pglite';
    const pg = new PGlite(); await pg.waitReady; await pg.query('select 1');
    console.log(process.memoryUsage().rss / 2 ** 20); process.exit(0);`;
  return Number(execFileSync(process.execPath, ['--input-type=module', '-e', script], { cwd: PROJECT_ROOT }));
}

const median = (xs: number[]): number => {
  const s = [...xs].sort((a, b) => a - b);
  return s.length % 2
    ? (s[(s.length - 1) / 2] ?? NaN)
    : ((s[s.length / 2 - 1] ?? 0) + (s[s.length / 2] ?? 0)) / 2;
};

type Sample = Record<string, number[]>;
const record = (s: Sample, k: string, v: number) => (s[k] ??= []).push(v);

const CLI_CASES: [string, string[]][] = [
  ['--version', ['--version']],
  ['--help', ['--help']],
  ['keys --help', ['keys', '--help']],
  ['serve -h', ['serve', '-h']],
];

async function round(v: Variant, s: Sample, i: number): Promise<void> {
  for (const [label, args] of CLI_CASES)
    for (let k = 0; k < CLI_RUNS; k++) record(s, `cli ${label} (s)`, await timeCli(v, args));
  const dataDir = join(work, `${v.name.split(' ')[0]}-${i}`);
  const before = load();
  const first = await startServer(v, dataDir);
  record(s, 'first start (s)', first.seconds);
  record(s, 'first start RSS (MiB)', first.rssMiB);
  record(s, 'first start peak RSS (MiB)', first.peakMiB);
  for (let k = 0; k < CLI_RUNS; k++)
    record(
      s,
      'cli keys list, server running (s)',
      await timeCli(v, ['keys', 'list'], { DATA_DIR: dataDir, COINWALLET_URL: first.url }),
    );
  await first.stop();
  const again = await startServer(v, dataDir);
  record(s, 'restart (s)', again.seconds);
  record(s, 'restart RSS (MiB)', again.rssMiB);
  await again.stop();
  rmSync(dataDir, { recursive: true, force: true });
  process.stdout.write(
    `round ${i + 1} ${v.name}: first ${first.seconds.toFixed(1)} s, restart ${again.seconds.toFixed(1)} s, ` +
      `RSS ${first.rssMiB.toFixed(0)} / ${again.rssMiB.toFixed(0)} MiB (load ${before} → ${load()})\n`,
  );
}

const baseline = checkoutBaseline();
const current: Variant = { name: 'current', root: PROJECT_ROOT };
try {
  process.stdout.write(`startup benchmark: ${RUNS} rounds, load average ${load()}\n`);
  const samples = new Map<Variant, Sample>([
    [baseline, {}],
    [current, {}],
  ]);
  for (let i = 0; i < RUNS; i++) {
    // Interleaved, alternating which goes first, so that drift on a shared machine falls on both alike.
    const order = i % 2 ? [current, baseline] : [baseline, current];
    for (const v of order) await round(v, samples.get(v) ?? {}, i);
  }
  const pglite = Array.from({ length: RUNS }, emptyPgliteMiB);
  const b = samples.get(baseline) ?? {};
  const c = samples.get(current) ?? {};
  process.stdout.write(`\nmedians (${RUNS} rounds; CLI: ${RUNS * CLI_RUNS} runs each)\n`);
  process.stdout.write(
    `${'measure'.padEnd(36)} ${'baseline'.padStart(10)} ${'current'.padStart(10)} ${'ratio'.padStart(8)}\n`,
  );
  for (const k of Object.keys(c)) {
    const mb = median(b[k] ?? []);
    const mc = median(c[k] ?? []);
    process.stdout.write(
      `${k.padEnd(36)} ${mb.toFixed(2).padStart(10)} ${mc.toFixed(2).padStart(10)} ${(mc / mb).toFixed(3).padStart(8)}\n`,
    );
  }
  const empty = median(pglite);
  process.stdout.write(
    `\nempty in-memory PGlite (initdb), RSS: ${empty.toFixed(0)} MiB (median of ${RUNS})\n`,
  );
  for (const [label, s] of [
    ['baseline', b],
    ['current', c],
  ] as const)
    process.stdout.write(
      `${label}: RSS at ready − empty PGlite: first start ${(median(s['first start RSS (MiB)'] ?? []) - empty).toFixed(0)} MiB, ` +
        `restart ${(median(s['restart RSS (MiB)'] ?? []) - empty).toFixed(0)} MiB\n`,
    );
  process.stdout.write(`load average at the end: ${load()}\n`);
} finally {
  rmSync(join(baseline.root, 'node_modules')); // the link, not what it points to
  execFileSync('git', ['worktree', 'remove', '--force', baseline.root], {
    cwd: PROJECT_ROOT,
    stdio: 'ignore',
  });
  rmSync(work, { recursive: true, force: true });
}
