import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { ASSET_BY_ID } from '../../src/catalog/assets.ts';
import {
  CcxtConfigError,
  createCcxtSource,
  loadCcxtConfig,
  parseCcxtConfig,
  type CcxtExchangeLike,
  type CcxtSnapshot,
  type CcxtSourceConfig,
  type CreateExchange,
} from '../../src/ingest/ccxt.ts';
import { validateTicker } from '../../src/ingest/validate.ts';

/** Recorded ccxt 4.x `fetchTickers` responses (Kraken reports no ticker timestamp; Binance does). */
const fixture = (venue: string): Record<string, unknown> =>
  JSON.parse(readFileSync(new URL(`../fixtures/ccxt/${venue}.fetchTickers.json`, import.meta.url), 'utf8'));
const KRAKEN = fixture('kraken');
const BINANCE = fixture('binance');
const NOW = 1_749_556_805_000;
const KNOWN = new Set(ASSET_BY_ID.keys());

const config: CcxtSourceConfig = {
  venues: [
    {
      id: 'kraken',
      symbols: { 'BTC/USD': 'bitcoin', 'LTC/USD': 'litecoin', 'LTC/BTC': 'litecoin', 'DOGE/USD': 'dogecoin' },
    },
    {
      id: 'binance',
      timeoutMs: 5000,
      symbols: { 'LTC/USDT': 'litecoin', 'DOGE/USDT': 'dogecoin', 'ETH/USDT': 'ethereum' },
    },
  ],
};

/** Exchanges answering from the recorded fixtures; `calls` records every fetchTickers call. */
function fakes(overrides: Record<string, CcxtExchangeLike['fetchTickers']> = {}) {
  const calls: { id: string; symbols: string[] | undefined }[] = [];
  const created: { id: string; options: unknown }[] = [];
  const responses: Record<string, Record<string, unknown>> = { kraken: KRAKEN, binance: BINANCE };
  const createExchange: CreateExchange = (id, options) => {
    created.push({ id, options });
    return {
      fetchTickers: (symbols) => {
        calls.push({ id, symbols });
        const override = overrides[id];
        if (override) return override(symbols);
        return Promise.resolve(structuredClone(responses[id] ?? {}));
      },
    };
  };
  return { calls, created, createExchange };
}

const signal = new AbortController().signal;
afterEach(() => {
  vi.useRealTimers();
});

describe('createCcxtSource', () => {
  it('maps recorded fetchTickers responses of two venues to valid tickers', async () => {
    const { calls, created, createExchange } = fakes();
    const src = createCcxtSource(config, { createExchange, now: () => NOW });
    expect(src).toMatchObject({ id: 'ccxt', kind: 'ccxt' });
    const snap = (await src.poll(signal)) as CcxtSnapshot;

    expect(created).toEqual([
      { id: 'kraken', options: { enableRateLimit: true, timeout: 10_000 } },
      { id: 'binance', options: { enableRateLimit: true, timeout: 5000 } },
    ]);
    expect(calls).toEqual([
      { id: 'kraken', symbols: ['BTC/USD', 'LTC/USD', 'LTC/BTC', 'DOGE/USD'] },
      { id: 'binance', symbols: ['LTC/USDT', 'DOGE/USDT', 'ETH/USDT'] },
    ]);
    expect(snap.source).toBe('ccxt');
    expect(snap.ts).toBe(NOW);
    expect(snap.errors).toBeUndefined();
    expect(snap.tickers).toHaveLength(7);
    // XRP/USDT is in Binance's response but not configured: ignored.
    expect(snap.tickers).toContainEqual({
      venue: 'kraken',
      venueKind: 'cex',
      base: 'litecoin',
      quote: 'usd',
      last: 89.22,
      bid: 89.21,
      ask: 89.24,
      baseVolume: 41077.2291,
      ts: NOW, // no venue timestamp: time of receipt
    });
    expect(snap.tickers).toContainEqual(
      expect.objectContaining({ venue: 'kraken', base: 'litecoin', quote: 'btc' }),
    );
    expect(snap.tickers).toContainEqual({
      venue: 'binance',
      venueKind: 'cex',
      base: 'litecoin',
      quote: 'usdt',
      last: 89.19,
      bid: 89.18,
      ask: 89.19,
      baseVolume: 310544.6,
      ts: 1_749_556_800_123,
    });
    for (const t of snap.tickers) expect(validateTicker(t, KNOWN, NOW)).toMatchObject({ ok: true });
  });

  it('cuts a hanging venue off at its timeout while the other venue still comes through', async () => {
    vi.useFakeTimers();
    const { createExchange } = fakes({ kraken: () => new Promise(() => {}) });
    const hanging: CcxtSourceConfig = {
      venues: [
        { id: 'kraken', timeoutMs: 3000, symbols: { 'LTC/USD': 'litecoin' } },
        { id: 'binance', symbols: { 'LTC/USDT': 'litecoin' } },
      ],
    };
    let settled = false;
    const poll = createCcxtSource(hanging, { createExchange, now: () => NOW })
      .poll(signal)
      .finally(() => (settled = true));
    await vi.advanceTimersByTimeAsync(2999);
    expect(settled).toBe(false);
    await vi.advanceTimersByTimeAsync(1);
    const snap = (await poll) as CcxtSnapshot;
    expect(snap.tickers).toEqual([
      expect.objectContaining({ venue: 'binance', base: 'litecoin', quote: 'usdt' }),
    ]);
    expect(snap.errors).toEqual([{ source: 'ccxt:kraken', message: 'timed out after 3000 ms' }]);
    expect(vi.getTimerCount()).toBe(0);
  });

  it('reports a failing venue and symbols missing from a response', async () => {
    const { createExchange } = fakes({
      binance: () => Promise.reject(new Error('binance GET 503 Service Unavailable')),
    });
    const cfg: CcxtSourceConfig = {
      id: 'ccxt:main',
      venues: [
        { id: 'kraken', symbols: { 'LTC/USD': 'litecoin', 'DGB/USD': 'digibyte' } },
        { id: 'binance', symbols: { 'LTC/USDT': 'litecoin' } },
      ],
    };
    const snap = (await createCcxtSource(cfg, { createExchange }).poll(signal)) as CcxtSnapshot;
    expect(snap.source).toBe('ccxt:main');
    expect(snap.tickers).toEqual([expect.objectContaining({ venue: 'kraken', base: 'litecoin' })]);
    expect(snap.errors).toEqual([
      { source: 'ccxt:kraken', message: 'no ticker for DGB/USD' },
      { source: 'ccxt:binance', message: 'binance GET 503 Service Unavailable' },
    ]);
  });

  it('stops waiting when the poll signal aborts', async () => {
    const { createExchange } = fakes({ kraken: () => new Promise(() => {}) });
    const ac = new AbortController();
    const poll = createCcxtSource({ venues: [config.venues[0]!] }, { createExchange }).poll(ac.signal);
    ac.abort(new Error('pipeline timeout'));
    expect(((await poll) as CcxtSnapshot).errors).toEqual([
      { source: 'ccxt:kraken', message: 'pipeline timeout' },
    ]);
  });

  it('nulls missing or zero bid/ask, derives volume from quoteVolume, and leaves unknown volume to the validator', async () => {
    const raw = {
      'LTC/USD': { symbol: 'LTC/USD', close: 90, bid: 0, quoteVolume: 900 },
      'DOGE/USD': { symbol: 'DOGE/USD', last: 0.18, bid: 0.17, ask: 0.19 },
    };
    const { createExchange } = fakes({ kraken: () => Promise.resolve(raw) });
    const cfg = {
      venues: [
        { id: 'kraken', kind: 'dex' as const, symbols: { 'LTC/USD': 'litecoin', 'DOGE/USD': 'dogecoin' } },
      ],
    };
    const snap = await createCcxtSource(cfg, { createExchange, now: () => NOW }).poll(signal);
    expect(snap?.tickers[0]).toEqual({
      venue: 'kraken',
      venueKind: 'dex',
      base: 'litecoin',
      quote: 'usd',
      last: 90,
      bid: null,
      ask: null,
      baseVolume: 10,
      ts: NOW,
    });
    expect(validateTicker(snap?.tickers[1], KNOWN, NOW)).toEqual({
      ok: false,
      reason: 'ticker.baseVolume: must be a finite number >= 0',
    });
  });

  it('reports an unknown ccxt exchange id from the default factory (no network)', async () => {
    const src = createCcxtSource({ venues: [{ id: 'nosuchexchange', symbols: { 'LTC/USD': 'litecoin' } }] });
    const snap = (await src.poll(signal)) as CcxtSnapshot;
    expect(snap.errors).toEqual([
      { source: 'ccxt:nosuchexchange', message: 'unknown ccxt exchange id "nosuchexchange"' },
    ]);
  });
});

describe('loadCcxtConfig / parseCcxtConfig', () => {
  it('loads a valid file', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'ccxt-config-'));
    try {
      const path = join(dir, 'ccxt.json');
      await writeFile(path, JSON.stringify(config));
      expect(loadCcxtConfig(path)).toEqual(config);
      await writeFile(path, '{ "venues": [');
      expect(() => loadCcxtConfig(path)).toThrow(new RegExp(`^${path}: not valid JSON`));
      expect(() => loadCcxtConfig(join(dir, 'nope.json'))).toThrow(/cannot read/);
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });

  const venue = { id: 'kraken', symbols: { 'LTC/USD': 'litecoin' } };
  it.each<[string, unknown, string]>([
    ['not an object', [], 'c.json: (root): must be an object {"venues": [...]}'],
    ['no venues', {}, 'c.json: venues: must be a non-empty array'],
    [
      'unknown top field',
      { venues: [venue], venue: [] },
      'c.json: unknown field "venue" (allowed: id, venues)',
    ],
    ['bad id', { id: 'CCXT', venues: [venue] }, 'c.json: id: must be a lowercase id'],
    ['venue not an object', { venues: ['kraken'] }, 'c.json: venues[0]: must be an object'],
    [
      'bad venue id',
      { venues: [{ ...venue, id: 'Kraken' }] },
      'c.json: venues[0].id: must be a ccxt exchange id such as "kraken"',
    ],
    ['duplicate venue', { venues: [venue, venue] }, 'c.json: venues[1].id: duplicate venue "kraken"'],
    ['bad kind', { venues: [{ ...venue, kind: 'otc' }] }, 'c.json: venues[0].kind: must be "cex" or "dex"'],
    [
      'bad timeout',
      { venues: [{ ...venue, timeoutMs: 0 }] },
      'c.json: venues[0].timeoutMs: must be an integer between 1 and 120000 (ms)',
    ],
    [
      'typo field',
      { venues: [{ ...venue, timeout: 5 }] },
      'c.json: venues[0]: unknown field "timeout" (allowed: id, kind, timeoutMs, url, symbols)',
    ],
    [
      'empty symbols',
      { venues: [{ ...venue, symbols: {} }] },
      'c.json: venues[0].symbols: must be a non-empty object {"LTC/USDT": "litecoin", ...}',
    ],
    [
      'bad symbol',
      { venues: [{ ...venue, symbols: { LTCUSD: 'litecoin' } }] },
      'c.json: venues[0].symbols["LTCUSD"]: key must be a ccxt unified symbol such as "LTC/USDT"',
    ],
    [
      'unknown asset',
      { venues: [{ ...venue, symbols: { 'LTC/USD': 'litcoin' } }] },
      'c.json: venues[0].symbols["LTC/USD"]: unknown asset id "litcoin" (see src/catalog/assets.ts)',
    ],
  ])('rejects %s with a clear message', (_name, raw, message) => {
    expect(() => parseCcxtConfig(raw, 'c.json')).toThrow(new CcxtConfigError(message));
  });

  it('accepts derivatives symbols and takes their quote', async () => {
    const cfg = parseCcxtConfig({ venues: [{ id: 'okx', symbols: { 'LTC/USDT:USDT': 'litecoin' } }] });
    const { createExchange } = fakes({
      okx: () => Promise.resolve({ 'LTC/USDT:USDT': { last: 89, baseVolume: 1 } }),
    });
    const snap = await createCcxtSource(cfg, { createExchange }).poll(signal);
    expect(snap?.tickers[0]).toMatchObject({ venue: 'okx', base: 'litecoin', quote: 'usdt' });
  });
});
