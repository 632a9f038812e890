/**
 * Price API throughput: our real server (`coinwallet serve`, demo data, keys and rate limiting on) against a plain
 * `node:http` server returning a prebuilt body of the same bytes (the ceiling on this machine), same run, same load
 * generator (autocannon, loopback). Prints requests/s, p50/p99 latency and the ratio to the ceiling.
 * Run: `npm run bench:api` (about 2 minutes: 30 s start-up, then 3 endpoints × 2 servers × `DURATION` s).
 *
 * `BENCH_OBSERVE=1` measures what operating the server costs instead: the same server with observability off
 * (`LOG_LEVEL=error`, no metrics) and on as operated (an access line per request at `LOG_LEVEL=info` into a file, as a
 * log shipper would tail it; Prometheus metrics on `METRICS_PORT`; tracing off): both servers run at once, each on
 * its own copy of the store, and the load alternates between them in slices of `DURATION` s for `ROUNDS` rounds
 * (default 6, made even); it prints req/s and the server's CPU time per response (from /proc) of each, and the ratio
 * on/off as the median over pairs of rounds: each pair is a round with `off` first and one with `on` first, and its
 * ratio the geometric mean of theirs, so that the cost of going second in a round (a few per cent, whichever mode it
 * is) cancels out instead of deciding a single round's ratio. `BENCH_OBSERVE=parts` adds the access lines alone and the metrics alone. `PROFILE_DIR`: a CPU
 * profile of each server.
 */
import { execFileSync, spawn } from 'node:child_process';
import { cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { availableParallelism, tmpdir } from 'node:os';
import { join } from 'node:path';
import autocannon from 'autocannon';
import { startServe, waitForStatus } from '../test/support/process.ts';
import { freePort } from '../test/support/postgres.ts';

const DURATION = Number(process.env.DURATION ?? 10);
const CONNECTIONS = Number(process.env.CONNECTIONS ?? 50);
const KEYS = 100; // enterprise keys at 10,000/min each: the budget (16,700 req/s) stays above what one core serves

/** One slice of load on one server: requests/s and the server's CPU time per response (ms). */
interface Slice {
  rps: number;
  cpu: number;
}

interface Row {
  name: string;
  rps: number;
  p50: number;
  p99: number;
  non2xx: number;
}

async function load(url: string, keys: string[], duration = DURATION): Promise<Row & { name: string }> {
  let i = 0;
  const r = await autocannon({
    url,
    connections: CONNECTIONS,
    duration,
    requests: [
      {
        setupRequest: (req) => ({
          ...req,
          headers: keys.length ? { 'x-sp-api-key': keys[i++ % keys.length] as string } : {},
        }),
      },
    ],
  });
  return { name: url, rps: r.requests.average, p50: r.latency.p50, p99: r.latency.p99, non2xx: r.non2xx };
}

async function ceilingServer(body: Buffer): Promise<{ url: string; stop: () => void }> {
  const port = await freePort();
  const file = join(tmpdir(), `cw-ceiling-${process.pid}.bin`);
  writeFileSync(file, body);
  const src = `const b=require('fs').readFileSync(${JSON.stringify(file)});require('http').createServer((q,s)=>{s.writeHead(200,{'content-type':'application/json; charset=utf-8','content-length':b.length});s.end(b)}).listen(${port},'127.0.0.1',()=>console.log('up'))`;
  const child = spawn(process.execPath, ['-e', src], { stdio: ['ignore', 'pipe', 'inherit'] });
  await new Promise((r) => child.stdout?.once('data', r));
  return { url: `http://127.0.0.1:${port}`, stop: () => child.kill('SIGKILL') };
}

/**
 * Observe mode on a machine of two cores or more (`PIN=0`: not): every server on the first core, this process (the
 * load generator) on the second, all threads of each (`taskset -a`). Sharing the cores as the scheduler pleases made
 * one slice's CPU per response differ from the next by up to 30 %.
 */
const PIN = process.env.PIN !== '0' && availableParallelism() >= 2;
const pin = (pid: number, cpu: number): void => {
  execFileSync('taskset', ['-a', '-p', '-c', String(cpu), String(pid)], { stdio: 'ignore' });
};

/** A process's CPU time so far (user + system), ms, from /proc (Linux). */
function cpuMs(pid: number): number {
  const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]?.split(' ') ?? [];
  return ((Number(fields[11]) + Number(fields[12])) * 1000) / 100; // utime, stime in clock ticks (USER_HZ 100)
}

const dataDir = mkdtempSync(join(tmpdir(), 'cw-bench-api-'));
// BENCH_OBSERVE=1: off and on; BENCH_OBSERVE=parts: also the access lines alone and the metrics alone.
const observe = process.env.BENCH_OBSERVE === '1' || process.env.BENCH_OBSERVE === 'parts';
const MODES =
  process.env.BENCH_OBSERVE === 'parts'
    ? (['off', 'logs', 'metrics', 'on'] as const)
    : (['off', 'on'] as const);
type Mode = (typeof MODES)[number];
/** Rounds of the observe mode, an even number: half with each mode first. */
const ROUNDS = Math.ceil(Number(process.env.ROUNDS ?? 6) / 2) * 2;
const env = { DATA_DIR: dataDir, LOG_LEVEL: 'error', TICK_INTERVAL_MS: '3600000' };
/** Each mode's environment: observability off, the access lines alone, the metrics alone, both (as operated). */
const modeEnv: Record<Mode, Record<string, string>> = {
  off: env,
  logs: { ...env, LOG_LEVEL: 'info', LOG_FORMAT: 'json' },
  metrics: { ...env, METRICS_PORT: '0' },
  on: { ...env, LOG_LEVEL: 'info', LOG_FORMAT: 'json', METRICS_PORT: '0' },
};
try {
  // Keys are created on the store before the server starts (the embedded store has one writer).
  const keys: string[] = [];
  const { main } = await import('../src/cli/main.ts');
  Object.assign(process.env, env);
  const out: string[] = [];
  const write = process.stdout.write.bind(process.stdout);
  process.stdout.write = ((s: string) => (out.push(String(s)), true)) as typeof process.stdout.write;
  for (let k = 0; k < KEYS; k++)
    await main([
      'keys',
      'create',
      '--plan',
      'enterprise',
      '--limit',
      '10000',
      '--approve',
      '--url',
      'http://127.0.0.1:1',
    ]);
  process.stdout.write = write;
  for (const s of out) {
    const m = /"key": "([^"]+)"/.exec(s);
    if (m?.[1]) keys.push(m[1]);
  }
  // PROFILE_DIR (without BENCH_OBSERVE): a CPU profile of the server measured against the ceiling.
  const server = await startServe(
    env,
    120_000,
    process.env.PROFILE_DIR && !observe ? ['--cpu-prof', '--cpu-prof-dir', process.env.PROFILE_DIR] : [],
  );
  await waitForStatus(`${server.url}/healthz`, 200, 600_000);
  const listed = await fetch(`${server.url}/v1/agg/coins/list`, {
    headers: { 'x-sp-api-key': keys[0] as string },
  });
  if (!listed.ok) throw new Error(`/coins/list: ${listed.status} ${await listed.text()}`);
  const ids = (await listed.json()) as { id: string }[];
  const endpoints = [
    [
      '/simple/price (50 ids × 3 currencies)',
      `/v1/agg/simple/price?ids=${ids
        .slice(0, 50)
        .map((c) => c.id)
        .join(',')}&vs_currencies=usd,eur,btc&include_market_cap=true&include_24hr_change=true`,
    ],
    ['/coins/markets?per_page=250', '/v1/agg/coins/markets?vs_currency=usd&per_page=250'],
    ['/coins/litecoin/market_chart?days=30', '/v1/agg/coins/litecoin/market_chart?vs_currency=usd&days=30'],
  ] as const;
  if (observe) {
    await server.stop('SIGTERM');
    // Every mode's server runs at once, each on its own copy of the store, and the load alternates between them in
    // short slices: a neighbour's load on this machine drifts slowly, so it falls alike on both halves of a pair.
    const servers = new Map<Mode, { url: string; pid: number; stop: () => Promise<unknown> }>();
    for (const mode of MODES) {
      const dir = `${dataDir}-${mode}`;
      cpSync(dataDir, dir, { recursive: true });
      // PROFILE_DIR: a CPU profile of each server (node --cpu-prof), to see where the difference goes.
      const prof = process.env.PROFILE_DIR
        ? ['--cpu-prof', '--cpu-prof-dir', join(process.env.PROFILE_DIR, mode)]
        : [];
      const s = await startServe(
        { ...modeEnv[mode], DATA_DIR: dir },
        120_000,
        prof,
        [],
        join(dir, 'server.log'),
      );
      await waitForStatus(`${s.url}/healthz`, 200, 600_000);
      servers.set(mode, { url: s.url, pid: s.child.pid as number, stop: () => s.stop('SIGTERM') });
      if (PIN) pin(s.child.pid as number, 0);
    }
    if (PIN) pin(process.pid, 1);
    const runs = Object.fromEntries(MODES.map((m) => [m, endpoints.map(() => [] as Slice[])])) as Record<
      Mode,
      Slice[][]
    >;
    for (const [i, [name, path]] of endpoints.entries()) {
      for (const mode of MODES) await load(`${servers.get(mode)?.url}${path}`, keys, Math.max(DURATION, 20)); // warm-up, not counted
      for (let round = 1; round <= ROUNDS; round++)
        // Alternating which mode goes first, so that neither always follows the other.
        for (const mode of round % 2 ? MODES : [...MODES].reverse()) {
          const srv = servers.get(mode) as { url: string; pid: number };
          const before = cpuMs(srv.pid);
          const r = await load(srv.url + path, keys);
          const slice = { rps: r.rps, cpu: (cpuMs(srv.pid) - before) / (r.rps * DURATION) };
          (runs[mode][i] as Slice[]).push(slice);
          console.log(
            `${name} | round ${round} | ${mode} | ${r.rps.toFixed(0)} req/s | ${slice.cpu.toFixed(4)} CPU ms/req | non-2xx ${r.non2xx}`,
          );
        }
    }
    for (const s of servers.values()) await s.stop();
    const median = (xs: number[]) => {
      const v = [...xs].sort((a, b) => a - b);
      const mid = Math.floor(v.length / 2);
      return v.length % 2 ? (v[mid] as number) : ((v[mid - 1] as number) + (v[mid] as number)) / 2;
    };
    const others = MODES.filter((m) => m !== 'off');
    console.log(
      `\n${DURATION} s per slice, ${CONNECTIONS} connections, ${PIN ? 'servers on core 0 and the load on core 1, ' : ''}${ROUNDS} rounds of ${MODES.join(' / ')}; ratios: the median over pairs of rounds (one of each order) of the pair's geometric mean`,
    );
    console.log(
      `endpoint | off req/s | ${others.map((m) => `${m} req/s (× off)`).join(' | ')} | off CPU ms/req | ${others.map((m) => `${m} CPU ms/req (× off)`).join(' | ')}`,
    );
    endpoints.forEach(([name], i) => {
      const of = (m: Mode) => runs[m][i] as Slice[];
      const ratio = (m: Mode, k: keyof Slice) => {
        const rounds = of(m).map((s, r) => s[k] / (of('off')[r] as Slice)[k]);
        const pairs = rounds.flatMap((x, r) => (r % 2 ? [Math.sqrt(x * (rounds[r - 1] as number))] : []));
        return median(pairs).toFixed(3);
      };
      const med = (m: Mode, k: keyof Slice) => median(of(m).map((s) => s[k]));
      console.log(
        [
          name,
          med('off', 'rps').toFixed(0),
          ...others.map((m) => `${med(m, 'rps').toFixed(0)} (${ratio(m, 'rps')})`),
          med('off', 'cpu').toFixed(4),
          ...others.map((m) => `${med(m, 'cpu').toFixed(4)} (${ratio(m, 'cpu')})`),
        ].join(' | '),
      );
    });
  } else {
    const rows: [string, Row, Row, number][] = [];
    for (const [name, path] of endpoints) {
      const body = Buffer.from(
        await (
          await fetch(server.url + path, { headers: { 'x-sp-api-key': keys[0] as string } })
        ).arrayBuffer(),
      );
      const ours = await load(server.url + path, keys);
      const ceil = await ceilingServer(body);
      const base = await load(ceil.url + path, []);
      ceil.stop();
      rows.push([name, ours, base, body.length]);
    }
    await server.stop('SIGTERM');
    console.log(
      `${DURATION} s per run, ${CONNECTIONS} connections, ${KEYS} enterprise keys rotating (keys and rate limiting on)`,
    );
    console.log(
      'endpoint | body | ours req/s | p50 / p99 ms | ceiling req/s | p50 / p99 ms | ratio | non-2xx',
    );
    for (const [name, o, c, size] of rows) {
      console.log(
        `${name} | ${(size / 1024).toFixed(1)} KiB | ${o.rps.toFixed(0)} | ${o.p50} / ${o.p99} | ${c.rps.toFixed(0)} | ${c.p50} / ${c.p99} | ${(o.rps / c.rps).toFixed(2)} | ${o.non2xx}`,
      );
    }
  }
} finally {
  for (const suffix of ['', ...MODES.map((m) => `-${m}`)])
    rmSync(`${dataDir}${suffix}`, { recursive: true, force: true });
}
