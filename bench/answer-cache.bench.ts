/**
 * The per-snapshot answer caches of subgraph fetches (issue 34, item 2), on and off in one run: CPU per request of
 * the varied workload's bodies (`bench/graph/workload.ts`, the same seeded draws), in one process, so that what the
 * machine's other work does moves both sides alike (CPU time, not requests/s, is what is read).
 *
 * - **HTTP subgraph**: the markets subgraph on Fastify (`mountSubgraph`, through `inject`, no sockets), asked the
 *   fetches a gateway sends for `coins(first: $n, $currency)` and `coin($id, $currency)`: cache on against `false`.
 * - **embedded router**: `router.handle` over in-process subgraphs, as shipped (response cache on), for `nested($n,
 *   $name)` (which the response cache never keeps: it reads names): the markets subgraph with its answer cache
 *   (the facet's `pin`) against the same subgraph without `pin`.
 *
 * Blocks of `BLOCK` requests alternate on/off for `ROUNDS` rounds; the median block's CPU ms per request is shown.
 * `node bin/run-ts.js bench/answer-cache.bench.ts` (`BLOCK=300 ROUNDS=5` by default).
 */
import { createRouter } from '../router/index.ts';
import type { Router } from '../router/index.ts';
import { mountSubgraph } from '../subgraphs/shared/http.ts';
import type { Subgraph } from '../subgraphs/shared/subgraph.ts';
import { createAccess } from '../src/access/access.ts';
import { createMemoryLimiter } from '../src/access/limiter.ts';
import { graphHarness } from '../test/graph/router-harness.ts';
import { CURRENCIES } from '../src/catalog/currencies.ts';
import Fastify from 'fastify';
import { bodies, currencyRanks, SEED } from './graph/workload.ts';
import type { VariedName } from './graph/workload.ts';

const BLOCK = Number(process.env.BLOCK ?? 300);
const ROUNDS = Number(process.env.ROUNDS ?? 5);

const g = await graphHarness();
const markets = g.subgraphs.find((s) => s.name === 'markets') as Subgraph<unknown>;
const snap = g.tm.market.snapshot;
if (!snap) throw new Error('no snapshot');
const catalog = {
  coinIds: snap.ranked.map((m) => m.id),
  currencies: currencyRanks(CURRENCIES.map((c) => c.code).filter((c) => snap.rates.supports(c))),
};

const app = Fastify();
const on = await mountSubgraph(app, markets, '/on');
await mountSubgraph(app, markets, '/off', false);
await app.ready();

/** The markets subgraph without `pin`: the in-process source keeps no answers (the response cache is unchanged). */
const facet = markets.responseCache;
const unpinned: Subgraph<unknown> = {
  ...markets,
  ...(facet
    ? { responseCache: { current: () => facet.current(), readBy: (c: unknown) => facet.readBy(c) } }
    : {}),
};
const key = (await g.makeKey('enterprise', { limitPerMinute: 10_000 })).key;
const routerOf = (sgs: Subgraph<unknown>[]): Promise<Router> =>
  createRouter({
    access: createAccess({ keys: g.rest.keys, limiter: createMemoryLimiter() }),
    subgraphs: { kind: 'in-process', subgraphs: sgs },
  });
const routers = {
  on: await routerOf(g.subgraphs),
  off: await routerOf(g.subgraphs.map((s) => (s.name === 'markets' ? unpinned : s))),
};

const cpuMs = (): number => {
  const u = process.cpuUsage();
  return (u.user + u.system) / 1000;
};
const median = (xs: number[]): number => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)] as number;

type Send = (side: 'on' | 'off', body: string) => Promise<void>;
const overHttp: Send = async (side, body) => {
  const r = await app.inject({
    method: 'POST',
    url: `/${side}`,
    headers: { 'content-type': 'application/json', accept: 'application/json' },
    payload: body,
  });
  if (r.statusCode !== 200) throw new Error(`${side}: ${r.statusCode} ${r.body.slice(0, 200)}`);
};
const embedded: Send = async (side, body) => {
  const r = await routers[side].handle({
    method: 'POST',
    headers: { 'content-type': 'application/json', 'x-sp-api-key': key },
    search: '',
    body: JSON.parse(body) as Record<string, unknown>,
    socketIp: '10.7.0.1',
  });
  if (r.status !== 200) throw new Error(`${side}: ${r.status} ${r.body.slice(0, 200)}`);
};

async function measure(label: string, op: VariedName, send: Send): Promise<void> {
  const per: Record<'on' | 'off', number[]> = { on: [], off: [] };
  for (let round = 0; round < ROUNDS; round++) {
    for (const side of round % 2 ? (['off', 'on'] as const) : (['on', 'off'] as const)) {
      // The same stream for both sides in a round; each round its own (no block replays another's bodies).
      const next = bodies(op, catalog, SEED + round);
      const t0 = cpuMs();
      for (let i = 0; i < BLOCK; i++) await send(side, next());
      per[side].push((cpuMs() - t0) / BLOCK);
    }
  }
  const a = median(per.on);
  const b = median(per.off);
  console.log(
    `${label} | ${op} | on ${a.toFixed(3)} ms | off ${b.toFixed(3)} ms | on/off ${(a / b).toFixed(2)}× ` +
      `| blocks on ${per.on.map((x) => x.toFixed(2)).join(' ')} off ${per.off.map((x) => x.toFixed(2)).join(' ')}`,
  );
}

console.log(
  `answer caches on/off: ${ROUNDS} rounds of ${BLOCK} requests per side, CPU ms per request (median block)`,
);
for (const op of ['coins(first: $n, $currency)', 'coin($id, $currency)'] as const)
  await measure('HTTP subgraph (markets)', op, overHttp);
await measure('embedded router (response cache on)', 'nested($n, $name)', embedded);
console.log(`HTTP answer cache after the run: ${JSON.stringify(on.answerStats())}`);
await routers.on.stop();
await routers.off.stop();
await app.close();
await g.close();
