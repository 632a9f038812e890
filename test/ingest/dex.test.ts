import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { ASSET_BY_ID } from '../../src/catalog/assets.ts';
import { createRecordedDexSource, dexQuoteCode, poolToTicker } from '../../src/ingest/dex.ts';
import { validateTicker } from '../../src/ingest/validate.ts';

const FIXTURE = fileURLToPath(new URL('../fixtures/dex/pools.jsonl', import.meta.url));
const signal = new AbortController().signal;
const KNOWN = new Set(ASSET_BY_ID.keys());

describe('createRecordedDexSource', () => {
  it('turns each recorded pool into a dex ticker priced at reserveQuote / reserveBase', async () => {
    const errors: [number, string][] = [];
    const src = createRecordedDexSource({ path: FIXTURE, onError: (n, r) => errors.push([n, r]) });
    expect(src).toMatchObject({ id: 'dex:recorded', kind: 'dex' });

    const first = await src.poll(signal);
    expect(first).toEqual({
      source: 'dex:recorded',
      ts: 1_749_556_800_000,
      tickers: [
        {
          venue: 'dogeswap',
          venueKind: 'dex',
          base: 'pepecoin',
          quote: 'doge',
          last: 0.0025,
          bid: null,
          ask: null,
          baseVolume: 42_000_000,
          ts: 1_749_556_800_000,
        },
        expect.objectContaining({ base: 'dingocoin', quote: 'doge', last: 0.00015 }),
      ],
    });

    const second = await src.poll(signal);
    expect(second?.tickers).toEqual([
      expect.objectContaining({ venue: 'dogeswap', base: 'pepecoin', last: 2_525_000 / 990_000_000 }),
      expect.objectContaining({
        venue: 'chainswap',
        base: 'luckycoin',
        quote: 'usdt',
        last: 1.25,
        baseVolume: 1800,
      }),
    ]);
    expect(errors).toEqual([[2, 'pools[2]: pool.pair: must be "<base>/<quote>"']]);
    for (const t of [...first!.tickers, ...second!.tickers]) {
      expect(validateTicker(t, KNOWN, 1_749_557_100_000)).toMatchObject({ ok: true });
    }

    expect(await src.poll(signal)).toBeNull();
    await src.close?.();
  });

  it('skips malformed lines of a gzip recording and reports them', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'dex-test-'));
    try {
      const path = join(dir, 'pools.jsonl.gz');
      const lines = [
        'nope',
        '{"pools": []}',
        '{"ts": 1749556800000, "pools": {}}',
        '{"ts": 1749556800000, "pools": [null, {"pair": "pepecoin/dogecoin"}]}',
      ];
      await writeFile(path, gzipSync(lines.join('\n')));
      const errors: [number, string][] = [];
      const src = createRecordedDexSource({ path, id: 'dex:test', onError: (n, r) => errors.push([n, r]) });
      expect(await src.poll(signal)).toEqual({ source: 'dex:test', ts: 1_749_556_800_000, tickers: [] });
      expect(await src.poll(signal)).toBeNull();
      expect(errors).toEqual([
        [1, 'not valid JSON'],
        [2, 'ts: must be a number'],
        [3, 'pools: must be an array'],
        [4, 'pools[0]: pool: must be an object'],
        [4, 'pools[1]: pool.dex: must be a string'],
      ]);
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });
});

describe('poolToTicker', () => {
  it('leaves unusable numbers to the validator instead of coercing them', () => {
    const zero = poolToTicker(
      { dex: 'd', pair: 'pepecoin/dogecoin', reserveBase: 0, reserveQuote: 5, volumeBase24h: 1 },
      1_749_556_800_000,
    );
    expect(zero.ok && validateTicker(zero.ticker, KNOWN, 1_749_556_800_000)).toEqual({
      ok: false,
      reason: 'ticker.last: must be a finite number > 0',
    });
    const strings = poolToTicker(
      { dex: 'd', pair: 'pepecoin/dogecoin', reserveBase: '2', reserveQuote: '4' },
      1,
    );
    expect(strings).toEqual({ ok: true, ticker: expect.not.objectContaining({ last: expect.anything() }) });
  });

  it('maps quote asset ids to their quote codes and keeps codes as they are', () => {
    expect(dexQuoteCode('dogecoin')).toBe('doge');
    expect(dexQuoteCode('bitcoin')).toBe('btc');
    expect(dexQuoteCode('tether')).toBe('usdt');
    expect(dexQuoteCode('usdc')).toBe('usdc');
    expect(dexQuoteCode('luckycoin')).toBe('luckycoin');
  });
});
