/**
 * What a tool call costs against the same operation sent to the graph (issue 36): `npm run bench:mcp`.
 *
 * One embedded product (3 demo days) and one enterprise key with room for the run. In `ROUNDS` (default 3) rounds
 * that alternate which goes first, `CALLS` (default 400) operations each way from `CONCURRENCY` (default 8) callers:
 * the `Prices` operation of `clients/graph/operations/markets.graphql` with its variables drawn per call from a seeded
 * mix (1–5 of the catalog's first 20 coins, one of 6 currencies), (a) as `POST /graphql` and (b) as the `prices` tool through the MCP
 * SDK's client over Streamable HTTP (one `POST /mcp` per call, after one `initialize` per caller). Prints calls per
 * second, p50/p99 latency and the server's CPU ms per call (user + system of the server process, from /proc), the
 * medians of the rounds and the ratios MCP / GraphQL.
 */
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { ASSETS } from '../src/catalog/assets.ts';
import { PROJECT_ROOT } from '../src/core/project-root.ts';
import { mulberry32 } from '../src/demo/random.ts';
import { operationTools } from '../router/mcp/tools.ts';
import { buildSchema } from 'graphql';
import { startServe, waitForStatus } from '../test/support/process.ts';

const ROUNDS = Number(process.env.ROUNDS ?? 3);
const CALLS = Number(process.env.CALLS ?? 400);
const CONCURRENCY = Number(process.env.CONCURRENCY ?? 8);
/** The first 20 coins of the catalog (the kits' coins first). */
const COINS = ASSETS.slice(0, 20).map((a) => a.id);
const CURRENCIES = ['usd', 'eur', 'gbp', 'jpy', 'btc', 'ltc'];

/** The variables of call `i` of a run: a seeded draw, the same in both transports. */
function variablesOf(seed: number): (i: number) => { ids: string[]; currency: string } {
  const draws: { ids: string[]; currency: string }[] = [];
  const rand = mulberry32(seed);
  for (let i = 0; i < CALLS; i++) {
    const n = 1 + Math.floor(rand() * 5);
    const ids = new Set<string>();
    while (ids.size < n) ids.add(COINS[Math.floor(rand() * COINS.length)] as string);
    draws.push({ ids: [...ids], currency: CURRENCIES[Math.floor(rand() * CURRENCIES.length)] as string });
  }
  return (i) => draws[i] as { ids: string[]; currency: string };
}

/** user + system CPU of `pid`, ms. */
function cpuMs(pid: number): number {
  const f = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]?.split(' ') ?? [];
  return (Number(f[11]) + Number(f[12])) * 10;
}

interface Row {
  perSecond: number;
  p50: number;
  p99: number;
  cpuPerCall: number;
}

/** `CALLS` calls of `one` from `CONCURRENCY` callers (each with its own `setup`), timed. */
async function run<C>(
  pid: number,
  setup: () => Promise<C>,
  one: (c: C, i: number) => Promise<void>,
): Promise<Row> {
  const callers = await Promise.all(Array.from({ length: CONCURRENCY }, setup));
  const latencies: number[] = [];
  let next = 0;
  const cpu0 = cpuMs(pid);
  const t0 = performance.now();
  await Promise.all(
    callers.map(async (c) => {
      for (let i = next++; i < CALLS; i = next++) {
        const t = performance.now();
        await one(c, i);
        latencies.push(performance.now() - t);
      }
    }),
  );
  const wall = performance.now() - t0;
  const cpu = cpuMs(pid) - cpu0;
  latencies.sort((a, b) => a - b);
  return {
    perSecond: (CALLS / wall) * 1000,
    p50: latencies[Math.floor(latencies.length * 0.5)] as number,
    p99: latencies[Math.floor(latencies.length * 0.99)] as number,
    cpuPerCall: cpu / CALLS,
  };
}

const median = (xs: number[]): number => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)] as number;

async function main(): Promise<void> {
  const dataDir = mkdtempSync(join(tmpdir(), 'cw-bench-mcp-'));
  const admin = 'bench-mcp-admin-token-0123456789abcdef';
  const server = await startServe(
    { DATA_DIR: dataDir, DEMO_DAYS: '3', LOG_LEVEL: 'warn', ADMIN_TOKEN: admin },
    120_000,
  );
  try {
    await waitForStatus(`${server.url}/healthz`, 200, 180_000);
    const pid = server.child.pid as number;
    const created = execFileSync(
      process.execPath,
      [
        join(PROJECT_ROOT, 'bin', 'coinwallet.js'),
        'keys',
        'create',
        '--plan',
        'enterprise',
        '--limit',
        '10000',
        '--approve',
        '--url',
        server.url,
      ],
      { env: { ...process.env, ADMIN_TOKEN: admin }, encoding: 'utf8' },
    );
    const key = (JSON.parse(created) as { key: string }).key;
    const schema = buildSchema(readFileSync(join(PROJECT_ROOT, 'schema', 'api.graphql'), 'utf8'));
    const operations = readFileSync(
      join(PROJECT_ROOT, 'clients', 'graph', 'operations', 'markets.graphql'),
      'utf8',
    );
    const [prices] = operationTools(schema, operations, ['Prices']);
    if (!prices) throw new Error('no Prices operation');
    console.log(
      `mcp benchmark: ${ROUNDS} rounds × ${CALLS} calls from ${CONCURRENCY} callers, load ${loadavg()[0]?.toFixed(2)}`,
    );

    const graph = (vars: (i: number) => unknown) =>
      run(
        pid,
        async () => null,
        async (_c, i) => {
          const r = await fetch(`${server.url}/graphql`, {
            method: 'POST',
            headers: { 'content-type': 'application/json', 'x-sp-api-key': key },
            body: JSON.stringify({
              query: prices.query,
              variables: vars(i),
              operationName: prices.operationName,
            }),
          });
          const body = (await r.json()) as { data?: unknown };
          if (r.status !== 200 || !body.data) throw new Error(`graph: ${r.status} ${JSON.stringify(body)}`);
        },
      );
    const mcp = (vars: (i: number) => unknown) =>
      run(
        pid,
        async () => {
          const c = new Client({ name: 'bench', version: '1.0.0' });
          await c.connect(
            new StreamableHTTPClientTransport(new URL('/mcp', server.url), {
              requestInit: { headers: { 'x-sp-api-key': key } },
            }),
          );
          return c;
        },
        async (c, i) => {
          const r = await c.callTool({ name: 'prices', arguments: vars(i) as Record<string, unknown> });
          if (r.isError) throw new Error(`mcp: ${JSON.stringify(r)}`);
        },
      );

    const rows: { graph: Row[]; mcp: Row[] } = { graph: [], mcp: [] };
    for (let round = 0; round < ROUNDS; round++) {
      const vars = variablesOf(round + 1);
      const order = round % 2 === 0 ? (['graph', 'mcp'] as const) : (['mcp', 'graph'] as const);
      for (const way of order) {
        const row = await (way === 'graph' ? graph(vars) : mcp(vars));
        rows[way].push(row);
        console.log(
          `round ${round + 1} ${way.padEnd(5)} ${row.perSecond.toFixed(0)} calls/s, p50 ${row.p50.toFixed(1)} ms, p99 ${row.p99.toFixed(1)} ms, server CPU ${row.cpuPerCall.toFixed(2)} ms/call`,
        );
      }
    }
    const m = (way: 'graph' | 'mcp', k: keyof Row) => median(rows[way].map((r) => r[k]));
    console.log('\nmedians             graph      mcp   mcp/graph');
    for (const k of ['perSecond', 'p50', 'p99', 'cpuPerCall'] as const) {
      console.log(
        `${k.padEnd(16)} ${m('graph', k).toFixed(2).padStart(8)} ${m('mcp', k).toFixed(2).padStart(8)} ${(m('mcp', k) / m('graph', k)).toFixed(2).padStart(10)}`,
      );
    }
    console.log(
      `load average at the end: ${loadavg()
        .map((l) => l.toFixed(2))
        .join(' ')}`,
    );
  } finally {
    await server.stop('SIGTERM');
    rmSync(dataDir, { recursive: true, force: true });
  }
}

await main();
