/**
 * Shared setup of the live-sources e2e test (`test/e2e/live-sources.e2e.ts`): a real Litecoin Core node
 * (`litecoind -regtest` on loopback) with funded reserve addresses, recorded third-party answers in their real
 * formats over HTTP (Kraken through ccxt, Blockchair, the ECB and open.er-api, a Solana JSON-RPC endpoint), the sources
 * and bridge config files naming them, and `coinwallet serve` on those files with the demo off. Importers see `node`,
 * `product`, `reserve` and `explorerCirculation` live; the last is changed with its setter.
 */
import { execFile, execFileSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { base58 } from '@scure/base';
import { afterAll, beforeAll } from 'vitest';
import { servedNumber } from '../../../src/engine/served-numbers.ts';
import type { Litecoind } from '../../support/litecoind.ts';
import { startLitecoind } from '../../support/litecoind.ts';
import type { ServeProcess } from '../../support/process.ts';
import { startServe, waitForStatus } from '../../support/process.ts';
import type { RecordedServer } from '../../support/recorded-http.ts';
import { startRecordedServer } from '../../support/recorded-http.ts';
import { freshFxFeed } from '../../support/recorded-feeds.ts';

const ROOT = join(import.meta.dirname, '..', '..', '..');
const fixture = (p: string): string => readFileSync(join(ROOT, 'test', 'fixtures', p), 'utf8');
const MINT = base58.encode(randomBytes(32));
export const WRAPPED_UNITS = '1800000000'; // 18 wLTC (8 decimals)

export let node: Litecoind;
let recorded: RecordedServer;
export let product: ServeProcess;
let dir: string;
/** What the recorded Blockchair says Litecoin's circulation is, in litoshi (the test changes it). */
export let explorerCirculation = 0n;
/** Changes what the recorded Blockchair says from now on. */
export const setExplorerCirculation = (litoshi: bigint): void => {
  explorerCirculation = litoshi;
};
export let reserve: [string, string];
let sourcesFile: string;
let bridgeDir: string;

/** `coinwallet sources check` on the test's sources file: its exit code and output. */
export function sourcesCheck(): Promise<{ code: number; out: string }> {
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

export const fxRates = (): Record<string, number> =>
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
    const fx = freshFxFeed(p);
    if (fx) return fx;
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

/** What the node itself says each reserve address holds (the UTXO set), in litoshi. */
export async function nodeBalances(): Promise<string[]> {
  const out: string[] = [];
  for (const a of reserve) {
    // One scan at a time in Core: the product's own poll may be scanning ("Scan already in progress").
    let m: RegExpExecArray | null = null;
    for (let attempt = 0; m === null && attempt < 40; attempt++) {
      if (attempt > 0) await new Promise((r) => setTimeout(r, 100));
      const text = await node.rpcText('scantxoutset', ['start', [`addr(${a})`]]);
      m = /"total_amount":\s*(\d+)\.(\d{8})/.exec(text);
      if (m === null && !/in progress/i.test(text)) throw new Error(`scantxoutset: ${text}`);
    }
    out.push((BigInt(m?.[1] ?? 'x') * 100_000_000n + BigInt(m?.[2] ?? 'x')).toString());
  }
  return out;
}

/** The node's own figures: what every served chain figure must equal. */
export async function nodeFigures() {
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

/**
 * The file's hooks: a regtest node with the reserves funded, the recorded third parties, the config files and
 * `coinwallet serve` on them, started once for the file (the tests follow one chain in order), and all stopped after.
 */
export function useLiveProduct(): void {
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
      BRIDGE_STALE_AFTER_MS: '20000',
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
}
