/**
 * The product on live inputs, with the demo off: a real Litecoin Core node (`litecoind -regtest` on loopback) and
 * recorded third-party answers in their real formats over HTTP (Kraken through ccxt, Blockchair, the ECB and
 * open.er-api, a Solana JSON-RPC endpoint). `coinwallet serve` must serve Litecoin's price, its market cap (node and
 * explorer agreeing), non-USD prices from the FX feeds, the node's chain figures and a fresh, live, signed proof of
 * reserves, each equal to what the node itself reports; follow the chain as it moves; and, once the node stops,
 * flag and then drop its figures by the rules, naming the source in `/healthz`. Only its config tells the product
 * that the node is a regtest one. The node, the recorded third parties and the product are set up in
 * `support/live-sources.ts`.
 */
import { describe, expect, it } from 'vitest';
import { verifyReport } from '../../src/bridge/attestation.ts';
import { FX_CURRENCIES } from '../../src/ingest/validate.ts';
import {
  fxRates,
  node,
  nodeBalances,
  nodeFigures,
  product,
  reserve,
  setExplorerCirculation,
  sourcesCheck,
  useLiveProduct,
  WRAPPED_UNITS,
} from './support/live-sources.ts';

useLiveProduct();

async function json<T>(path: string, init?: RequestInit): Promise<T> {
  const r = await fetch(product.url + path, init);
  expect(r.status, path).toBe(200);
  return (await r.json()) as T;
}

async function graph<T>(query: string): Promise<T> {
  const body = await json<{ data: T; errors?: unknown }>('/graphql', {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ query }),
  });
  expect(body.errors).toBeUndefined();
  return body.data;
}

/** Polls `read` until `ok` holds for its value (never a fixed sleep); returns that value. */
async function until<T>(
  read: () => Promise<T>,
  ok: (v: T) => boolean,
  what: string,
  ms = 20_000,
): Promise<T> {
  const end = Date.now() + ms;
  let last: T | undefined;
  while (Date.now() < end) {
    last = await read();
    if (ok(last)) return last;
    await new Promise((r) => setTimeout(r, 200));
  }
  throw new Error(`${what}: not within ${ms} ms; last ${JSON.stringify(last)}`);
}

interface CoinDetail {
  market_data: {
    circulating_supply: number | null;
    market_cap: Record<string, number | null>;
    current_price: Record<string, number | null>;
    supply_status: string;
    supply_status_reason: string | null;
    circulating_supply_sources: {
      source: string;
      kind: string;
      circulating_supply: number;
      agrees: boolean;
    }[];
  };
}
const coin = (): Promise<CoinDetail> => json<CoinDetail>('/v1/agg/coins/litecoin?tickers=false');

interface Mining {
  difficulty: number;
  networkHashrate: number;
  height: number;
  blockReward: number;
  blockTimeSeconds: number;
  tipTime: string;
  source: string;
  stale: boolean;
}
const mining = async (): Promise<Mining | null> =>
  (
    await graph<{ coin: { mining: Mining | null } }>(
      '{ coin(id: "litecoin") { mining { difficulty networkHashrate height blockReward blockTimeSeconds tipTime source stale } } }',
    )
  ).coin.mining;

interface Por {
  snapshotId: number;
  stale: boolean;
  report: {
    source: string;
    assets: {
      reserves: { total: string; addresses: { address: string; balance: string; height: number }[] };
      liabilities: { supply: string };
      ratio: string;
    }[];
  };
  attestation: { publicKey: string; signature: string };
}
const por = (): Promise<Por> => json<Por>('/api/proof-of-reserves');

describe('the product on a live node and recorded third parties (demo off)', () => {
  it('serves the price from the exchange, non-USD prices from the FX feeds, null where no feed has a rate', async () => {
    const rates = fxRates();
    const neither = [...FX_CURRENCIES].find((c) => !(c.toUpperCase() in rates) && c !== 'usd') as string;
    expect(neither).toBeDefined();
    const p = await json<Record<string, Record<string, number | null>>>(
      `/v1/agg/simple/price?ids=litecoin&vs_currencies=usd,eur,aed,${neither}&precision=full`,
    );
    expect(p['litecoin']?.['usd']).toBe(84.31); // Kraken's last trade, the only venue
    // The newest fresh rate: open.er-api's (an hour old) beats the ECB's (yesterday's).
    expect(p['litecoin']?.['eur']).toBeCloseTo(84.31 * (rates['EUR'] as number), 9);
    expect(p['litecoin']?.['aed']).toBeCloseTo(84.31 * (rates['AED'] as number), 9); // not an ECB currency
    expect(p['litecoin']?.[neither]).toBeNull();
    const health = await json<{
      dataset: string;
      sources: Record<string, { kind: string; lastError: string | null }>;
    }>('/healthz');
    expect(health.dataset).toBe('live');
    expect(Object.keys(health.sources).sort()).toEqual(
      ['blockchair:ltc', 'ccxt', 'ecb', 'node:ltc', 'open-er-api', 'solana'].sort(),
    );
    expect(Object.values(health.sources).every((s) => s.lastError === null)).toBe(true);
  });

  it('`coinwallet sources check` polls each source once and prints the table: all answer', async () => {
    const { code, out } = await sourcesCheck();
    expect(out).toMatch(/^source\s+kind\s+supplies\s+latency\s+records\s+rejects\s+error/m);
    for (const id of [
      'ccxt',
      'node:ltc',
      'blockchair:ltc',
      'ecb',
      'open-er-api',
      'solana',
      'bridge:litecoin-regtest',
    ])
      expect(out).toMatch(new RegExp(`^${id}\\s`, 'm'));
    expect(out).toMatch(/^node:ltc\s+node\s+supply,mining,balances\s+\d+ ms\s+[12]\s+-\s+-$/m);
    expect(out).toContain('all 8 sources answered');
    expect(code).toBe(0);
  });

  it("publishes the market cap from the node's supply and the explorer's agreeing one", async () => {
    const want = await nodeFigures();
    const c = await until(coin, (x) => x.market_data.supply_status === 'verified', 'verified supply');
    expect(c.market_data.circulating_supply).toBe(want.supply);
    expect(c.market_data.market_cap['usd']).toBeCloseTo(84.31 * want.supply, 6);
    expect(
      c.market_data.circulating_supply_sources.map((s) => [s.source, s.kind, s.circulating_supply, s.agrees]),
    ).toEqual([
      ['blockchair:ltc', 'explorer', want.supply, true],
      ['node:ltc', 'node', want.supply, true],
    ]);
  });

  it("serves the node's chain figures as the node reports them", async () => {
    const want = await nodeFigures();
    const m = await until(mining, (x) => x?.height === want.height, 'mining height');
    expect(m).toEqual({
      difficulty: want.difficulty,
      networkHashrate: want.networkHashrate,
      height: want.height,
      blockReward: 50,
      blockTimeSeconds: want.blockTimeSeconds,
      tipTime: want.tipTime,
      source: 'node:ltc',
      stale: false,
    });
    expect(want.blockReward).toBe(50);
  });

  it('signs a live proof of reserves whose balances are what the node holds at the reserve addresses', async () => {
    const r = await until(por, (x) => x.report.source === 'live', 'a live report');
    const balances = await nodeBalances();
    expect(balances).toEqual(['1250000000', '725000000']);
    const a = r.report.assets[0]!;
    expect(a.reserves.addresses.map((x) => [x.address, x.balance])).toEqual([
      [reserve[0], balances[0]],
      [reserve[1], balances[1]],
    ]);
    expect(a.reserves.total).toBe('1975000000');
    expect(a.liabilities.supply).toBe(WRAPPED_UNITS);
    expect(a.ratio).toBe('1.097222');
    expect(r.stale).toBe(false);
    const config = await json<{ attestation: { publicKey: string } }>('/api/config');
    expect(verifyReport(r.report, r.attestation.signature, config.attestation.publicKey)).toBe(true);
    const g = await graph<{
      bridge: { proofOfReserves: { snapshotId: number; report: { source: string } } };
    }>('{ bridge { proofOfReserves { snapshotId report { source } } } }');
    expect(g.bridge.proofOfReserves.report.source).toBe('LIVE');
    expect(g.bridge.proofOfReserves.snapshotId).toBeGreaterThanOrEqual(r.snapshotId);
  });

  it('follows the chain: new blocks and deposits show on the next ticks; a disagreeing explorer nulls the market cap', async () => {
    const miner = await node.rpc<string>('getnewaddress', ['', 'legacy'], 'miner');
    await node.rpc('sendtoaddress', [reserve[0], 2], 'miner');
    await node.rpc('generatetoaddress', [4, miner]);
    const want = await nodeFigures();
    const m = await until(mining, (x) => x?.height === want.height, 'the new height');
    expect(m).toMatchObject({ height: want.height, tipTime: want.tipTime, difficulty: want.difficulty });
    expect(m?.blockTimeSeconds).toBe(want.blockTimeSeconds);
    const r = await until(
      por,
      (x) => x.report.assets[0]?.reserves.addresses[0]?.height === want.height,
      'a report at the new height',
    );
    expect(r.report.assets[0]?.reserves.addresses.map((x) => x.balance)).toEqual(await nodeBalances());
    // The node's supply grew by 4 blocks' subsidy; the explorer still says the old figure: 3.9 % apart.
    const c = await until(coin, (x) => x.market_data.supply_status === 'sources_disagree', 'disagreement');
    expect(c.market_data.market_cap['usd']).toBeNull();
    expect(c.market_data.circulating_supply).toBeNull();
    expect(c.market_data.supply_status_reason).toMatch(
      /the 2 sources disagree: up to 1\.9\d % from their median/,
    );
    const node_ = c.market_data.circulating_supply_sources.find((s) => s.source === 'node:ltc');
    expect(node_).toMatchObject({ circulating_supply: want.supply, agrees: false });
    const g = await graph<{ coin: { supply: { status: string; reason: string } } }>(
      '{ coin(id: "litecoin") { supply { status reason } } }',
    );
    expect(g.coin.supply).toEqual({ status: 'SOURCES_DISAGREE', reason: c.market_data.supply_status_reason });
    // The explorer catches up: verified again.
    setExplorerCirculation(BigInt(Math.round(want.supply * 1e8)));
    const again = await until(coin, (x) => x.market_data.supply_status === 'verified', 'verified again');
    expect(again.market_data.circulating_supply).toBe(want.supply);
  });

  it('when the node stops: health names it, chain figures go stale then null, the market cap null, the report stale', async () => {
    const before = await por();
    await node.stop();
    const h = await until(
      () =>
        json<{
          sources: Record<string, { lastError: string | null; failures: Record<string, number> }>;
          proofOfReserves: { lastError: string | null };
        }>('/healthz'),
      (x) => x.sources['node:ltc']?.lastError !== null && x.proofOfReserves?.lastError !== null,
      'the node named as failing',
    );
    expect(Object.values(h.sources['node:ltc']?.failures ?? {}).reduce((a, b) => a + b, 0)).toBeGreaterThan(
      0,
    );
    const stale = await until(mining, (x) => x?.stale === true, 'stale figures');
    expect(stale?.source).toBe('node:ltc');
    await until(mining, (x) => x === null, 'no figures after MINING_MAX_AGE_MS');
    const c = await until(coin, (x) => x.market_data.supply_status === 'single_source', 'one source left');
    expect(c.market_data.market_cap['usd']).toBeNull();
    expect(c.market_data.circulating_supply_sources.map((s) => s.source)).toEqual(['blockchair:ltc']);
    // No new report is signed without the node; the last one is served, flagged stale once its figures age.
    const r = await until(por, (x) => x.stale, 'a stale report', 40_000);
    expect(r.snapshotId).toBeGreaterThanOrEqual(before.snapshotId);
    expect((await por()).snapshotId).toBe(r.snapshotId);
    // The check says so too, and fails.
    const check = await sourcesCheck();
    expect(check.code).toBe(1);
    expect(check.out).toMatch(/^node:ltc\s+node\s.*(cookie file|ECONNREFUSED)/m);
    expect(check.out).toMatch(/^bridge:litecoin-regtest\s.*\S/m);
    // A source failing every second is logged once a minute, not every tick.
    const lines = product.output().split('\n');
    expect(lines.filter((l) => l.includes('source failed') && l.includes('"node:ltc"'))).toHaveLength(1);
    expect(lines.filter((l) => l.includes('proof of reserves not signed'))).toHaveLength(1);
  }, 90_000);
});
