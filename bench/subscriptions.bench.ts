/**
 * Live subscriptions at scale: N GraphQL-over-SSE subscriptions (default 10,000) open on one router process over
 * loopback, and what an engine tick then costs. Run: `node bin/run-ts.js bench/subscriptions.bench.ts [n] [ticks]`.
 *
 * The server is a child process (this file with `server`): the embedded router over the test market (2 days of
 * demo history), its market's snapshots feeding the subscriptions, access checks on (keyless callers, caps and
 * budgets raised so that one client address can hold N streams). The parent opens N streams with plain `node:http`
 * requests — `prices(ids: ["litecoin", <one of 50 coins>], currency: "usd")`, so 50 groups of N/50 subscribers —
 * then asks for `ticks` price moves of litecoin (each an engine tick whose event every subscriber gets) and reports:
 *
 * - memory per subscription: the server's RSS and V8 heap after a GC, with the streams open minus before;
 * - time from tick to last delivery: from the server's tick start (its wall clock, the same machine's) to the moment
 *   the client has read the tick's event on every stream;
 * - CPU per tick: the server's user + system CPU from the tick start until every event was read.
 */
import { fork } from 'node:child_process';
import type { ChildProcess } from 'node:child_process';
import { Agent, request } from 'node:http';
import type { IncomingMessage } from 'node:http';

const N = Number(process.argv[2] ?? 10_000);
const TICKS = Number(process.argv[3] ?? 5);
const GROUPS = 50;

type ToServer = { type: 'tick' } | { type: 'measure' } | { type: 'cpu'; since: NodeJS.CpuUsage };
type FromServer =
  | { type: 'ready'; url: string; coins: string[] }
  | { type: 'ticked'; at: number; cpu: NodeJS.CpuUsage; streams: number }
  | { type: 'measured'; rss: number; heap: number; streams: number }
  | { type: 'cpu'; ms: number };

if (process.argv[2] === 'server') await server();
else await main();

async function server(): Promise<void> {
  const { createAccess } = await import('../src/access/access.ts');
  const { createMemoryLimiter } = await import('../src/access/limiter.ts');
  const { ApiKeyService } = await import('../src/accounts/keys.ts');
  const { loadDeployment } = await import('../src/bridge/deployment.ts');
  const { createServices } = await import('../src/services.ts');
  const { createSubgraphs } = await import('../src/start/graph.ts');
  const { engineConfig } = await import('../src/start/wiring.ts');
  const { createRouter } = await import('../router/index.ts');
  const { mountRouter } = await import('../router/http.ts');
  const { createTestMarket, TEST_NOW } = await import('../test/support/price-app.ts');
  const { movePrice } = await import('../test/support/price-move.ts');
  const Fastify = (await import('fastify')).default;

  let clock = TEST_NOW;
  const tm = await createTestMarket({ days: 2, now: () => clock });
  const keys = new ApiKeyService(tm.db, { pepper: 'bench-subscriptions-pepper-0123456789' });
  const big = 1_000_000_000;
  const access = createAccess({
    keys,
    limiter: createMemoryLimiter(),
    keylessPerMinute: big,
    costBudgets: { keyless: big },
    subscriptionStreams: { keyless: 1_000_000 },
  });
  const router = await createRouter({
    access,
    snapshots: (tick) => tm.market.onSnapshot(() => tick()),
    subgraphs: {
      kind: 'in-process',
      subgraphs: createSubgraphs({
        market: tm.market,
        engine: engineConfig({ staleAfterMs: 900_000 }),
        adminToken: null,
        services: createServices(
          tm.db,
          {
            domain: 'bench.local',
            nameSuffix: 'coin',
            nameNetwork: 'mainnet',
            bridge: { deployment: loadDeployment('testnet') },
          },
          { keys },
        ),
      }),
    },
  });
  const app = Fastify({ logger: false });
  await mountRouter(app, router);
  const url = await app.listen({ port: 0, host: '127.0.0.1' });
  const coins = [...tm.market.snapshot!.markets.keys()].filter((c) => c !== 'litecoin').slice(0, GROUPS);
  const send = (m: FromServer) => process.send?.(m);
  let factor = 1.001;
  process.on('message', (m: ToServer) => {
    void (async () => {
      if (m.type === 'tick') {
        clock += 60_000;
        factor = factor > 1 ? 0.999 : 1.001;
        const cpu = process.cpuUsage();
        const at = Date.now();
        await movePrice(tm.market, 'litecoin', factor);
        send({ type: 'ticked', at, cpu, streams: router.subscriptions.stats().streams });
      } else if (m.type === 'measure') {
        for (let i = 0; i < 3; i++) {
          globalThis.gc?.();
          await new Promise((r) => setTimeout(r, 100));
        }
        const mem = process.memoryUsage();
        send({
          type: 'measured',
          rss: mem.rss,
          heap: mem.heapUsed,
          streams: router.subscriptions.stats().streams,
        });
      } else if (m.type === 'cpu') {
        const d = process.cpuUsage(m.since);
        send({ type: 'cpu', ms: (d.user + d.system) / 1_000 });
      }
    })();
  });
  process.on('disconnect', () => process.exit(0));
  process.on('SIGTERM', () => process.exit(0));
  send({ type: 'ready', url, coins });
}

/** One open stream on the client side: counts the `next` events it read and when it read the last one. */
interface ClientStream {
  events: number;
  lastAt: number;
  res: IncomingMessage;
}

async function main(): Promise<void> {
  const child: ChildProcess = fork('bin/run-ts.js', ['bench/subscriptions.bench.ts', 'server'], {
    // PROFILE_DIR: a CPU profile of the server (start-up included) is written there.
    execArgv: [
      '--expose-gc',
      '--max-old-space-size=4096',
      ...(process.env['PROFILE_DIR'] ? ['--cpu-prof', `--cpu-prof-dir=${process.env['PROFILE_DIR']}`] : []),
    ],
  });
  const inbox: FromServer[] = [];
  let wake: (() => void) | null = null;
  child.on('message', (m: FromServer) => {
    inbox.push(m);
    wake?.();
  });
  const receive = async <T extends FromServer['type']>(
    type: T,
  ): Promise<Extract<FromServer, { type: T }>> => {
    for (;;) {
      const i = inbox.findIndex((m) => m.type === type);
      if (i !== -1) return inbox.splice(i, 1)[0] as Extract<FromServer, { type: T }>;
      await new Promise<void>((r) => (wake = r));
    }
  };
  const ask = (m: ToServer) => child.send(m);

  try {
    const { url, coins } = await receive('ready');
    const target = new URL('/graphql', url);
    const agent = new Agent({ keepAlive: false, maxSockets: Infinity });
    const query = 'subscription ($ids: [ID!]!) { prices(ids: $ids, currency: "usd") { id price } }';
    const open = (i: number): Promise<ClientStream> =>
      new Promise((resolve, reject) => {
        const body = JSON.stringify({ query, variables: { ids: ['litecoin', coins[i % coins.length]] } });
        const req = request(
          target,
          {
            method: 'POST',
            agent,
            headers: { 'content-type': 'application/json', accept: 'text/event-stream' },
          },
          (res) => {
            if (res.statusCode !== 200) return reject(new Error(`stream ${i}: HTTP ${res.statusCode}`));
            const s: ClientStream = { events: 0, lastAt: 0, res };
            res.setEncoding('utf8');
            res.on('data', (chunk: string) => {
              let at = chunk.indexOf('event: next');
              while (at !== -1) {
                s.events++;
                s.lastAt = Date.now();
                if (s.events === 1) resolve(s);
                at = chunk.indexOf('event: next', at + 1);
              }
            });
            res.on('error', reject);
          },
        );
        req.on('error', reject);
        req.end(body);
      });

    ask({ type: 'measure' });
    const before = await receive('measured');
    const t0 = Date.now();
    const streams: ClientStream[] = [];
    const BATCH = 250;
    for (let i = 0; i < N; i += BATCH)
      streams.push(
        ...(await Promise.all(Array.from({ length: Math.min(BATCH, N - i) }, (_, j) => open(i + j)))),
      );
    const openMs = Date.now() - t0;
    ask({ type: 'measure' });
    const after = await receive('measured');
    const perSubRss = (after.rss - before.rss) / N / 1024;
    const perSubHeap = (after.heap - before.heap) / N / 1024;
    console.log(
      `${N} SSE subscriptions (${GROUPS} groups) open in ${(openMs / 1000).toFixed(1)} s; server streams: ${after.streams}`,
    );
    console.log(
      `memory per subscription: RSS ${perSubRss.toFixed(1)} KiB, V8 heap ${perSubHeap.toFixed(1)} KiB ` +
        `(server RSS ${(before.rss / 2 ** 20).toFixed(0)} → ${(after.rss / 2 ** 20).toFixed(0)} MiB)`,
    );

    const rows: { last: number; cpu: number }[] = [];
    for (let t = 0; t < TICKS; t++) {
      const counts = streams.map((s) => s.events);
      ask({ type: 'tick' });
      const ticked = await receive('ticked');
      const deadline = Date.now() + 60_000;
      while (streams.some((s, i) => s.events <= (counts[i] as number))) {
        if (Date.now() > deadline) throw new Error('not every stream got the tick within 60 s');
        await new Promise((r) => setTimeout(r, 5));
      }
      const last = Math.max(...streams.map((s) => s.lastAt)) - ticked.at;
      ask({ type: 'cpu', since: ticked.cpu });
      const { ms } = await receive('cpu');
      rows.push({ last, cpu: ms });
      console.log(`tick ${t + 1}: last delivery ${last} ms after the tick, server CPU ${ms.toFixed(0)} ms`);
      await new Promise((r) => setTimeout(r, 500));
    }
    const med = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)] as number;
    console.log(
      `median: last delivery ${med(rows.map((r) => r.last))} ms, CPU ${med(rows.map((r) => r.cpu)).toFixed(0)} ms per tick ` +
        `(${((med(rows.map((r) => r.cpu)) * 1000) / N).toFixed(1)} µs per delivered event)`,
    );
    for (const s of streams) s.res.destroy();
    agent.destroy();
  } finally {
    child.kill('SIGTERM');
  }
}
