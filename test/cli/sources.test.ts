/**
 * `coinwallet sources check` (src/cli/sources.ts) against a local server (test/support/recorded-http.ts) that
 * replays recorded answers: the ECB and open.er-api FX feeds, Blockchair's Litecoin stats, a Solana endpoint
 * (getSlot, getTokenSupply, getBlockTime) and two Blockbook explorers, plus an explorer that answers an HTML error
 * page and one that never answers. The sources come from a real sources file (`createSourcesFromFile`), the bridge
 * rows from a copy of the testnet deployment whose wDOGE mint is one the fake Solana endpoint knows.
 */
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { DEFAULT_DEPLOYMENT_DIR, loadDeploymentFile } from '../../src/bridge/deployment.ts';
import type { BridgeAsset, Deployment } from '../../src/bridge/model.ts';
import { UsageError } from '../../src/cli/args.ts';
import { checkSources, formatTable, sourcesCommand } from '../../src/cli/sources.ts';
import type { CheckRow } from '../../src/cli/sources.ts';
import { loadConfig } from '../../src/config.ts';
import { createSourcesFromFile } from '../../src/ingest/sources.ts';
import type { ConfiguredSources } from '../../src/ingest/sources.ts';
import { startRecordedServer } from '../support/recorded-http.ts';
import type { Recorded, RecordedRequest, RecordedServer } from '../support/recorded-http.ts';

const FIXTURES = join(import.meta.dirname, '..', 'fixtures');
const fixture = (path: string): string => readFileSync(join(FIXTURES, path), 'utf8');
/** `text` with `from` replaced; fails loudly when the fixture no longer holds `from`. */
function edit(text: string, from: RegExp, to: string): string {
  if (!from.test(text)) throw new Error(`fixture edit: ${from} not found`);
  return text.replace(from, to);
}

const ECB_XML = fixture('fx/ecb-eurofxref-daily-2024-06-28.xml');
// Two rates made unusable, so the row has rejects to count.
const ER_JSON = edit(
  edit(fixture('fx/er-api-latest-usd-2024-08-19.json'), /"EUR":0\.907539/, '"EUR":0'),
  /"JPY":148\.042596/,
  '"JPY":-1',
);
const BLOCKCHAIR = fixture('explorers/blockchair-litecoin-stats-2020-07-13.json');
const HEIGHT = 2_648_059; // the recorded Blockbook block
const BB_STATUS = edit(
  fixture('explorers/blockbook-status-btc1-2024-09-10.json'),
  /"bestHeight": 860730/,
  `"bestHeight": ${HEIGHT}`,
);
const BB_ADDRESS = fixture('explorers/blockbook-address-basic-btc1-derived.json');
const BB_BLOCK = fixture('explorers/blockbook-block-doge-2648059.json');
const SOL_SLOT = fixture('solana/getSlot-docs.json');
// The documented answer has 2 decimals; the testnet deployment's wrapped tokens have 8.
const SOL_SUPPLY = edit(fixture('solana/getTokenSupply-docs.json'), /"decimals": 2/, '"decimals": 8');
const SOL_NOT_A_MINT = fixture('solana/getTokenSupply-error-not-a-mint.json');
const SOL_BLOCK_TIME = fixture('solana/getBlockTime-docs.json');
const HTML = '<html><body><h1>503 Service Temporarily Unavailable</h1></body></html>';

/** Mainnet USDC's mint: the copy of the testnet deployment uses it for wDOGE. */
const USDC_MINT = 'EPjFWdd5AufqSSqeM2qJxyxfWHGkWHZfxkKRj8NQT1v';
const LKY_MINT = 'CD9Dc7tXiQS5Zh9gEo3hdDcpxg9ZQRysy6WFN5RjuZ4z';
/** The mints the fake Solana endpoint has; any other gets the validator's "not a Token mint" error. */
const KNOWN_MINTS = new Set([LKY_MINT, USDC_MINT]);

function solana(body: string): Recorded {
  const { id, method, params } = JSON.parse(body) as { id: number; method: string; params: unknown[] };
  const answer =
    method === 'getSlot'
      ? SOL_SLOT
      : method === 'getBlockTime'
        ? SOL_BLOCK_TIME
        : method === 'getTokenSupply'
          ? KNOWN_MINTS.has(params[0] as string)
            ? SOL_SUPPLY
            : SOL_NOT_A_MINT
          : undefined;
  if (answer === undefined) return { status: 404, body: 'no such method here' };
  return { body: answer.replace(/"id": ?1\b/, `"id": ${id}`) };
}

function route(req: RecordedRequest): Recorded | 'hang' {
  const path = req.url.pathname;
  if (path === '/ecb/eurofxref-daily.xml') return { headers: { 'content-type': 'text/xml' }, body: ECB_XML };
  if (path === '/er/v6/latest/USD') return { body: ER_JSON };
  if (path === '/blockchair/litecoin/stats') return { body: BLOCKCHAIR };
  if (path === '/html/dogecoin/stats')
    return { status: 503, headers: { 'content-type': 'text/html' }, body: HTML };
  if (path === '/hang') return 'hang';
  if (path === '/solana' && req.method === 'POST') return solana(req.body);
  const bb = /^\/bb-(?:lky|doge)(\/api\/v2.*)$/.exec(path)?.[1];
  if (bb === '/api/v2') return { body: BB_STATUS };
  if (bb?.startsWith('/api/v2/address/')) return { body: BB_ADDRESS };
  if (bb === `/api/v2/block/${HEIGHT}`) return { body: BB_BLOCK };
  return { status: 404, body: '{"error":"not recorded"}' };
}

let server: RecordedServer;
let dir: string;
let u: string;
let deployment: Deployment;
/** Paths of the sources files written for the server's port. */
const files = { good: '', bad: '', noBridge: '' };

const BRIDGE = {
  balances: { 'luckycoin-testnet': 'blockbook:lky', 'dogecoin-testnet': 'blockbook:doge' },
  tokenSupply: { 'solana-devnet': 'solana' },
};
/** A bridge section that names no reader (only its schedule). */
const BRIDGE_NAMES_NOTHING = { everyMs: 60_000 };
const goodSources = () => [
  { type: 'ecb', url: `${u}/ecb/eurofxref-daily.xml` },
  { type: 'open-er-api', url: `${u}/er/v6/latest/USD` },
  { type: 'blockchair', coin: 'LTC', url: `${u}/blockchair`, chain: 'litecoin' },
  { type: 'solana', url: `${u}/solana` },
  { type: 'blockbook', coin: 'LKY', url: `${u}/bb-lky` },
  { type: 'blockbook', coin: 'DOGE', url: `${u}/bb-doge` },
];
const htmlSource = () => ({ type: 'blockchair', coin: 'DOGE', url: `${u}/html`, chain: 'dogecoin' });
const text = (o: unknown): string => JSON.stringify(o, null, 2);

beforeAll(async () => {
  server = await startRecordedServer(route);
  u = server.url;
  dir = mkdtempSync(join(tmpdir(), 'cw-sources-check-'));
  // BRIDGE_CONFIG_DIR: the testnet deployment with wDOGE on a mint the fake endpoint knows.
  const raw = JSON.parse(readFileSync(join(DEFAULT_DEPLOYMENT_DIR, 'testnet.json'), 'utf8')) as {
    assets: { ticker: string; wrapped: { mint: string } }[];
  };
  const doge = raw.assets.find((a) => a.ticker === 'DOGE');
  if (!doge) throw new Error('no DOGE in config/bridge/testnet.json');
  doge.wrapped.mint = USDC_MINT;
  mkdirSync(join(dir, 'bridge'));
  mkdirSync(join(dir, 'empty'));
  writeFileSync(join(dir, 'bridge', 'testnet.json'), text(raw));
  deployment = loadDeploymentFile(join(dir, 'bridge', 'testnet.json'));

  files.good = join(dir, 'good.json');
  writeFileSync(files.good, text({ sources: goodSources(), bridge: BRIDGE }));
  files.bad = join(dir, 'bad.json');
  writeFileSync(files.bad, text({ sources: [...goodSources(), htmlSource()], bridge: BRIDGE }));
  files.noBridge = join(dir, 'no-bridge.json');
  writeFileSync(files.noBridge, text({ sources: goodSources().slice(0, 3) }));
});
afterAll(async () => {
  await server.close();
  rmSync(dir, { recursive: true, force: true });
});

/** Sources built from `file` (an object), closed after the test. */
const opened: ConfiguredSources[] = [];
function configure(file: unknown): ConfiguredSources {
  const c = createSourcesFromFile(text(file), join(dir, 'inline.json'));
  opened.push(c);
  return c;
}
afterEach(async () => {
  for (const c of opened.splice(0)) for (const s of c.sources) await s.close?.();
});

const withoutMs = (rows: CheckRow[]) => rows.map(({ ms: _ms, ...r }) => r);
const ok = (source: string, kind: string, supplies: string, records: number) => ({
  source,
  kind,
  supplies,
  records,
  rejects: '',
  error: '',
});

describe('checkSources', () => {
  it('one row per source, then one per bridge read: kind, supplies, records, rejects by reason, error', async () => {
    const configured = configure({
      sources: [
        ...goodSources(),
        htmlSource(),
        { type: 'ecb', id: 'ecb:slow', url: `${u}/hang`, timeoutMs: 200 },
      ],
      bridge: BRIDGE,
    });
    const rows = await checkSources(configured, deployment, 5_000);
    expect(withoutMs(rows)).toEqual([
      // EUR and the 28 catalog currencies among the ECB's 29 others (BGN is not one).
      ok('ecb', 'fx', 'fx', 29),
      // 147 catalog currencies in the answer, two of them made unusable.
      { ...ok('open-er-api', 'fx', 'fx', 145), rejects: 'er-api.rates: must be a positive number ×2' },
      ok('blockchair:ltc', 'explorer', 'supply', 1),
      ok('solana', 'solana', 'token-supply', 0),
      ok('blockbook:lky', 'explorer', 'balances', 0),
      ok('blockbook:doge', 'explorer', 'balances', 0),
      {
        ...ok('blockchair:doge', 'explorer', 'supply', 0),
        error: `${u}/html/dogecoin/stats: HTTP 503, expected 200: ${JSON.stringify(HTML)}`,
      },
      {
        ...ok('ecb:slow', 'fx', 'fx', 0),
        error: expect.stringMatching(/^(timed out after 200 ms|.*no complete answer within 200 ms)$/),
      },
      ok('bridge:luckycoin-testnet', 'via blockbook:lky', 'balances', 2),
      ok('bridge:solana-devnet', 'via solana', 'token-supply', 1),
      ok('bridge:dogecoin-testnet', 'via blockbook:doge', 'balances', 2),
      ok('bridge:solana-devnet', 'via solana', 'token-supply', 1),
    ]);
    for (const r of rows) expect(Number.isInteger(r.ms) && r.ms >= 0, r.source).toBe(true);
    const slow = rows.find((r) => r.source === 'ecb:slow');
    expect(slow?.ms).toBeGreaterThanOrEqual(190); // its own timeout, not the 5 s default
    expect(slow?.ms).toBeLessThan(2_000);
  });

  it('reads the reserve addresses and mints of the deployment it is given', async () => {
    const configured = configure({ sources: goodSources(), bridge: BRIDGE });
    server.requests.length = 0;
    const lky = deployment.assets.find((a) => a.ticker === 'LKY') as BridgeAsset;
    await checkSources(configured, { ...deployment, assets: [lky] }, 5_000);
    const addressReads = server.requests
      .map((r) => r.url.pathname)
      .filter((p) => p.includes('/api/v2/address/'));
    expect(addressReads).toEqual(lky.reserveAddresses.map((a) => `/bb-lky/api/v2/address/${a}`));
    const mints = server.requests
      .filter((r) => r.url.pathname === '/solana')
      .map((r) => JSON.parse(r.body) as { method: string; params: unknown[] })
      .filter((b) => b.method === 'getTokenSupply')
      .map((b) => b.params[0]);
    expect(mints).toEqual([LKY_MINT]);
  });

  it('a bridge read that fails is a row with the error', async () => {
    const configured = configure({ sources: goodSources(), bridge: BRIDGE });
    const unknownMint = deployment.assets.map((a) =>
      a.ticker === 'DOGE'
        ? { ...a, wrapped: { ...a.wrapped, mint: '4PQDHkKvcp65qU6js3gPHYTmFSUXHdUQYK3DjtRzVVVw' } }
        : a,
    );
    const rows = await checkSources(configured, { ...deployment, assets: unknownMint }, 5_000);
    expect(withoutMs(rows.slice(6))).toEqual([
      ok('bridge:luckycoin-testnet', 'via blockbook:lky', 'balances', 2),
      ok('bridge:solana-devnet', 'via solana', 'token-supply', 1),
      ok('bridge:dogecoin-testnet', 'via blockbook:doge', 'balances', 2),
      {
        ...ok('bridge:solana-devnet', 'via solana', 'token-supply', 0),
        error: 'getTokenSupply: RPC error -32602: Invalid param: not a Token mint',
      },
    ]);
  });

  it('no bridge rows without a deployment or without a bridge section', async () => {
    const withBridge = configure({ sources: goodSources().slice(0, 1), bridge: BRIDGE_NAMES_NOTHING });
    expect(withoutMs(await checkSources(withBridge, null, 5_000))).toEqual([ok('ecb', 'fx', 'fx', 29)]);
    const noBridge = configure({ sources: goodSources().slice(0, 1) });
    expect(noBridge.bridge).toBeNull();
    expect(withoutMs(await checkSources(noBridge, deployment, 5_000))).toEqual([ok('ecb', 'fx', 'fx', 29)]);
  });

  it('a deployment chain without a reader is a failed row', async () => {
    const configured = configure({
      sources: goodSources(),
      bridge: { balances: { 'luckycoin-testnet': 'blockbook:lky' }, tokenSupply: BRIDGE.tokenSupply },
    });
    const rows = await checkSources(configured, deployment, 5_000);
    expect(rows.some((r) => r.error.includes('dogecoin-testnet'))).toBe(true);
  });

  it("a mint whose decimals differ from the deployment's is a failed row", async () => {
    const configured = configure({ sources: goodSources(), bridge: BRIDGE });
    const sixDecimals = deployment.assets.map((a) => ({ ...a, wrapped: { ...a.wrapped, decimals: 6 } }));
    const rows = await checkSources(configured, { ...deployment, assets: sixDecimals }, 5_000);
    expect(rows.find((r) => r.source === 'bridge:solana-devnet')?.error).toContain(
      'has 8 decimals, the deployment says 6',
    );
  });
});

describe('formatTable', () => {
  it('aligns the columns, writes "-" for no rejects or error and "<n> ms" for latency', () => {
    const rows: CheckRow[] = [
      { source: 'ecb', kind: 'fx', supplies: 'fx', ms: 12, records: 29, rejects: '', error: '' },
      {
        source: 'blockchair:doge',
        kind: 'explorer',
        supplies: 'supply',
        ms: 1234,
        records: 0,
        rejects: 'x ×2',
        error: 'boom',
      },
    ];
    expect(formatTable(rows)).toBe(
      [
        'source           kind      supplies  latency  records  rejects  error',
        '---------------  --------  --------  -------  -------  -------  -----',
        'ecb              fx        fx        12 ms    29       -        -',
        'blockchair:doge  explorer  supply    1234 ms  0        x ×2     boom',
      ].join('\n'),
    );
  });

  it('a header and a rule without rows', () => {
    expect(formatTable([])).toBe(
      'source  kind  supplies  latency  records  rejects  error\n' +
        '------  ----  --------  -------  -------  -------  -----',
    );
  });

  it('keeps every column of real rows at the offset of its header', async () => {
    const configured = configure({ sources: [...goodSources(), htmlSource()], bridge: BRIDGE });
    const rows = await checkSources(configured, deployment, 5_000);
    const lines = formatTable(rows).split('\n');
    expect(lines).toHaveLength(rows.length + 2);
    const head = lines[0] as string;
    const at = (name: string) => head.indexOf(name);
    rows.forEach((r, i) => {
      const line = lines[i + 2] as string;
      expect(line.startsWith(r.source + ' ')).toBe(true);
      expect(line.slice(at('kind')).startsWith(`${r.kind} `)).toBe(true);
      expect(line.slice(at('supplies')).startsWith(`${r.supplies} `)).toBe(true);
      expect(line.slice(at('latency')).startsWith(`${r.ms} ms `)).toBe(true);
      expect(line.slice(at('records')).startsWith(`${r.records} `)).toBe(true);
      expect(line.slice(at('rejects')).startsWith(`${r.rejects || '-'} `)).toBe(true);
      expect(line.slice(at('error'))).toBe(r.error || '-');
    });
  });
});

describe('sourcesCommand', () => {
  /** Runs the command with `env` as the environment; its exit code and what it printed. */
  async function run(
    argv: string[],
    env: Record<string, string> = {},
  ): Promise<{ code: number; out: string }> {
    const cfg = loadConfig({ BRIDGE_CONFIG_DIR: join(dir, 'bridge'), SOURCE_TIMEOUT_MS: '3000', ...env });
    let out = '';
    const spy = vi.spyOn(process.stdout, 'write').mockImplementation((chunk: string | Uint8Array) => {
      out += String(chunk);
      return true;
    });
    try {
      return { code: await sourcesCommand(cfg, argv), out };
    } finally {
      spy.mockRestore();
    }
  }

  it('exits 0 and says so when every source and bridge read answers', async () => {
    const { code, out } = await run(['check', '--file', files.good]);
    expect(code).toBe(0);
    const lines = out.split('\n');
    expect(lines[0]).toMatch(/^source +kind +supplies +latency +records +rejects +error$/);
    expect(lines.slice(2, 12).map((l) => l.split(/ {2,}/)[0])).toEqual([
      'ecb',
      'open-er-api',
      'blockchair:ltc',
      'solana',
      'blockbook:lky',
      'blockbook:doge',
      'bridge:luckycoin-testnet',
      'bridge:solana-devnet',
      'bridge:dogecoin-testnet',
      'bridge:solana-devnet',
    ]);
    expect(out.endsWith('\n\nall 10 sources answered\n')).toBe(true);
  });

  it('exits 1 and counts the failures when a source answers an HTML error page', async () => {
    const { code, out } = await run([`--file=${files.bad}`, 'check']);
    expect(code).toBe(1);
    const row = out.split('\n').find((l) => l.startsWith('blockchair:doge '));
    expect(row).toContain(`${u}/html/dogecoin/stats: HTTP 503, expected 200: ${JSON.stringify(HTML)}`);
    expect(out.endsWith('\n\n1 of 11 failed\n')).toBe(true);
  });

  it('reads SOURCES_FILE without --file, and needs no deployment without a bridge section', async () => {
    const { code, out } = await run(['check'], {
      SOURCES_FILE: files.noBridge,
      BRIDGE_CONFIG_DIR: join(dir, 'empty'), // no testnet.json: loading it would fail
    });
    expect(code).toBe(0);
    expect(out.endsWith('\n\nall 3 sources answered\n')).toBe(true);
  });

  it.each<[string[], string]>([
    [[], 'usage: coinwallet sources check [--file FILE]'],
    [['--file', 'x.json'], 'usage: coinwallet sources check [--file FILE]'],
    [['list'], 'usage: coinwallet sources check [--file FILE]'],
    [['check', 'extra'], 'usage: coinwallet sources check [--file FILE]'],
    [['check'], 'sources check needs --file FILE or SOURCES_FILE'],
    [['check', '--file'], '--file needs a value'],
    [['check', '--fil', 'x.json'], 'unknown option --fil'],
  ])('%j is a usage error: %s', async (argv, message) => {
    const err = await run(argv).then(
      () => null,
      (e: unknown) => e,
    );
    expect(err).toBeInstanceOf(UsageError);
    expect((err as Error).message).toBe(message);
  });

  it('a file that cannot be read is not a usage error: the sources file error names it', async () => {
    const missing = join(dir, 'missing.json');
    await expect(run(['check', '--file', missing])).rejects.toThrow(`${missing}: cannot read (ENOENT`);
  });
});
