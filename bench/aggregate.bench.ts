/**
 * Benchmark of the price engine's aggregation step: `node bin/run-ts.js bench/aggregate.bench.ts [ticks]`.
 *
 * Builds a seeded synthetic market of 10,000 assets × 20 venues (200,000 tickers; usd/usdt/eur/btc quotes, some stale,
 * some outliers, some zero volumes), warms up, then times `aggregatePrices` per tick against a "floor" loop that only
 * sums last × baseVolume over the same tickers. Prints ms per tick (median, p95), ticks/s and the engine/floor ratio.
 * Timings are printed, never asserted.
 */
import type { Ticker } from '../src/ingest/types.ts';
import type { QuoteResolver } from '../src/engine/price.ts';
import { aggregatePrices } from '../src/engine/price.ts';
import { mulberry32 as rng } from '../src/demo/random.ts';

const ASSETS = 10_000;
const VENUES = 20;
const WARMUP = 10;
const TICKS = Number(process.argv[2] ?? 60);
const NOW = Date.UTC(2026, 10, 21, 12);
const STALE_SHARE = 0.03;
const OUTLIER_SHARE = 0.02;

const FX: Record<string, number> = { usd: 1, eur: 1.08 };
const QUOTE_ASSETS: Record<string, { id: string; scale: number }> = {
  usdt: { id: 'tether', scale: 1 },
  btc: { id: 'bitcoin', scale: 1 },
};
const quotes: QuoteResolver = {
  fiatUsd: (code) => FX[code] ?? null,
  quoteAsset: (code) => QUOTE_ASSETS[code] ?? null,
};

function buildMarket(seed: number): Ticker[] {
  const r = rng(seed);
  const ids = Array.from({ length: ASSETS }, (_, i) =>
    i === 0 ? 'bitcoin' : i === 1 ? 'tether' : `asset-${i}`,
  );
  const truth = ids.map((id) =>
    id === 'bitcoin' ? 90_000 : id === 'tether' ? 1.0002 : Math.exp(-6 + r() * 16),
  );
  const usdPer: Record<string, number> = { usd: 1, eur: 1.08, usdt: truth[1]!, btc: truth[0]! };
  const tickers: Ticker[] = [];
  for (let a = 0; a < ASSETS; a++) {
    const id = ids[a]!;
    for (let v = 0; v < VENUES; v++) {
      const roll = r();
      let quote = roll < 0.35 ? 'usd' : roll < 0.7 ? 'usdt' : roll < 0.85 ? 'eur' : 'btc';
      if ((id === 'tether' && (quote === 'usdt' || quote === 'btc')) || (id === 'bitcoin' && quote === 'btc'))
        quote = 'usd';
      let usd = truth[a]! * (1 + (r() - 0.5) * 0.006);
      if (r() < OUTLIER_SHARE) usd *= r() < 0.5 ? 0.6 : 1.5;
      const stale = r() < STALE_SHARE;
      tickers.push({
        venue: `venue-${v.toString().padStart(2, '0')}`,
        venueKind: v < 16 ? 'cex' : 'dex',
        base: id,
        quote,
        last: usd / usdPer[quote]!,
        bid: null,
        ask: null,
        baseVolume: r() < 0.01 ? 0 : (Math.exp(r() * 8) * 1000) / truth[a]!,
        ts: stale ? NOW - 20 * 60_000 - Math.floor(r() * 3_600_000) : NOW - Math.floor(r() * 300_000),
      });
    }
  }
  return tickers;
}

let sink = 0;

function floorTick(tickers: readonly Ticker[]): void {
  let sum = 0;
  for (let i = 0; i < tickers.length; i++) {
    const t = tickers[i]!;
    sum += t.last * t.baseVolume;
  }
  sink += sum;
}

function engineTick(tickers: readonly Ticker[]): void {
  const out = aggregatePrices(tickers, NOW, quotes);
  sink += out.size;
}

function time(fn: () => void, ticks: number): number[] {
  for (let i = 0; i < WARMUP; i++) fn();
  const ms: number[] = [];
  for (let i = 0; i < ticks; i++) {
    const t0 = performance.now();
    fn();
    ms.push(performance.now() - t0);
  }
  return ms;
}

function quantile(xs: readonly number[], q: number): number {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.floor(q * s.length))]!;
}

const fmt = (x: number, digits = 2): string => x.toFixed(digits).padStart(9);

const t0 = performance.now();
const tickers = buildMarket(20261121);
const buildMs = performance.now() - t0;

const check = aggregatePrices(tickers, NOW, quotes);
let priced = 0;
let stale = 0;
let outliers = 0;
let unpriced = 0;
for (const a of check.values()) {
  if (a.priceUsd !== null) priced++;
  stale += a.droppedStale;
  outliers += a.droppedOutlier;
  unpriced += a.droppedUnpriced;
}
const btc = check.get('bitcoin');

const engine = time(() => engineTick(tickers), TICKS);
const floor = time(() => floorTick(tickers), TICKS);
const mean = (xs: number[]): number => xs.reduce((a, b) => a + b, 0) / xs.length;

console.log(
  `aggregate bench: ${ASSETS} assets × ${VENUES} venues = ${tickers.length} tickers (built in ${buildMs.toFixed(0)} ms)`,
);
console.log(`node ${process.version}, ${TICKS} timed ticks after ${WARMUP} warm-up ticks`);
console.log(
  `check: ${priced}/${check.size} priced, dropped stale ${stale}, outlier ${outliers}, unpriced ${unpriced};` +
    ` bitcoin ${btc?.priceUsd?.toFixed(2)} USD (confidence ${btc?.confidence})`,
);
console.log('');
console.log('               median ms   p95 ms    ticks/s');
console.log(
  `engine      ${fmt(quantile(engine, 0.5))}${fmt(quantile(engine, 0.95))}${fmt(1000 / mean(engine), 1)}`,
);
console.log(
  `floor       ${fmt(quantile(floor, 0.5), 3)}${fmt(quantile(floor, 0.95), 3)}${fmt(1000 / mean(floor), 1)}`,
);
console.log(`engine/floor (median): ${(quantile(engine, 0.5) / quantile(floor, 0.5)).toFixed(1)}×`);
if (sink === 42) console.log(''); // keeps the timed work observable
