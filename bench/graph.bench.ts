/**
 * Graph throughput: our router with every plugin on (with and without in-flight deduplication)
 * against a vanilla `@apollo/gateway` and Hive Gateway's runtime (JS planner; Rust planner with fetch dedup on, off,
 * and with its inbound dedup) with none, all calling the same four subgraphs over HTTP; plus the embedded variants (the
 * subgraphs executed in the router's process). Same run, same store, same queries, same load generator (autocannon,
 * loopback, POST JSON). Prints requests/s, p50/p99 latency and the ratios to the vanilla gateway and to Hive with the
 * Rust planner; and each process's CPU time per response, which stays put when other work on the machine moves the
 * throughput.
 *
 * Processes (this script re-runs itself with `--role`):
 * - `subgraphs`: one in-memory store (test market, 40 registered names, a bridge proof-of-reserves snapshot, API keys),
 *   the four subgraphs each on its own Fastify port (as `coinwallet serve --only subgraph:<name>`), and on more ports
 *   the embedded variants over the same store (each with its own subgraph objects, as in the product): our router
 *   with its response cache on (`embedded`, as shipped) and off (`embedded-uncached`), and the stock Hive runtime
 *   over our in-process sources (`hive-rust-embedded`). PGlite is
 *   single-process, so everything that reads the store lives here.
 * - `gateway --variant …`: one process per HTTP gateway — vanilla on `startStandaloneServer`, vanilla mounted on
 *   Fastify the way our router is, the Hive variants on `node:http`, and ours (`createRouter` + `mountRouter`, its own
 *   in-memory store for API keys).
 * - this process: autocannon only.
 *
 * `ours-observed` is `ours` as operated (access lines into a file, Prometheus metrics, tracing off) and
 * `ours-unobserved` the same process wiring with observability off: the ratio of the two is what observability costs
 * (`VARIANTS=ours-unobserved,ours-observed` runs only those two).
 *
 * Two workloads (`WORKLOAD=identical,varied`, default both, reported apart): `identical` sends one body per operation
 * from every connection, so in-flight dedup and the response cache decide it; `varied` draws each request's variables
 * from seeded Zipf mixes (page sizes, coin ids, currencies, names: `graph/workload.ts`), so dedup only joins requests
 * that are truly alike and in flight together. Every varied answer is checked against the first variant's (in
 * `VARIANTS` order) answer for the same body; differences are counted and shown, not fatal.
 *
 * Run: `npm run bench:graph` (about 45 minutes). Env: `DURATION` (s, default 10), `WARMUP` (s, default 3),
 * `CONNECTIONS` (default 50), `ROUNDS` (default 3, variants interleaved, the median round reported), `VARIANTS` and
 * `QUERIES` (comma lists to run a subset), `SEED` (of the varied draws), `SAMPLE` (varied bodies probed on every
 * variant before the runs, default 100), `PROFILE=1` (a CPU profile of the serving processes — the gateway and the
 * subgraphs process — over each measured run, not the warm-up, written to `PROFILE_DIR`, default a temporary
 * directory), `BENCH_LOG=1` (Fastify error logs, to see why a probe failed).
 */
import { mkdirSync } from 'node:fs';
import { cpus, loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { isDeepStrictEqual } from 'node:util';
import type { SubgraphName } from '../subgraphs/shared/subgraph.ts';
import type { QueryName, Ready, Variant, Workload } from './graph/config.ts';
import {
  DURATION,
  embeddedVariant,
  PROFILE,
  PROFILE_DIR,
  QUERIES,
  ROUNDS,
  stockVariant,
  VARIANTS,
  WARMUP,
  WORKLOADS,
} from './graph/config.ts';
import { serveGateway } from './graph/gateways.ts';
import type { Row, Traffic } from './graph/load.ts';
import { load, probe } from './graph/load.ts';
import type { Child } from './graph/processes.ts';
import { runChild, startChild } from './graph/processes.ts';
import { printReport } from './graph/report.ts';
import { serveSubgraphs } from './graph/subgraphs.ts';
import type { Catalog, VariedName } from './graph/workload.ts';
import { bodies, currencyRanks, dataOf, distinctBodies, Expected, SEED, VARIED } from './graph/workload.ts';

/** Bodies of each varied operation probed on every variant before the runs (a seeded sample). */
const SAMPLE = Number(process.env.SAMPLE ?? 100);

/** Ours must have run the key, rate-limit and cost plugins, and its safelist must refuse an operation outside it. */
async function checkPlugins(v: Variant, headers: Headers, url: string, keys: string[]): Promise<void> {
  const h = (n: string) => headers.get(n);
  if (h('x-api-plan') !== 'enterprise' || h('x-ratelimit-limit') !== '10000' || !h('x-query-cost'))
    throw new Error(
      `${v}: the key, rate-limit or cost plugin did not run (x-api-plan ${h('x-api-plan')}, x-ratelimit-limit ${h('x-ratelimit-limit')}, x-query-cost ${h('x-query-cost')})`,
    );
  // The safelist is on: an operation outside the manifest is refused before parsing.
  const off = await fetch(url, {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'x-sp-api-key': keys[0] as string },
    body: JSON.stringify({ query: '{ __typename }' }),
  });
  const code = ((await off.json()) as { errors?: { extensions?: { code?: string } }[] }).errors?.[0]
    ?.extensions?.code;
  if (code !== 'PERSISTED_QUERY_NOT_IN_LIST')
    throw new Error(`${v}: the persisted-operations safelist did not refuse { __typename } (${code})`);
}

/** What the varied draws pick from, asked of the markets subgraph: its coin ids by market cap, its currencies. */
async function readCatalog(marketsUrl: string): Promise<Catalog> {
  const res = await fetch(marketsUrl, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ query: '{ coins(first: 250) { edges { node { id } } } currencies }' }),
  });
  const { data } = (await res.json()) as {
    data?: { coins: { edges: { node: { id: string } }[] }; currencies: string[] };
  };
  if (!data) throw new Error(`the markets subgraph did not list its coins and currencies (${res.status})`);
  return { coinIds: data.coins.edges.map((e) => e.node.id), currencies: currencyRanks(data.currencies) };
}

async function main(): Promise<void> {
  const only = <T extends string>(env: string | undefined, all: readonly T[]): T[] =>
    env ? all.filter((v) => env.split(',').includes(v)) : [...all];
  const variants = only(process.env.VARIANTS, VARIANTS);
  const queries = only(process.env.QUERIES, Object.keys(QUERIES) as QueryName[]);
  const variedNames = only(process.env.QUERIES, Object.keys(VARIED) as VariedName[]);
  const workloads = only(process.env.WORKLOAD, WORKLOADS);
  const children: Child[] = [];
  try {
    const t0 = Date.now();
    const sub = await startChild(import.meta.filename, 'subgraphs', ['--role', 'subgraphs']);
    children.push(sub);
    const urls = sub.ready.urls as Record<SubgraphName, string>;
    const targets = new Map<Variant, Ready>();
    /** The processes serving each variant (profiled with PROFILE=1). */
    const serving = new Map<Variant, Child[]>();
    for (const v of variants) {
      if (embeddedVariant(v)) {
        targets.set(v, { ...sub.ready, url: sub.ready.embedded?.[v] as string });
        serving.set(v, [sub]);
      } else {
        const g = await startChild(
          import.meta.filename,
          v,
          ['--role', 'gateway', '--variant', v, '--urls', JSON.stringify(urls)],
          undefined,
          // Its access lines go to a file, as a log shipper would tail them.
          v === 'ours-observed'
            ? join(tmpdir(), `cw-bench-graph-${process.pid}-ours-observed.log`)
            : undefined,
        );
        children.push(g);
        targets.set(v, g.ready);
        serving.set(v, [g, sub]);
      }
    }
    if (PROFILE) mkdirSync(PROFILE_DIR, { recursive: true });
    // Vanilla gateways get the same request bytes (a rotating key header they ignore).
    const anyKeys = sub.ready.keys;
    const keysOf = (v: Variant) => (targets.get(v)?.keys.length ? (targets.get(v) as Ready).keys : anyKeys);
    const load1 = () => loadavg()[0]?.toFixed(2);
    console.log(
      `start-up ${((Date.now() - t0) / 1000).toFixed(1)} s; ${cpus().length} CPUs, load average ${load1()} (other work on the machine moves req/s, far less CPU ms/response)`,
    );

    // Identical bodies: same data from every variant, else abort; each variant's exact body is then expected of
    // every response.
    const expected = new Map<string, string>();
    for (const q of workloads.includes('identical') ? queries : []) {
      let reference: { v: Variant; data: unknown } | null = null;
      for (const v of variants) {
        const p = await probe((targets.get(v) as Ready).url, QUERIES[q], keysOf(v)[0] as string).catch(
          (e: unknown) => {
            throw new Error(`${v}, ${q}: ${e instanceof Error ? e.message : String(e)}`);
          },
        );
        if (!stockVariant(v)) await checkPlugins(v, p.headers, (targets.get(v) as Ready).url, keysOf(v));
        if (!reference) reference = { v, data: p.data };
        else if (!isDeepStrictEqual(reference.data, p.data))
          throw new Error(`${v} and ${reference.v} answer ${q} differently:\n${p.body}`);
        expected.set(`${v} ${q}`, p.body);
      }
      const d = reference?.data as Record<string, unknown>;
      console.log(
        `${q}: identical data from ${variants.join(', ')} (${JSON.stringify(d).length} bytes of data)`,
      );
    }

    // Varied bodies: the reference variant (the first listed) answers each body once, when first sent; every other
    // answer of every variant is compared with it by its `data` bytes. A seeded sample first, from every variant.
    const variedOps = workloads.includes('varied') ? variedNames : [];
    const catalog = variedOps.length ? await readCatalog(urls.markets) : null;
    const refVariant = variants[0] as Variant;
    const refTarget = targets.get(refVariant) as Ready;
    const reference = new Expected(async (body) => {
      const p = await probe(refTarget.url, '', keysOf(refVariant)[0] as string, body).catch((e: unknown) => {
        throw new Error(
          `${refVariant} (the reference) failed ${body}: ${e instanceof Error ? e.message : String(e)}`,
        );
      });
      return p.body;
    });
    for (const op of variedOps) {
      const c = catalog as Catalog;
      const sample = new Set<string>();
      const next = bodies(op, c, SEED - 1);
      for (let k = 0; k < 2_000 && sample.size < SAMPLE; k++) sample.add(next());
      for (const body of sample) await reference.of(body);
      const differ: string[] = [];
      for (const v of variants) {
        if (v === refVariant) continue;
        let n = 0;
        let first = '';
        for (const body of sample) {
          const got = await probe((targets.get(v) as Ready).url, '', keysOf(v)[0] as string, body).then(
            (p) => dataOf(p.body),
            (e: unknown) => (e instanceof Error ? e.message : String(e)),
          );
          if (got !== (await reference.of(body))) {
            n++;
            first ||= `${body}\n  ${v}: ${got.slice(0, 300)}\n  ${refVariant}: ${(await reference.of(body)).slice(0, 300)}`;
          }
        }
        if (n) differ.push(`${v}: ${n} of ${sample.size} differ from ${refVariant}; the first:\n${first}`);
      }
      console.log(
        `${op}: ${distinctBodies(op, c).toLocaleString('en')} distinct bodies possible; a seeded sample of ${sample.size}: ${
          differ.length
            ? `DIFFERENT DATA\n${differ.join('\n')}`
            : `identical data from ${variants.join(', ')}`
        }`,
      );
    }

    const results = new Map<string, Row[]>();
    for (let round = 1; round <= ROUNDS; round++) {
      const runs: [Workload, QueryName | VariedName][] = [
        ...variedOps.map((q) => ['varied', q] as [Workload, VariedName]),
        ...(workloads.includes('identical')
          ? queries.map((q) => ['identical', q] as [Workload, QueryName])
          : []),
      ];
      for (const [w, q] of runs)
        for (const v of variants) {
          const t = targets.get(v) as Ready;
          const check = reference.run();
          // Each round draws its own stream (the same for every variant), its warm-up another one.
          const traffic = (warm: boolean): Traffic =>
            w === 'identical'
              ? {
                  kind: 'identical',
                  body: JSON.stringify({ query: QUERIES[q as QueryName] }),
                  expectBody: expected.get(`${v} ${q}`) as string,
                }
              : {
                  kind: 'varied',
                  next: bodies(q as VariedName, catalog as Catalog, SEED + 2 * round + (warm ? 1 : 0)),
                  check: warm ? () => {} : check.check,
                };
          if (WARMUP > 0) await load(t.url, traffic(true), keysOf(v), WARMUP, true);
          const profiled = PROFILE ? (serving.get(v) ?? []) : [];
          for (const c of profiled) await c.profileStart();
          const procs = serving.get(v) ?? [];
          const before = await Promise.all(procs.map((c) => c.cpuMs()));
          const client = process.cpuUsage();
          const row = await load(t.url, traffic(false), keysOf(v), DURATION);
          const clientUsage = process.cpuUsage(client);
          const after = await Promise.all(procs.map((c) => c.cpuMs()));
          const perReq = (i: number) => ((after[i] ?? 0) - (before[i] ?? 0)) / row.total;
          row.cpu = {
            gateway: perReq(0),
            subgraphs: procs.length > 1 ? perReq(1) : 0,
            client: (clientUsage.user + clientUsage.system) / 1000 / row.total,
          };
          for (const c of profiled)
            await c.profileStop(
              join(PROFILE_DIR, `${w}.${v}.${q.replace(/\W+/g, '-')}.r${round}.${c.name}.cpuprofile`),
            );
          if (w === 'varied') {
            const found = await check.settle();
            row.mismatches = found.mismatches;
            row.distinct = found.distinct;
            if (found.example)
              console.log(
                `${v} | ${q}: ${found.mismatches} answers differ from ${refVariant}'s for the same body; the first:\n${found.example.body}\n  ${v}: ${found.example.got.slice(0, 300)}\n  ${refVariant}: ${found.example.want.slice(0, 300)}`,
              );
          }
          const k = `${w} ${v} ${q}`;
          results.set(k, [...(results.get(k) ?? []), row]);
          console.log(
            `round ${round} | ${w} | ${v} | ${q} | ${row.rps.toFixed(0)} req/s | p50 ${row.p50} ms | p99 ${row.p99} ms | CPU ms/req ${row.cpu.gateway.toFixed(2)} + ${row.cpu.subgraphs.toFixed(2)}${w === 'varied' ? ` | ${row.distinct} distinct bodies, ${row.mismatches} mismatches` : ''}`,
          );
        }
    }

    printReport(
      results,
      [
        ...(variedOps.length ? [{ workload: 'varied' as const, queries: variedOps }] : []),
        ...(workloads.includes('identical') ? [{ workload: 'identical' as const, queries }] : []),
      ],
      variants,
      load1,
    );
  } finally {
    for (const c of children.reverse()) await c.stop();
    if (PROFILE) console.log(`CPU profiles in ${PROFILE_DIR}`);
  }
}

// ---------------------------------------------------------------------------------------------------- entry

const arg = (name: string): string | undefined => {
  const i = process.argv.indexOf(name);
  return i === -1 ? undefined : process.argv[i + 1];
};
const role = arg('--role');
if (role === undefined) await main();
else
  await runChild(() =>
    role === 'subgraphs'
      ? serveSubgraphs()
      : serveGateway(
          arg('--variant') as Variant,
          JSON.parse(arg('--urls') ?? '{}') as Record<SubgraphName, string>,
        ),
  );
