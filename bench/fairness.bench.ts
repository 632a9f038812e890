/**
 * Fairness: no caller can starve another. One embedded server (`coinwallet serve`, demo data); a light client — a
 * keyless `/v1/agg/simple/price`, a cached graph query and `/healthz`, each asked one request at a time — measured
 * alone, then again while an abusive caller runs:
 *
 * - (a) `pro-heavy`: one pro key sends its costliest allowed graph query (four coins' 90-day hourly charts, cost
 *   8,733 of the pro ceiling 10,000) over 20 connections as fast as the server answers, admitted at the rate its cost
 *   budget allows and refused (429) beyond it;
 * - (b) `sign-in-flood`: keyless failed sign-ins (`POST /api/auth/session` with a wrong signature), 8 at a time;
 * - (c) `cache-bloat`: keyless graph queries, each with a distinct 1 MB variable, 4 at a time;
 * - (d) `document-bloat` (only when asked for: `SCENARIOS=d`): keyless graph queries, each a distinct document of
 *   2,000 fields (the most the limits allow), each from a client address of its own, 4 at a time: what the server
 *   keeps of the documents it parsed.
 *
 * Each attacker runs in its own process (`bench/fairness/attack.ts`), as another client would. The whole sequence —
 * alone, then each attack — runs `ROUNDS` times (default 3) on the one server, interleaved, each round of (a) with a
 * pro key of its own (a fresh budget). A round's p99 is about its third-worst of some 260 light requests, so one
 * execution or one collection moves it by tens of ms: the table pools every round's light requests for its p50 and
 * p99 (ratios to alone pooled likewise), and lists each round's p99 beside them. Also the server's RSS before and
 * after each measure.
 * Run: `npm run bench:fairness` (about `ROUNDS` × 4 × `DURATION` s after start-up; `DURATION` default 20;
 * `SCENARIOS=c` runs one attack).
 */
import { readFileSync, mkdtempSync, rmSync } from 'node:fs';
import { Agent, request } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { spawn } from 'node:child_process';
import { startServe, waitForStatus } from '../test/support/process.ts';
import type { Attack } from './fairness/attack.ts';

const DURATION = Number(process.env.DURATION ?? 20);
const ROUNDS = Number(process.env.ROUNDS ?? 3);
/**
 * Which attacks run after the light client alone (`SCENARIOS=a,c`): by default (a) to (c), the per-caller ones; (d)
 * comes from thousands of client addresses, which no per-caller limit stops, and is asked for by name.
 */
const SCENARIOS = (process.env.SCENARIOS ?? 'a,b,c').split(',');
/**
 * The light client's pause between two requests of one endpoint: its price and graph requests stay inside its own
 * keyless budget (240 a minute for both), `/healthz` is asked more often.
 */
const PACE_MS = { limited: 600, healthz: 100 };
/**
 * Every caller is keyless from loopback, so each says who it is in `X-Forwarded-For` (the server believes loopback:
 * `TRUSTED_PROXIES`), as clients behind a proxy: the light client's budgets are not the attackers'.
 */
const LIGHT_IP = '203.0.113.5';
const ATTACKER_IP = '198.51.100.7';

const HEAVY = `query Heavy { coins(first: 4) { edges { node { id chart(days: 90, interval: HOURLY) {
  points { time price marketCap volume } } } } } }`;
const CACHED = '{ coin(id: "bitcoin") { id name symbol } }';

/** The server's resident memory, MB (Linux). */
function rssMb(pid: number): number {
  const m = /VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
  return m ? Number(m[1]) / 1024 : NaN;
}

const agent = new Agent({ keepAlive: true, maxSockets: 8 });

/** One request; its latency in ms (status kept to check the light client is served). */
function timed(
  base: string,
  path: string,
  method = 'GET',
  body?: string,
): Promise<{ ms: number; status: number }> {
  const u = new URL(path, base);
  const t0 = performance.now();
  return new Promise((resolve) => {
    const req = request(
      u,
      {
        method,
        agent,
        headers: {
          'x-forwarded-for': LIGHT_IP,
          ...(body ? { 'content-type': 'application/json' } : {}),
        },
      },
      (res) => {
        res.resume();
        res.on('end', () => resolve({ ms: performance.now() - t0, status: res.statusCode ?? 0 }));
      },
    );
    req.on('error', () => resolve({ ms: performance.now() - t0, status: 0 }));
    req.end(body);
  });
}

interface Light {
  /** Every request's latency, ms, sorted. */
  ms: number[];
  failed: number;
}

/** The `q` quantile of sorted latencies. */
const quantile = (ms: readonly number[], q: number): number =>
  ms[Math.min(ms.length - 1, Math.floor(q * ms.length))] ?? NaN;

/** The light client for `seconds`: three loops, one request at a time each. */
async function lightClient(base: string, seconds: number): Promise<Light> {
  const until = Date.now() + seconds * 1000;
  const ms: number[] = [];
  let failed = 0;
  const graph = JSON.stringify({ query: CACHED });
  const loops: [string, string, string | undefined, number][] = [
    ['/v1/agg/simple/price?ids=bitcoin,litecoin&vs_currencies=usd', 'GET', undefined, PACE_MS.limited],
    ['/graphql', 'POST', graph, PACE_MS.limited],
    ['/healthz', 'GET', undefined, PACE_MS.healthz],
  ];
  await Promise.all(
    loops.map(async ([path, method, body, pace]) => {
      while (Date.now() < until) {
        const r = await timed(base, path, method, body);
        ms.push(r.ms);
        if (r.status !== 200) failed++;
        await new Promise((resolve) => setTimeout(resolve, pace));
      }
    }),
  );
  ms.sort((a, b) => a - b);
  return { ms, failed };
}

/** An abusive caller for `seconds`, in its own process (`bench/fairness/attack.ts`); its answers counted by status. */
function flood(attack: Omit<Attack, 'base' | 'seconds' | 'ip' | 'heavy' | 'cached'>, base: string) {
  const spec: Attack = { ...attack, base, seconds: DURATION, ip: ATTACKER_IP, heavy: HEAVY, cached: CACHED };
  return new Promise<Record<string, number>>((resolve, reject) => {
    const child = spawn(
      process.execPath,
      ['bin/run-ts.js', 'bench/fairness/attack.ts', JSON.stringify(spec)],
      {
        stdio: ['ignore', 'pipe', 'inherit'],
      },
    );
    let out = '';
    child.stdout.on('data', (d: Buffer) => (out += d.toString()));
    child.on('exit', (code) =>
      code === 0
        ? resolve(JSON.parse(out) as Record<string, number>)
        : reject(new Error(`attacker exit ${code}`)),
    );
  });
}

const dataDir = mkdtempSync(join(tmpdir(), 'cw-bench-fair-'));
const env = {
  DATA_DIR: dataDir,
  LOG_LEVEL: 'error',
  TICK_INTERVAL_MS: '60000',
  TRUSTED_PROXIES: '127.0.0.1',
};
try {
  const server = await startServe(env, 120_000);
  await waitForStatus(`${server.url}/healthz`, 200, 600_000);
  // A pro key, made through the server's operator endpoint as `coinwallet keys create` makes one (the embedded store
  // has one owner: the server; the CLI reads its admin token from DATA_DIR).
  const { main } = await import('../src/cli/main.ts');
  Object.assign(process.env, env);
  let out = '';
  const write = process.stdout.write.bind(process.stdout);
  process.stdout.write = ((s: string) => ((out += String(s)), true)) as typeof process.stdout.write;
  // One per round: each round's attack starts with the whole cost budget, as the first did.
  const pros: string[] = [];
  for (let r = 0; r < ROUNDS; r++) {
    out = '';
    await main(['keys', 'create', '--plan', 'pro', '--approve', '--url', server.url]);
    const key = /"key": "([^"]+)"/.exec(out)?.[1];
    if (!key) {
      process.stdout.write = write;
      await server.stop('SIGTERM');
      throw new Error(`no key made:\n${out}`);
    }
    pros.push(key);
  }
  process.stdout.write = write;
  const pro = pros[0] as string;

  const pid = server.child.pid as number;
  const base = server.url;
  // A first start stores the demo history in the background after it is ready: measure once it is stored.
  for (let h: unknown; h !== 'stored'; await new Promise((r) => setTimeout(r, 250)))
    h = ((await (await fetch(`${base}/healthz`)).json()) as { history?: unknown }).history;
  // Warm the caches the light client reads (price answer, graph response cache).
  await lightClient(base, 2);
  const heavyProbe = await fetch(`${base}/graphql`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'x-sp-api-key': pro },
    body: JSON.stringify({ query: HEAVY }),
  });
  const probe = (await heavyProbe.json()) as { extensions?: { cost?: unknown } };
  console.log(`pro-heavy query: HTTP ${heavyProbe.status}, cost ${JSON.stringify(probe.extensions?.cost)}`);

  /** Per scenario, in the order first measured: each round's light client, RSS before and after, attacker's answers. */
  const rounds = new Map<
    string,
    { light: Light; before: number; after: number; attacked: Record<string, number> | null }[]
  >();
  const measure = async (name: string, attack: (() => Promise<Record<string, number>>) | null) => {
    const before = rssMb(pid);
    const [light, attacked] = await Promise.all([
      lightClient(base, DURATION),
      attack ? attack() : Promise.resolve(null),
    ]);
    const after = rssMb(pid);
    if (!rounds.has(name)) rounds.set(name, []);
    rounds.get(name)?.push({ light, before, after, attacked });
    console.log(
      `${name}: light p50 ${quantile(light.ms, 0.5).toFixed(1)} ms, p99 ${quantile(light.ms, 0.99).toFixed(1)} ms (${light.ms.length} requests, ${light.failed} not 200); RSS ${after.toFixed(0)} MB; attacker ${JSON.stringify(attacked)}`,
    );
  };

  for (let r = 0; r < ROUNDS; r++) {
    console.log(`round ${r + 1} of ${ROUNDS}`);
    const key = pros[r] as string;
    await measure('alone', null);
    if (SCENARIOS.includes('a'))
      await measure('(a) pro-heavy', () => flood({ scenario: 'pro-heavy', key }, base));
    if (SCENARIOS.includes('b'))
      await measure('(b) sign-in-flood', () => flood({ scenario: 'sign-in-flood', key: '' }, base));
    if (SCENARIOS.includes('c'))
      await measure('(c) cache-bloat', () => flood({ scenario: 'cache-bloat', key: '' }, base));
    if (SCENARIOS.includes('d'))
      await measure('(d) document-bloat', () => flood({ scenario: 'document-bloat', key: '' }, base));
  }
  await server.stop('SIGTERM');

  /** Every round's light requests of a scenario as one sorted list. */
  const pooled = (name: string): number[] =>
    (rounds.get(name) ?? []).flatMap((x) => x.light.ms).sort((a, b) => a - b);
  const alone = pooled('alone');
  console.log(
    `\n${DURATION} s per scenario, ${ROUNDS} rounds, pooled; the light client: 3 endpoints, one request at a time each (price and graph ${PACE_MS.limited} ms apart, /healthz ${PACE_MS.healthz} ms)`,
  );
  console.log(
    'scenario | light p50 ms (× alone) | light p99 ms (× alone) | p99 per round ms | requests | not 200 | RSS growth per round MB | attacker, round 1',
  );
  for (const [name, list] of rounds) {
    const ms = pooled(name);
    const p50 = quantile(ms, 0.5);
    const p99 = quantile(ms, 0.99);
    console.log(
      `${name} | ${p50.toFixed(1)} (${(p50 / quantile(alone, 0.5)).toFixed(2)}) | ${p99.toFixed(1)} (${(p99 / quantile(alone, 0.99)).toFixed(2)}) | ${list.map((x) => quantile(x.light.ms, 0.99).toFixed(1)).join(' / ')} | ${ms.length} | ${list.reduce((n, x) => n + x.light.failed, 0)} | ${list.map((x) => (x.after - x.before).toFixed(0)).join(' / ')} | ${list[0]?.attacked ? JSON.stringify(list[0].attacked) : '–'}`,
    );
  }
} finally {
  agent.destroy();
  rmSync(dataDir, { recursive: true, force: true });
}
