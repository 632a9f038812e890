/**
 * Soak: does the server's memory stay flat under long mixed traffic, and come back after a burst? One embedded server
 * (`coinwallet serve` on a new `DATA_DIR`, demo data), two enterprise keys made through the operator endpoint (one for
 * the steady traffic, one for the burst, so that the burst's refusals never touch the steady client), then:
 *
 * - steady traffic for `DURATION` s (default 600) at `RATE` requests a second (default 25), open loop: graph
 *   queries, price API requests and name resolutions, each drawn at random (`bench/soak/traffic.ts`);
 * - `SUBSCRIPTIONS` live streams (default 6; WebSocket and SSE) held open and re-opened all through the run;
 * - at `BURST_AT` s (default 40 % of the run), a burst of `BURST_SECONDS` (default 20): randomised enterprise graph
 *   load over `BURST_CONNECTIONS` (default 48) connections as fast as the server and the plan allow.
 *
 * Every 10 s it prints the server's RSS (`/proc/<pid>/status`) and V8 heap (the `/metrics` of `METRICS_PORT`); at
 * the end the slope after the warm-up (`WARMUP` s, default 60; least squares over the steady samples, those of the
 * burst and the minute after it left out) and the recovery (RSS 60 s after the burst against before it and the
 * start). It prints figures and never asserts them. `SNAPSHOT_DIR=dir` takes heap snapshots of the server after the
 * warm-up, before the burst, 60 s after it and at the end (`bench/soak/heap-diff.ts` compares two); they pause the
 * server, so take figures from a run without. `SERVER_NODE_ARGS` passes options to the server's `node`.
 * Run: `npm run bench:soak` (`DURATION=120 WARMUP=20 BURST_AT=40` for a short check).
 */
import { mkdtempSync, readFileSync, readdirSync, renameSync, rmSync } from 'node:fs';
import { Agent, createServer } from 'node:http';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { startServe, waitForStatus } from '../test/support/process.ts';
import { holdSubscriptions } from './soak/subscriptions.ts';
import { Draw, burstCall, send, steadyCall } from './soak/traffic.ts';
import { mulberry32 } from '../src/demo/random.ts';
import type { Statuses, Vocabulary } from './soak/traffic.ts';

const env = process.env;
const DURATION = Number(env.DURATION ?? 600);
const RATE = Number(env.RATE ?? 25);
const WARMUP = Number(env.WARMUP ?? 60);
const BURST_AT = Number(env.BURST_AT ?? Math.round(DURATION * 0.4));
const BURST_SECONDS = Number(env.BURST_SECONDS ?? 20);
const BURST_CONNECTIONS = Number(env.BURST_CONNECTIONS ?? 48);
const SUBSCRIPTIONS = Number(env.SUBSCRIPTIONS ?? 6);
const SEED = Number(env.SEED ?? 20261128);
const SNAPSHOT_DIR = env.SNAPSHOT_DIR;
const SERVER_NODE_ARGS = (env.SERVER_NODE_ARGS ?? '').split(' ').filter(Boolean);
const RECOVERY = 60;

/** The server's resident memory, MB (Linux). */
function rssMb(pid: number): number {
  const m = /VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
  return m ? Number(m[1]) / 1024 : NaN;
}

/** A free loopback port for `METRICS_PORT`. */
function freePort(): Promise<number> {
  return new Promise((resolve) => {
    const s = createServer().listen(0, '127.0.0.1', () => {
      const { port } = s.address() as { port: number };
      s.close(() => resolve(port));
    });
  });
}

/** The server's V8 heap and external memory, MB, from its Prometheus metrics (prom-client's default metrics). */
async function heapMb(metricsUrl: string): Promise<{ used: number; total: number; external: number }> {
  const text = await (await fetch(metricsUrl)).text();
  const get = (name: string) =>
    Number(new RegExp(`^${name}(?:\\{[^}]*\\})? (\\S+)`, 'm').exec(text)?.[1] ?? NaN) / 2 ** 20;
  return {
    used: get('nodejs_heap_size_used_bytes'),
    total: get('nodejs_heap_size_total_bytes'),
    external: get('nodejs_external_memory_bytes'),
  };
}

/** Least-squares slope of `y` over `x`. */
function slope(points: readonly [number, number][]): number {
  const n = points.length;
  if (n < 2) return NaN;
  const mx = points.reduce((s, [x]) => s + x, 0) / n;
  const my = points.reduce((s, [, y]) => s + y, 0) / n;
  let num = 0;
  let den = 0;
  for (const [x, y] of points) {
    num += (x - mx) * (y - my);
    den += (x - mx) ** 2;
  }
  return num / den;
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
const load = () => loadavg()[0]?.toFixed(1) ?? '?';
const count = (s: Statuses, status: string) => (s[status] = (s[status] ?? 0) + 1);

const dataDir = mkdtempSync(join(tmpdir(), 'cw-bench-soak-'));
const metricsPort = await freePort();
const nodeArgs = [...SERVER_NODE_ARGS];
if (SNAPSHOT_DIR) nodeArgs.push('--heapsnapshot-signal=SIGUSR2', `--diagnostic-dir=${SNAPSHOT_DIR}`);
const server = await startServe(
  { DATA_DIR: dataDir, LOG_LEVEL: 'warn', METRICS_PORT: String(metricsPort) },
  120_000,
  nodeArgs,
  [],
  join(dataDir, 'server.log'),
);
try {
  const base = server.url;
  const pid = server.child.pid as number;
  const metricsUrl = `http://127.0.0.1:${metricsPort}/metrics`;
  await waitForStatus(`${base}/healthz`, 200, 600_000);
  // A first start stores the demo history in the background after it is ready: soak once it is stored.
  for (let h: unknown; h !== 'stored'; await sleep(250))
    h = ((await (await fetch(`${base}/healthz`)).json()) as { history?: unknown }).history;

  const admin = readFileSync(join(dataDir, 'secrets', 'admin-token'), 'utf8').trim();
  const makeKey = async (description: string) => {
    const r = await fetch(`${base}/api/admin/api-keys`, {
      method: 'POST',
      headers: { authorization: `Bearer ${admin}`, 'content-type': 'application/json' },
      body: JSON.stringify({ plan: 'enterprise', approve: true, description }),
    });
    const body = (await r.json()) as { key?: string };
    if (r.status !== 201 || !body.key) throw new Error(`no key made: ${r.status} ${JSON.stringify(body)}`);
    return body.key;
  };
  const steadyKey = await makeKey('soak: steady traffic');
  const burstKey = await makeKey('soak: burst');

  const v: Vocabulary = {
    coins: ((await (await fetch(`${base}/v1/agg/coins/list`)).json()) as { id: string }[]).map((c) => c.id),
    currencies: (await (await fetch(`${base}/v1/agg/simple/supported_vs_currencies`)).json()) as string[],
  };
  const draw = new Draw(v, mulberry32(SEED));
  const agent = new Agent({ keepAlive: true, maxSockets: 32 });
  const burstAgent = new Agent({ keepAlive: true, maxSockets: BURST_CONNECTIONS });

  const t0 = Date.now();
  const now = () => (Date.now() - t0) / 1000;
  const statuses: Record<'steady' | 'burst', Statuses> = { steady: {}, burst: {} };
  let inFlight = 0;
  let skipped = 0;
  const sent = { steady: 0, burst: 0 };

  // RSS every second (the burst's peak), a printed row every 10 s.
  const rss: [number, number][] = [];
  const rows: { t: number; rss: number; heap: number; heapTotal: number; external: number }[] = [];
  const sampler = setInterval(() => rss.push([now(), rssMb(pid)]), 1000);
  const loadAt: Record<string, string> = { start: load() };
  console.log(
    `soak: ${DURATION} s at ${RATE} req/s, ${SUBSCRIPTIONS} subscriptions, warm-up ${WARMUP} s, burst at ${BURST_AT} s for ${BURST_SECONDS} s over ${BURST_CONNECTIONS} connections; server pid ${pid}${SERVER_NODE_ARGS.length ? ` (${SERVER_NODE_ARGS.join(' ')})` : ''}`,
  );
  console.log('   t s   RSS MB  heap used  heap total  external  steady sent  burst sent  load');
  const report = async () => {
    const h = await heapMb(metricsUrl).catch(() => ({ used: NaN, total: NaN, external: NaN }));
    const row = {
      t: Math.round(now()),
      rss: rssMb(pid),
      heap: h.used,
      heapTotal: h.total,
      external: h.external,
    };
    rows.push(row);
    console.log(
      `${String(row.t).padStart(6)} ${row.rss.toFixed(1).padStart(8)} ${h.used.toFixed(1).padStart(10)} ${h.total.toFixed(1).padStart(11)} ${h.external.toFixed(1).padStart(9)} ${String(sent.steady).padStart(12)} ${String(sent.burst).padStart(11)}  ${load()}`,
    );
  };

  /** Heap snapshot of the server (SIGUSR2), named by `label`; the server answers again once it is written. */
  const snapshot = async (label: string) => {
    if (!SNAPSHOT_DIR) return;
    const before = new Set(readdirSync(SNAPSHOT_DIR));
    process.kill(pid, 'SIGUSR2');
    await sleep(500);
    await fetch(`${base}/livez`);
    for (let f: string | undefined; ; await sleep(500)) {
      f = readdirSync(SNAPSHOT_DIR).find((n) => !before.has(n) && n.endsWith('.heapsnapshot'));
      if (f) {
        renameSync(join(SNAPSHOT_DIR, f), join(SNAPSHOT_DIR, `${label}.heapsnapshot`));
        break;
      }
    }
    console.log(`  heap snapshot ${label} at ${now().toFixed(0)} s`);
  };

  const stopSubs = new AbortController();
  const subs = holdSubscriptions(base, steadyKey, SUBSCRIPTIONS, draw, stopSubs.signal);

  const steady = (async () => {
    const gap = 1000 / RATE;
    for (let next = Date.now(); now() < DURATION; next += gap) {
      await sleep(Math.max(0, next - Date.now()));
      if (inFlight >= 200) {
        skipped++;
        continue;
      }
      inFlight++;
      sent.steady++;
      void send(base, agent, steadyKey, steadyCall(draw)).then((s) => {
        inFlight--;
        count(statuses.steady, s);
      });
    }
  })();

  const burst = async () => {
    await snapshot('before-burst');
    loadAt.burst = load();
    burstAt.start = now();
    const until = Date.now() + BURST_SECONDS * 1000;
    await Promise.all(
      Array.from({ length: BURST_CONNECTIONS }, async () => {
        while (Date.now() < until) {
          sent.burst++;
          count(statuses.burst, await send(base, burstAgent, burstKey, burstCall(draw)));
        }
      }),
    );
  };

  // The burst's start and end as they happened (a heap snapshot pauses the server and shifts them).
  const burstAt = { start: NaN, end: NaN };
  let burstDone: Promise<void> | null = null;
  const taken = new Set<string>();
  for (let nextReport = 10; now() < DURATION; await sleep(250)) {
    if (now() >= WARMUP && !taken.has('warm')) {
      taken.add('warm');
      await snapshot('after-warm-up');
    }
    if (now() >= BURST_AT && !burstDone) burstDone = burst().then(() => void (burstAt.end = now()));
    if (now() >= burstAt.end + RECOVERY && !taken.has('recovered')) {
      taken.add('recovered');
      await snapshot('after-burst-60s');
    }
    if (now() >= nextReport) {
      await report();
      nextReport = (Math.floor(now() / 10) + 1) * 10;
    }
  }
  await steady;
  await burstDone;
  stopSubs.abort();
  const subCounts = await subs;
  await snapshot('end');
  clearInterval(sampler);
  loadAt.end = load();
  agent.destroy();
  burstAgent.destroy();

  const at = (t: number) =>
    rss.reduce((best, p) => (Math.abs(p[0] - t) < Math.abs(best[0] - t) ? p : best))[1];
  const start = rss[0]?.[1] ?? NaN;
  const recovered = burstAt.end + RECOVERY;
  const beforeBurst = at(burstAt.start);
  const peak = Math.max(...rss.filter(([t]) => t >= burstAt.start && t <= recovered).map(([, r]) => r));
  const after = at(recovered);
  const steadyRows = rows.filter((r) => r.t >= WARMUP && (r.t < burstAt.start || r.t >= recovered));
  const fit = (rs: typeof rows, y: (r: (typeof rows)[number]) => number) =>
    slope(rs.map((r) => [r.t / 60, y(r)]));
  const pct = (a: number, b: number) => `${(((a - b) / b) * 100).toFixed(1)} %`;
  const fmt = (s: Statuses) =>
    Object.entries(s)
      .map(([k, n]) => `${k}: ${n}`)
      .join(', ');
  console.log(
    `\nRSS, MB: start ${start.toFixed(1)}; before the burst ${beforeBurst.toFixed(1)}; peak during the burst and the minute after ${peak.toFixed(1)}; ${RECOVERY} s after the burst ${after.toFixed(1)} (${pct(after, beforeBurst)} against before it, ${pct(after, start)} against the start); end ${(rss.at(-1)?.[1] ?? NaN).toFixed(1)}`,
  );
  console.log(
    `slope after the warm-up (least squares over ${steadyRows.length} samples, the burst and the minute after it left out): RSS ${fit(steadyRows, (r) => r.rss).toFixed(2)} MB/min, heap used ${fit(steadyRows, (r) => r.heap).toFixed(2)} MB/min; before the burst only: RSS ${fit(
      steadyRows.filter((r) => r.t < burstAt.start),
      (r) => r.rss,
    ).toFixed(2)} MB/min; after the recovery only: RSS ${fit(
      steadyRows.filter((r) => r.t >= recovered),
      (r) => r.rss,
    ).toFixed(2)} MB/min`,
  );
  // The heap right after a collection (a sample lower than the one before it) is what the process keeps; its trend
  // tells retention from garbage not yet collected, which the RSS slope cannot over a few collections.
  const lows = steadyRows.filter((r, i) => i > 0 && r.heap < (steadyRows[i - 1]?.heap ?? 0) - 20);
  console.log(
    `heap used after collections (${lows.length} samples): ${lows.map((r) => `${r.t} s ${r.heap.toFixed(0)}`).join(', ')} MB; slope ${fit(lows, (r) => r.heap).toFixed(2)} MB/min`,
  );
  console.log(
    `steady: ${sent.steady} requests (${skipped} skipped: 200 in flight), answers ${fmt(statuses.steady)}`,
  );
  console.log(`burst: ${sent.burst} requests in ${BURST_SECONDS} s, answers ${fmt(statuses.burst)}`);
  console.log(
    `subscriptions: ${subCounts.opened} opened, ${subCounts.events} events, ${subCounts.errors} failed, ${subCounts.stuck} slow to close`,
  );
  console.log(
    `load average (1 min): ${loadAt.start} at the start, ${loadAt.burst ?? '?'} at the burst, ${loadAt.end} at the end`,
  );
} finally {
  await server.stop('SIGTERM');
  rmSync(dataDir, { recursive: true, force: true });
}
