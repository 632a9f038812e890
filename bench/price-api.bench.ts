/**
 * Price API throughput: our real server (`coinwallet serve`, demo data, keys and rate limiting on) against a plain
 * `node:http` server returning a prebuilt body of the same bytes (the ceiling on this machine), same run, same load
 * generator (autocannon, loopback). Prints requests/s, p50/p99 latency and the ratio to the ceiling.
 * Run: `npm run bench:api` (about 2 minutes: 30 s start-up, then 3 endpoints × 2 servers × `DURATION` s);
 * `BENCH_OBSERVE=1` with access lines and metrics on.
 */
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import autocannon from 'autocannon';
import { startServe, waitForStatus } from '../test/support/process.ts';
import { freePort } from '../test/support/postgres.ts';

const DURATION = Number(process.env.DURATION ?? 10);
const CONNECTIONS = Number(process.env.CONNECTIONS ?? 50);
const KEYS = 100; // enterprise keys at 10,000/min each: the budget (16,700 req/s) stays above what one core serves

interface Row {
  name: string;
  rps: number;
  p50: number;
  p99: number;
  non2xx: number;
}

async function load(url: string, keys: string[]): Promise<Row & { name: string }> {
  let i = 0;
  const r = await autocannon({
    url,
    connections: CONNECTIONS,
    duration: DURATION,
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

const dataDir = mkdtempSync(join(tmpdir(), 'cw-bench-api-'));
// BENCH_OBSERVE=1: the server as operated — an access line per request (LOG_LEVEL=info, read by this process as a
// log shipper would) and Prometheus metrics (METRICS_PORT) — to compare with the default run (LOG_LEVEL=error).
const observe = process.env.BENCH_OBSERVE === '1';
const env = {
  DATA_DIR: dataDir,
  LOG_LEVEL: observe ? 'info' : 'error',
  ...(observe ? { METRICS_PORT: '0' } : {}),
  TICK_INTERVAL_MS: '3600000',
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
  const server = await startServe(env, 120_000);
  await waitForStatus(`${server.url}/healthz`, 200, 600_000);
  const ids = (await (
    await fetch(`${server.url}/v1/agg/coins/list`, { headers: { 'x-sp-api-key': keys[0] as string } })
  ).json()) as { id: string }[];
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
  console.log('endpoint | body | ours req/s | p50 / p99 ms | ceiling req/s | p50 / p99 ms | ratio | non-2xx');
  for (const [name, o, c, size] of rows) {
    console.log(
      `${name} | ${(size / 1024).toFixed(1)} KiB | ${o.rps.toFixed(0)} | ${o.p50} / ${o.p99} | ${c.rps.toFixed(0)} | ${c.p50} / ${c.p99} | ${(o.rps / c.rps).toFixed(2)} | ${o.non2xx}`,
    );
  }
} finally {
  rmSync(dataDir, { recursive: true, force: true });
}
