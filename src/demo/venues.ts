/**
 * Invented demo venues (names chosen so they cannot be mistaken for real exchanges), which assets each lists in
 * which quote, and the seeded noise episodes of the two designated unreliable venues.
 */
import { DEMO_VENUE_NAMES } from '../catalog/venues.ts';
import type { DemoVenueId } from '../catalog/venues.ts';
import type { VenueKind } from '../ingest/types.ts';
import type { AssetModel } from './params.ts';
import { between, hash2, keyOf, unit } from './random.ts';

const MINUTE = 60_000;
const HOUR = 3_600_000;
const DAY = 86_400_000;

/** One demo venue: its id and name (`src/catalog/venues.ts`) and its model. */
export interface DemoVenue {
  id: DemoVenueId;
  name: string;
  kind: VenueKind;
  /** Quote codes the venue offers, in order of preference. */
  quotes: readonly string[];
  /** Scale of the venue's price deviation from the true price (0.001 = 0.1 %). */
  noise: number;
  /** Bid/ask spread of a liquid market in basis points (CEX only). */
  spreadBps: number;
  /** Relative share of traded volume. */
  weight: number;
  /** Listing preference: larger venues list more assets. */
  tier: number;
}

// prettier-ignore
const MODELS: readonly Omit<DemoVenue, 'name'>[] = [
  { id: 'demo-cex-alpha', kind: 'cex', quotes: ['usdt', 'usd', 'btc'], noise: 0.001, spreadBps: 2, weight: 1, tier: 0.9 },
  { id: 'demo-cex-bravo', kind: 'cex', quotes: ['usd', 'eur', 'usdt'], noise: 0.0015, spreadBps: 4, weight: 0.7, tier: 0.8 },
  { id: 'demo-cex-charlie', kind: 'cex', quotes: ['usdt', 'btc'], noise: 0.002, spreadBps: 6, weight: 0.5, tier: 0.65 },
  { id: 'demo-cex-delta', kind: 'cex', quotes: ['usdt', 'eur'], noise: 0.0025, spreadBps: 8, weight: 0.35, tier: 0.5 },
  { id: 'demo-cex-echo', kind: 'cex', quotes: ['usd', 'usdt', 'eur'], noise: 0.003, spreadBps: 10, weight: 0.3, tier: 0.45 },
  { id: 'demo-cex-foxtrot', kind: 'cex', quotes: ['usdt', 'btc', 'ltc'], noise: 0.0035, spreadBps: 15, weight: 0.2, tier: 0.35 },
  { id: 'demo-dex-aurora', kind: 'dex', quotes: ['usdt', 'doge'], noise: 0.004, spreadBps: 0, weight: 0.25, tier: 0.3 },
  { id: 'demo-dex-basin', kind: 'dex', quotes: ['usdt', 'ltc', 'doge'], noise: 0.0045, spreadBps: 0, weight: 0.15, tier: 0.25 },
  { id: 'demo-dex-cove', kind: 'dex', quotes: ['doge', 'ltc', 'usdt'], noise: 0.005, spreadBps: 0, weight: 0.1, tier: 0.2 },
];

/** The demo venues, in the order the listing draws them. */
export const DEMO_VENUES: readonly DemoVenue[] = MODELS.map(({ id, ...model }) => ({
  id,
  name: DEMO_VENUE_NAMES[id],
  ...model,
}));

/** The venue whose tickers lag 20–60 minutes during seeded episodes (the engine must drop them as stale). */
export const STALE_VENUE = 'demo-cex-delta';
/** The venue that reports prices ×1.3 or ×0.7 during seeded episodes (the engine must drop them as outliers). */
export const OUTLIER_VENUE = 'demo-cex-echo';

/** Crypto quote codes and the asset whose price defines them. */
export const DEMO_QUOTE_ASSETS: Readonly<Record<string, string>> = {
  usdt: 'tether',
  btc: 'bitcoin',
  doge: 'dogecoin',
  ltc: 'litecoin',
};

/** One market: an asset on a venue in one quote. */
export interface Listing {
  venue: DemoVenue;
  quote: string;
  /** Share of the asset's total volume traded here (the shares of an asset sum to 1). */
  share: number;
  /** Key of this market's noise. */
  key: number;
}

/** Explicit listings: pepecoin trades only on DEXes quoted in DOGE and LTC. */
const OVERRIDES: Record<string, readonly [venue: string, quote: string][]> = {
  pepecoin: [
    ['demo-dex-aurora', 'doge'],
    ['demo-dex-cove', 'ltc'],
  ],
};

/** Quote codes usable for an asset: the quote must be priceable (its asset or FX present) and not the asset itself. */
function quotesFor(m: AssetModel, available: ReadonlySet<string>): Set<string> {
  const out = new Set<string>();
  const isQuoteAsset = Object.values(DEMO_QUOTE_ASSETS).includes(m.id);
  for (const q of available) {
    const qa = DEMO_QUOTE_ASSETS[q];
    if (qa === m.id) continue;
    // Quote assets and stablecoins trade against fiat and USDT only, so every conversion chain ends in USD.
    if ((isQuoteAsset || m.stable) && qa !== undefined && q !== 'usdt') continue;
    out.add(q);
  }
  return out;
}

/**
 * Quotes an asset can have on a venue: on a DEX, kit coins trade against DOGE or LTC when those are available and
 * everything else against USDT (no DEX quotes fiat); a CEX can always fall back to USD.
 */
function quoteChoices(m: AssetModel, v: DemoVenue, quotes: ReadonlySet<string>): string[] {
  const offered = v.quotes.filter((q) => quotes.has(q));
  if (v.kind === 'cex') return offered.length > 0 ? offered : ['usd'];
  const kitQuotes = offered.filter((q) => q === 'doge' || q === 'ltc');
  return m.kit && kitQuotes.length > 0 ? kitQuotes : offered.filter((q) => q === 'usdt');
}

/**
 * The markets of an asset: 2–8 venues picked by tier and a seeded score (kit coins lean to DEXes; the outlier venue
 * only lists assets with at least 4 venues so its glitches can be voted out), each with one seeded quote.
 */
export function listAsset(seed: number, m: AssetModel, available: ReadonlySet<string>): Listing[] {
  const quotes = quotesFor(m, available);
  const k = keyOf(seed, 'listing', m.id);
  const override = OVERRIDES[m.id];
  let picks: [DemoVenue, string][] = [];
  if (override && override.every(([, q]) => quotes.has(q))) {
    picks = override.map(([v, q]) => [DEMO_VENUES.find((x) => x.id === v) as DemoVenue, q]);
  } else {
    const n = Math.max(2, Math.min(8, m.venues));
    const ranked = DEMO_VENUES.map((v, i) => ({
      v,
      score: v.tier + 0.6 * unit(hash2(k, i, 1)) + (m.kit && v.kind === 'dex' ? 0.5 : 0),
    }))
      .filter(({ v }) => n >= 4 || v.id !== OUTLIER_VENUE)
      .sort((a, b) => b.score - a.score);
    for (const [i, { v }] of ranked.entries()) {
      if (picks.length === n) break;
      const cands = quoteChoices(m, v, quotes);
      if (cands.length === 0) continue;
      // Prefer the venue's first quote; sometimes another.
      const u = unit(hash2(k, i, 2));
      picks.push([v, cands[u < 0.6 ? 0 : Math.floor(u * cands.length) % cands.length] as string]);
    }
  }
  const weights = picks.map(([v], i) => v.weight * between(hash2(k, i, 3), 0.6, 1.4));
  const total = weights.reduce((a, b) => a + b, 0);
  return picks.map(([venue, quote], i) => ({
    venue,
    quote,
    share: (weights[i] as number) / total,
    key: keyOf(seed, 'market', m.id, venue.id),
  }));
}

/** A seeded episode active at `t`: at most one per slot, fully inside its slot. */
function episodeAt(
  key: number,
  slotMs: number,
  p: number,
  minMs: number,
  maxMs: number,
  t: number,
): number | null {
  const slot = Math.floor(t / slotMs);
  const h = hash2(key, slot, 1);
  if (unit(h) >= p) return null;
  const dur = between(hash2(key, slot, 2), minMs, maxMs);
  const start = slot * slotMs + unit(hash2(key, slot, 3)) * (slotMs - dur);
  return t >= start && t < start + dur ? hash2(key, slot, 4) : null;
}

/** How far the venue's tickers lag at `t`: 20–60 minutes during a stale episode of the stale venue, else 0. */
export function staleLagMs(seed: number, venue: string, t: number): number {
  if (venue !== STALE_VENUE) return 0;
  const h = episodeAt(keyOf(seed, 'stale', venue), 2 * DAY, 0.45, HOUR, 6 * HOUR, t);
  return h === null ? 0 : Math.round(between(h, 20, 60)) * MINUTE;
}

/** Price factor of the venue at `t`: 1.3 or 0.7 during an outlier episode of the outlier venue, else 1. */
export function outlierFactor(seed: number, venue: string, t: number): number {
  if (venue !== OUTLIER_VENUE) return 1;
  const h = episodeAt(keyOf(seed, 'outlier', venue), 3 * DAY, 0.35, 30 * MINUTE, 4 * HOUR, t);
  return h === null ? 1 : unit(h) < 0.5 ? 1.3 : 0.7;
}
