/**
 * One demo snapshot at any time `t`: the ticker of every market, and optionally supply and FX records. Pure in
 * (model, t), shared by the recording and the live source.
 */
import type { FxRate, SourceSnapshot, SupplyRecord, Ticker } from '../ingest/types.ts';
import { fxRecords, fxUsdPerUnit } from './fx.ts';
import type { DemoModel } from './model.ts';
import type { AssetModel } from './params.ts';
import { priceUsd, volumeUsd } from './paths.ts';
import { combine, sig, valueNoise } from './random.ts';
import { supplyRecords } from './supply.ts';
import { DEMO_QUOTE_ASSETS, outlierFactor, staleLagMs } from './venues.ts';

const MINUTE = 60_000;
const HOUR = 3_600_000;

/** `source` of every demo snapshot, recorded or live. */
export const DEMO_SOURCE = 'demo';

/** USD value of one unit of a quote at `t`. */
export function quoteUsd(model: DemoModel, quote: string, t: number): number {
  if (quote === 'usd') return 1;
  if (quote === 'eur') return fxUsdPerUnit(model.eur, t);
  const m = model.byId.get(DEMO_QUOTE_ASSETS[quote] ?? '');
  if (!m) throw new Error(`demo: quote ${quote} has no priced asset`);
  return priceUsd(m, t, (id) => model.byId.get(id));
}

/** The demo's true USD price of an asset (no venue noise), for tests and docs. */
export function trueUsdPrice(model: DemoModel, asset: string, t: number): number {
  const m = model.byId.get(asset);
  if (!m) throw new Error(`demo: unknown asset ${asset}`);
  return priceUsd(m, t, (id) => model.byId.get(id));
}

/** Tickers of every market at `t`. A ticker's own `ts` lags `t` by up to 45 s (CEX) or 3 min (DEX), more when stale. */
export function tickersAt(model: DemoModel, t: number): Ticker[] {
  const lookup = (id: string): AssetModel | undefined => model.byId.get(id);
  const out: Ticker[] = [];
  for (const { model: m, listings } of model.assets) {
    for (const l of listings) {
      const v = l.venue;
      const maxLag = v.kind === 'cex' ? 45_000 : 180_000;
      // A smooth lag (slope < 1) keeps a market's ticker ts increasing with t.
      const lag =
        maxLag * (0.5 + 0.5 * valueNoise(l.key, t / (30 * MINUTE))) + staleLagMs(model.seed, v.id, t);
      // Whole seconds, like most venues report.
      const ts = Math.floor((t - lag) / 1000) * 1000;
      const p = priceUsd(m, ts, lookup);
      const scale = v.noise * (m.stable ? 0.1 : 1);
      const eps =
        scale *
        (0.6 * valueNoise(combine(l.key, 1), ts / (6 * HOUR)) +
          0.4 * valueNoise(combine(l.key, 2), ts / (20 * MINUTE)));
      const last = (p * (1 + eps) * outlierFactor(model.seed, v.id, t)) / quoteUsd(model, l.quote, ts);
      const volume = volumeUsd(m, ts) * l.share * (1 + 0.15 * valueNoise(combine(l.key, 3), ts / (2 * HOUR)));
      let bid: number | null = null;
      let ask: number | null = null;
      if (v.kind === 'cex') {
        const size = Math.min(6, Math.max(1, 1 + Math.log10(1e9 / m.volume)));
        const half = (v.spreadBps * 1e-4 * size) / 2;
        bid = sig(last * (1 - half), 6);
        ask = sig(last * (1 + half), 6);
      }
      out.push({
        venue: v.id,
        venueKind: v.kind,
        base: m.id,
        quote: l.quote,
        last: sig(last, 7),
        bid,
        ask,
        baseVolume: sig(volume / p, 6),
        ts,
      });
    }
  }
  return out;
}

/** Supply records of every asset at `t`. */
export function supplyAt(model: DemoModel, t: number): SupplyRecord[] {
  return model.assets.flatMap((a) => supplyRecords(a.model, t));
}

/** FX records of the catalog's fiat and metal currencies at `t`. */
export function fxAt(model: DemoModel, t: number): FxRate[] {
  return fxRecords(model.fx, t);
}

/** A full demo snapshot at `t`; supply and FX only when asked for. */
export function snapshotAt(model: DemoModel, t: number, withSupplyAndFx: boolean): SourceSnapshot {
  const snap: SourceSnapshot = { source: DEMO_SOURCE, ts: t, tickers: tickersAt(model, t) };
  if (withSupplyAndFx) {
    snap.supply = supplyAt(model, t);
    snap.fx = fxAt(model, t);
  }
  return snap;
}
