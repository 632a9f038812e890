/**
 * The snapshot digest (`src/ingest/digest.ts`): every field of a validated record is in it, and a store whose ingest
 * log holds digests of the kind kept before (`legacySnapshotDigest`) still knows a snapshot replayed again.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { isLegacyDigest, legacySnapshotDigest, snapshotDigest } from '../../src/ingest/digest.ts';
import type { DigestedSnapshot } from '../../src/ingest/digest.ts';
import { prepareSnapshot } from '../../src/ingest/pipeline.ts';
import type { PreparedSnapshot } from '../../src/ingest/pipeline.ts';
import { validTicker } from '../../src/ingest/validate.ts';
import { Intake, LogReader } from '../../src/market/intake.ts';
import type { Db } from '../../src/store/db.ts';
import { logSnapshots } from '../../src/store/inputs.ts';
import { openMemoryDb } from '../support/memory-db.ts';

const T = Date.UTC(2026, 10, 20, 12);
const KNOWN = new Set(['litecoin', 'dogecoin']);
const cex = {
  venue: 'binance',
  venueKind: 'cex',
  base: 'litecoin',
  quote: 'usdt',
  last: 84.5,
  bid: 84.4,
  ask: 84.6,
  baseVolume: 1200,
  ts: T - 5000,
};
const raw = {
  source: 'recording:a',
  ts: T,
  tickers: [cex, { ...cex, venue: 'dogeswap', venueKind: 'dex', bid: null, ask: null }],
  supply: [
    {
      asset: 'litecoin',
      kind: 'circulating',
      value: 75e6,
      source: 'node-ltc',
      sourceKind: 'node',
      ts: T - 60_000,
    },
  ],
  fx: [{ currency: 'eur', usdPerUnit: 1.08, source: 'ecb', ts: T - 3_600_000 }],
};
const prepared = (r: object = raw): PreparedSnapshot =>
  prepareSnapshot(r as never, KNOWN, () => {}, T) as PreparedSnapshot;

describe('snapshot digest', () => {
  it('is 2: and 16 hex digits, the same for the same content, and told apart from a legacy digest', () => {
    const p = prepared();
    expect(p.tickers).toHaveLength(2);
    expect(p.supply).toHaveLength(1);
    expect(p.fx).toHaveLength(1);
    expect(p.digest).toMatch(/^2:[0-9a-f]{16}$/);
    expect(prepared(structuredClone(raw)).digest).toBe(p.digest);
    expect(isLegacyDigest(p.digest)).toBe(false);
    expect(isLegacyDigest(legacySnapshotDigest(p))).toBe(true);
  });

  it('changes with every field of a validated ticker, and with the snapshot’s source, time and other records', () => {
    const base = prepared();
    const ticker = validTicker(cex, KNOWN, T);
    expect(ticker).not.toBeNull();
    const changed: Record<string, unknown> = {
      venue: 'kraken',
      venueKind: 'dex',
      base: 'dogecoin',
      quote: 'usdc',
      last: 84.50001,
      bid: null,
      ask: 84.7,
      baseVolume: 1201,
      ts: T - 4000,
    };
    // Every field validTicker keeps is one this test changes: a new field fails here until the digest covers it.
    expect(Object.keys(ticker as object).sort()).toEqual(Object.keys(changed).sort());
    for (const [field, value] of Object.entries(changed)) {
      const s: DigestedSnapshot = {
        ...base,
        tickers: [{ ...base.tickers[0]!, [field]: value }, base.tickers[1]!],
      };
      expect([field, snapshotDigest(s)]).not.toEqual([field, base.digest]);
    }
    const others: Partial<DigestedSnapshot>[] = [
      { source: 'recording:b' },
      { ts: T + 1 },
      { tickers: [base.tickers[1]!, base.tickers[0]!] },
      { tickers: base.tickers.slice(0, 1) },
      { supply: [{ ...base.supply[0]!, value: 75e6 + 1 }] },
      { supply: [] },
      { fx: [{ ...base.fx[0]!, currency: 'gbp' }] },
    ];
    const seen = new Set([base.digest]);
    for (const o of others) seen.add(snapshotDigest({ ...base, ...o }));
    expect(seen.size).toBe(others.length + 1);
  });
});

describe('a store whose ingest log holds legacy digests', () => {
  let db: Db;
  const p = prepared();
  const other = prepared({ ...raw, ts: T + 300_000 });
  beforeAll(async () => {
    db = await openMemoryDb();
    await logSnapshots(
      db,
      [p, other].map((s) => ({
        source: s.source,
        ts: s.ts,
        digest: legacySnapshotDigest(s),
        tickers: 2,
        rejected: 0,
      })),
      T,
    );
  });
  afterAll(() => db.close());

  it('knows a snapshot it logged under its legacy digest, and not a different one at the same time', async () => {
    const differs = prepared({ ...raw, tickers: raw.tickers.slice(1) });
    expect(differs.ts).toBe(p.ts);
    const intake = new Intake(KNOWN, () => T);
    const logged = await intake.logged(db, [p, other, differs]);
    expect([...logged].sort()).toEqual([
      `${p.source}|${p.ts}|${p.digest}`,
      `${other.source}|${other.ts}|${other.digest}`,
    ]);
    const reader = new LogReader(db);
    expect([await reader.has(p), await reader.has(other), await reader.has(differs)]).toEqual([
      true,
      true,
      false,
    ]);
  });
});
