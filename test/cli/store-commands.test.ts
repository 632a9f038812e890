/**
 * The commands that open the store themselves and write market data into it, run in-process through the CLI's entry
 * (`main(argv)`) on a real embedded store (PGlite) in a temporary DATA_DIR: `coinwallet demo-data --load` loads the
 * seeded demo dataset as `serve` does on first start, and `coinwallet ingest --sources FILE` takes one tick from the
 * sources of a real sources file, the third parties answering with recorded responses over loopback HTTP (Kraken
 * through ccxt, Blockchair, the ECB and open.er-api: the formats and fixtures of test/e2e/live-sources.e2e.ts).
 * What each wrote is read back from the store afterwards.
 */
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import type { DemoManifest } from '../../src/demo/dataset.ts';
import type { Db } from '../../src/store/db.ts';
import { openDb } from '../../src/store/open.ts';
import { runCli } from '../support/cli.ts';
import { freshFxFeed } from '../support/recorded-feeds.ts';
import { startRecordedServer } from '../support/recorded-http.ts';
import type { RecordedServer } from '../support/recorded-http.ts';

const FIXTURES = join(import.meta.dirname, '..', 'fixtures');
const fixture = (path: string): string => readFileSync(join(FIXTURES, path), 'utf8');
const DAY = 86_400_000;

const dir = mkdtempSync(join(tmpdir(), 'cw-store-commands-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

beforeEach(() => {
  vi.stubEnv('LOG_LEVEL', 'silent');
  vi.stubEnv('ADMIN_TOKEN', '');
  vi.stubEnv('DATABASE_URL', '');
  vi.stubEnv('SOURCES_FILE', '');
  return () => vi.unstubAllEnvs();
});

/** Runs `main(argv)` on the store in `dataDir`: its exit code and what it printed. */
function run(dataDir: string, argv: string[]): Promise<{ code: number; out: string; err: string }> {
  vi.stubEnv('DATA_DIR', dataDir);
  return runCli(argv);
}

/** Opens the store in `dataDir` (as the test, after the command closed it), runs `read`, closes it. */
async function inStore<T>(dataDir: string, read: (db: Db) => Promise<T>): Promise<T> {
  const db = await openDb({ dataDir, owner: 'test' });
  try {
    return await read(db);
  } finally {
    await db.close();
  }
}

const count = async (db: Db, sql: string, params: unknown[] = []): Promise<number> =>
  Number((await db.query<{ n: number }>(`SELECT count(*)::int AS n FROM ${sql}`, params)).rows[0]?.n);

describe('coinwallet demo-data --load', () => {
  const dataDir = join(dir, 'demo');
  // The dataset is a function of its seed, end and days: one end for both runs, today's midnight (UTC), within the
  // retention of the five-minute bars.
  const END = Math.floor(Date.now() / DAY) * DAY;
  const args = ['--seed', '7', '--days', '3', '--end', String(END)];

  it('loads the seeded dataset into an empty store, the same dataset `demo-data --out` writes; once', async () => {
    const first = await run(dataDir, ['demo-data', '--load', ...args]);
    expect(first.err).toContain('demo dataset loaded\n');
    expect(first.code).toBe(0);
    // The recording of the same options: what the store must now hold, snapshot for snapshot.
    const written = await run(dataDir, ['demo-data', '--out', join(dir, 'recording'), ...args]);
    expect(written.code).toBe(0);
    const {
      out: _out,
      generatedAt: _at,
      ...want
    } = JSON.parse(written.out) as DemoManifest & { out: string };
    expect(want).toMatchObject({ seed: 7, days: 3, end: END });
    const stored = await inStore(dataDir, async (db) => ({
      manifest: JSON.parse(
        (await db.query<{ value: string }>(`SELECT value FROM meta WHERE key = 'dataset'`)).rows[0]?.value ??
          'null',
      ) as DemoManifest | null,
      pending: await count(db, `meta WHERE key = 'dataset_pending'`),
      logged: await count(db, 'ingest_log'),
      bars: await count(db, `price_bars WHERE asset = 'bitcoin' AND res = '5m' AND ts > $1`, [END - DAY]),
      mining: await count(db, 'mining_figures'),
    }));
    const { generatedAt: _stored, ...manifest } = stored.manifest ?? ({} as DemoManifest);
    expect(manifest).toEqual(want);
    expect(stored.pending).toBe(0);
    expect(stored.logged).toBe(want.snapshots);
    // Bitcoin's last day in five-minute bars: 288 of them (the history aggregated, not only the inputs).
    expect(stored.bars).toBe(288);
    expect(stored.mining).toBeGreaterThan(0);

    // A store that holds a dataset keeps it (whatever the options say).
    const again = await run(dataDir, ['demo-data', '--load', '--seed', '8', '--days', '3']);
    expect(again.err).toContain('the store already holds a dataset; nothing loaded\n');
    expect(again.code).toBe(0);
  });
});

describe('coinwallet ingest --sources', () => {
  const dataDir = join(dir, 'ingest');
  let recorded: RecordedServer;
  let sourcesFile: string;

  beforeAll(async () => {
    // The recorded third parties, with their times moved to now where freshness needs it.
    recorded = await startRecordedServer(({ url }) => {
      const p = url.pathname;
      if (p.startsWith('/kraken/0/public/')) return { body: fixture(`kraken/${p.split('/').pop()}.json`) };
      if (p === '/blockchair/litecoin/stats')
        return { body: fixture('explorers/blockchair-litecoin-stats-2020-07-13.json') };
      return freshFxFeed(p) ?? { status: 404, body: '{"error":"not recorded"}' };
    });
    writeFileSync(
      join(dir, 'ccxt.json'),
      JSON.stringify({
        venues: [{ id: 'kraken', url: `${recorded.url}/kraken`, symbols: { 'LTC/USD': 'litecoin' } }],
      }),
    );
    sourcesFile = join(dir, 'sources.json');
    writeFileSync(
      sourcesFile,
      JSON.stringify({
        sources: [
          { type: 'ccxt', config: 'ccxt.json' },
          { type: 'blockchair', coin: 'LTC', url: `${recorded.url}/blockchair`, chain: 'litecoin' },
          { type: 'ecb', url: `${recorded.url}/ecb/eurofxref-daily.xml` },
          { type: 'open-er-api', url: `${recorded.url}/er-api/v6/latest/USD` },
        ],
      }),
    );
  });
  afterAll(() => recorded?.close());

  it('polls every source once and writes what they answered into the store', async () => {
    const started = Date.now();
    const r = await run(dataDir, ['ingest', '--sources', sourcesFile]);
    expect(r.err).toMatch(/^ingested one tick from 4 sources at \d{4}-\d\d-\d\dT[\d:.]+Z$/m);
    expect(r.code).toBe(0);
    // Each third party was asked, once per thing it supplies.
    const paths = recorded.requests.map((q) => q.url.pathname);
    for (const p of [
      '/kraken/0/public/Ticker',
      '/blockchair/litecoin/stats',
      '/ecb/eurofxref-daily.xml',
      '/er-api/v6/latest/USD',
    ])
      expect(paths).toContain(p);

    const stored = await inStore(dataDir, async (db) => ({
      tickers: (
        await db.query<{ venue: string; base: string; quote: string; last: number; ts: number }>(
          'SELECT venue, base, quote, last, ts FROM tickers_latest',
        )
      ).rows,
      supply: (
        await db.query<{ asset: string; source: string; value: number }>(
          'SELECT asset, source, value FROM supply_records',
        )
      ).rows,
      fx: (
        await db.query<{ source: string; n: number }>(
          `SELECT source, count(*)::int AS n FROM fx_rates WHERE currency = 'eur' GROUP BY source ORDER BY source`,
        )
      ).rows,
      logged: await count(db, 'ingest_log'),
    }));
    // Kraken's last trade of LTC/USD, as the recorded Ticker says, observed during this run.
    expect(stored.tickers).toHaveLength(1);
    expect(stored.tickers[0]).toMatchObject({ base: 'litecoin', quote: 'usd', last: 84.31 });
    expect(stored.tickers[0]?.ts).toBeGreaterThanOrEqual(started - 1000);
    const blockchair = JSON.parse(fixture('explorers/blockchair-litecoin-stats-2020-07-13.json')) as {
      data: { circulation: number };
    };
    expect(stored.supply).toEqual([
      { asset: 'litecoin', source: 'blockchair:ltc', value: blockchair.data.circulation / 1e8 },
    ]);
    expect(stored.fx.map((f) => f.source).sort()).toEqual(['ecb', 'open-er-api']);
    expect(stored.logged).toBeGreaterThan(0);
  });
});
