/**
 * The product on live inputs, with the demo off: a real Litecoin Core node (`litecoind -regtest` on loopback) and
 * recorded third-party answers in their real formats over HTTP (Kraken through ccxt, Blockchair, the ECB and
 * open.er-api, a Solana JSON-RPC endpoint). `coinwallet serve` must serve Litecoin's price, its market cap (node and
 * explorer agreeing), non-USD prices from the FX feeds, the node's chain figures and a fresh, live, signed proof of
 * reserves, each equal to what the node itself reports; follow the chain as it moves; and, once the node stops,
 * flag and then drop its figures by the rules, naming the source in `/healthz`. Only its config tells the product
 * that the node is a regtest one.
 */
import { execFile, execFileSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { base58 } from '@scure/base';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { verifyReport } from '../../src/bridge/attestation.ts';
import { servedNumber } from '../../src/engine/served-numbers.ts';
import { FX_CURRENCIES } from '../../src/ingest/validate.ts';
import type { Litecoind } from '../support/litecoind.ts';
import { startLitecoind } from '../support/litecoind.ts';
import type { ServeProcess } from '../support/process.ts';
import { startServe, waitForStatus } from '../support/process.ts';
import type { RecordedServer } from '../support/recorded-http.ts';
import { startRecordedServer } from '../support/recorded-http.ts';

const ROOT = join(import.meta.dirname, '..', '..');
const fixture = (p: string): string => readFileSync(join(ROOT, 'test', 'fixtures', p), 'utf8');
const DAY = 86_400_000;
const MINT = base58.encode(randomBytes(32));
const WRAPPED_UNITS = '1800000000'; // 18 wLTC (8 decimals)

let node: Litecoind;
let recorded: RecordedServer;
let product: ServeProcess;
let dir: string;
/** What the recorded Blockchair says Litecoin's circulation is, in litoshi (the test changes it). */
let explorerCirculation = 0n;
let reserve: [string, string];
let sourcesFile: string;
let bridgeDir: string;

/** `coinwallet sources check` on the test's sources file: its exit code and output. */
function sourcesCheck(): Promise<{ code: number; out: string }> {
  return new Promise((resolve) => {
    execFile(
      process.execPath,
      [join(ROOT, 'bin', 'coinwallet.js'), 'sources', 'check', '--file', sourcesFile],
      {
        cwd: ROOT,
        env: { ...process.env, BRIDGE_CONFIG_DIR: bridgeDir, BRIDGE_NETWORK: 'testnet', LOG_LEVEL: 'silent' },
      },
      (err, stdout, stderr) =>
        resolve({ code: err ? ((err as { code?: number }).code ?? 1) : 0, out: stdout + stderr }),
    );
  });
}

const fxRates = (): Record<string, number> =>
  (JSON.parse(fixture('fx/er-api-latest-usd-2024-08-19.json')) as { rates: Record<string, number> }).rates;

/** The recorded third parties, answering in their real formats, with times moved to now where freshness needs it. */
async function startThirdParties(): Promise<RecordedServer> {
  return startRecordedServer(({ method, url, body }) => {
    const p = url.pathname;
    if (p.startsWith('/kraken/0/public/')) return { body: fixture(`kraken/${p.split('/').pop()}.json`) };
    if (p === '/blockchair/litecoin/stats')
      return {
        body: fixture('explorers/blockchair-litecoin-stats-2020-07-13.json').replace(
          /"circulation":\s*\d+/,
          `"circulation": ${explorerCirculation}`,
        ),
      };
    if (p === '/ecb/eurofxref-daily.xml') {
      const yesterday = new Date(Date.now() - DAY).toISOString().slice(0, 10);
      return {
        headers: { 'content-type': 'text/xml' },
        body: fixture('fx/ecb-eurofxref-daily-2024-06-28.xml').replace(
          "time='2024-06-28'",
          `time='${yesterday}'`,
        ),
      };
    }
    if (p === '/er-api/v6/latest/USD') {
      const now = Math.floor(Date.now() / 1000);
      return {
        body: fixture('fx/er-api-latest-usd-2024-08-19.json')
          .replace(/"time_last_update_unix":\d+/, `"time_last_update_unix":${now - 3600}`)
          .replace(/"time_next_update_unix":\d+/, `"time_next_update_unix":${now + 23 * 3600}`),
      };
    }
    if (p === '/solana' && method === 'POST') {
      const req = JSON.parse(body) as { id: number; method: string; params?: unknown[] };
      const answer = (result: unknown) => ({ body: JSON.stringify({ jsonrpc: '2.0', result, id: req.id }) });
      if (req.method === 'getSlot') return answer(381_204_555);
      if (req.method === 'getBlockTime') return answer(Math.floor(Date.now() / 1000) - 5);
      if (req.method === 'getTokenSupply' && req.params?.[0] === MINT)
        return answer({
          context: { slot: 381_204_555 },
          value: { amount: WRAPPED_UNITS, decimals: 8, uiAmount: 18, uiAmountString: '18' },
        });
    }
    return { status: 404, body: '{"error":"not recorded"}' };
  });
}

function writeConfig(): { sourcesFile: string; bridgeDir: string } {
  const bridgeDir = join(dir, 'bridge');
  mkdirSync(bridgeDir);
  writeFileSync(
    join(bridgeDir, 'testnet.json'),
    JSON.stringify({
      network: 'testnet',
      version: 'e2e-regtest',
      chains: [
        {
          id: 'litecoin-regtest',
          kind: 'utxo',
          name: 'Litecoin regtest',
          ticker: 'LTC',
          p2pkh: 111,
          p2sh: [58, 196],
        },
        {
          id: 'solana-devnet',
          kind: 'solana',
          name: 'Solana devnet',
          cluster: 'devnet',
          bridgeProgram: base58.encode(randomBytes(32)),
        },
      ],
      assets: [
        {
          ticker: 'LTC',
          name: 'Litecoin',
          decimals: 8,
          nativeChain: 'litecoin-regtest',
          wrapped: {
            chain: 'solana-devnet',
            ticker: 'wLTC',
            name: 'Wrapped Litecoin',
            mint: MINT,
            decimals: 8,
          },
          reserveAddresses: reserve,
        },
      ],
      lanes: [
        {
          id: 'ltc-wrap',
          asset: 'LTC',
          direction: 'wrap',
          status: 'active',
          confirmations: 6,
          minAmount: '100000000',
          maxAmount: '100000000000',
          fees: { fixed: '100000', percent: 0.1 },
          depositAddress: reserve[0],
        },
      ],
      attestation: { publicKey: 'from-secret' },
    }),
  );
  writeFileSync(
    join(dir, 'ccxt.json'),
    JSON.stringify({
      venues: [{ id: 'kraken', url: `${recorded.url}/kraken`, symbols: { 'LTC/USD': 'litecoin' } }],
    }),
  );
  const sourcesFile = join(dir, 'sources.json');
  writeFileSync(
    sourcesFile,
    JSON.stringify({
      sources: [
        { type: 'ccxt', config: 'ccxt.json' },
        {
          type: 'node',
          coin: 'LTC',
          url: node.rpcUrl,
          cookieFile: node.cookieFile,
          timeoutMs: 3000,
          supplyEveryMs: 1000,
          blockTimeWindow: 50,
        },
        {
          type: 'blockchair',
          coin: 'LTC',
          url: `${recorded.url}/blockchair`,
          chain: 'litecoin',
          everyMs: 1000,
        },
        { type: 'ecb', url: `${recorded.url}/ecb/eurofxref-daily.xml` },
        { type: 'open-er-api', url: `${recorded.url}/er-api/v6/latest/USD` },
        { type: 'solana', url: `${recorded.url}/solana` },
      ],
      bridge: {
        everyMs: 1000,
        balances: { 'litecoin-regtest': 'node:ltc' },
        tokenSupply: { 'solana-devnet': 'solana' },
      },
    }),
  );
  return { sourcesFile, bridgeDir };
}

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

/** What the node itself says each reserve address holds (the UTXO set), in litoshi. */
async function nodeBalances(): Promise<string[]> {
  const out: string[] = [];
  for (const a of reserve) {
    const text = await node.rpcText('scantxoutset', ['start', [`addr(${a})`]]);
    const m = /"total_amount":\s*(\d+)\.(\d{8})/.exec(text);
    out.push((BigInt(m?.[1] ?? 'x') * 100_000_000n + BigInt(m?.[2] ?? 'x')).toString());
  }
  return out;
}

/** The node's own figures: what every served chain figure must equal. */
async function nodeFigures() {
  const height = await node.rpc<number>('getblockcount');
  const tip = await node.rpc<{ time: number }>('getblockheader', [await node.rpc('getblockhash', [height])]);
  const old = await node.rpc<{ time: number }>('getblockheader', [
    await node.rpc('getblockhash', [height - 50]),
  ]);
  const info = await node.rpc<{ difficulty: number }>('getmininginfo');
  const stats = await node.rpc<{ subsidy: number }>('getblockstats', [height, ['subsidy']]);
  const supply = await node.rpc<{ total_amount: number }>('gettxoutsetinfo', ['none']);
  // As served: whole numbers as they are, others at most 12 significant digits (the served-number rule).
  return {
    height,
    difficulty: servedNumber(info.difficulty),
    networkHashrate: servedNumber(await node.rpc<number>('getnetworkhashps')),
    blockReward: stats.subsidy / 1e8,
    blockTimeSeconds: servedNumber((tip.time - old.time) / 50),
    tipTime: new Date(tip.time * 1000).toISOString(),
    supply: supply.total_amount,
  };
}

beforeAll(async () => {
  execFileSync('litecoind', ['-version'], { stdio: 'ignore' }); // installed by .ci/run
  dir = mkdtempSync(join(tmpdir(), 'cw-live-'));
  node = await startLitecoind();
  await node.rpc('createwallet', ['miner']);
  // The reserves in a wallet of their own, so the miner's sends never spend them.
  await node.rpc('createwallet', ['reserves']);
  const miner = await node.rpc<string>('getnewaddress', ['', 'legacy'], 'miner');
  reserve = [
    await node.rpc<string>('getnewaddress', ['', 'legacy'], 'reserves'),
    await node.rpc<string>('getnewaddress', ['', 'p2sh-segwit'], 'reserves'),
  ];
  const ordinary = await node.rpc<string>('getnewaddress', ['', 'bech32'], 'miner');
  // 101 blocks 150 s apart, ending a minute ago: one mature coinbase (50 LTC) to spend.
  await node.mine(101, miner, 150, Math.floor(Date.now() / 1000) - 60);
  await node.rpc('sendtoaddress', [reserve[0], 12.5], 'miner');
  await node.rpc('sendtoaddress', [reserve[1], 7.25], 'miner');
  await node.rpc('sendtoaddress', [ordinary, 3], 'miner');
  await node.rpc('generatetoaddress', [1, miner]);
  explorerCirculation = BigInt(Math.round((await nodeFigures()).supply * 1e8));
  recorded = await startThirdParties();
  ({ sourcesFile, bridgeDir } = writeConfig());
  product = await startServe({
    DATA_DIR: join(dir, 'data'),
    DEMO: 'off',
    SOURCES_FILE: sourcesFile,
    BRIDGE_CONFIG_DIR: bridgeDir,
    BRIDGE_NETWORK: 'testnet',
    TICK_INTERVAL_MS: '1000',
    BRIDGE_STALE_AFTER_MS: '30000',
    MINING_STALE_AFTER_MS: '3000',
    MINING_MAX_AGE_MS: '6000',
    SUPPLY_MAX_AGE_MS: '8000',
  });
  await waitForStatus(`${product.url}/healthz`, 200, 60_000);
}, 120_000);

afterAll(async () => {
  await product?.stop('SIGKILL');
  await recorded?.close();
  await node?.stop();
  if (dir) rmSync(dir, { recursive: true, force: true });
});

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
    explorerCirculation = BigInt(Math.round(want.supply * 1e8));
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
