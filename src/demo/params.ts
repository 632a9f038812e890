import type { AssetInfo } from '../catalog/types.ts';
import type { DemoMax } from './asset-table.ts';
import { demoAssetRow } from './asset-table.ts';
import type { Octave } from './random.ts';
import { between, brownianOctaves, keyOf, logBetween, unit } from './random.ts';

const MINUTE = 60_000;
const DAY = 86_400_000;

/** How the demo supply sources report an asset's circulating supply (see `supply.ts`). */
export type SupplyProfile = 'verified' | 'single' | 'disagree';

/** Everything the generator needs to know about one asset, resolved from the table or seeded defaults. */
export interface AssetParams {
  id: string;
  /** USD price at the anchor time (for wrapped assets: unused, the price follows `tracks`). */
  price: number;
  /** Daily standard deviation of the log price. */
  vol: number;
  /** Log-price drift per year. */
  drift: number;
  venues: number;
  /** Typical 24h volume, USD. */
  volume: number;
  circ: number;
  emission: number;
  max: DemoMax;
  profile: SupplyProfile;
  stable: boolean;
  issued: boolean;
  kit: boolean;
  tracks: string | null;
  /** Whether the table knew the id (false: seeded defaults). */
  known: boolean;
}

/** A resolved asset with its hash keys and noise octaves, ready for path evaluation. */
export interface AssetModel extends AssetParams {
  /** Key of the price noise; other keys are derived from it. */
  key: number;
  octaves: readonly Octave[];
  /** Noise + jumps at the anchor, subtracted so the price equals `price` at the anchor. */
  anchorOffset: number;
}

/** Price paths span 15 minutes to 120 days (14 geometric octaves). */
export const PRICE_OCTAVE_RANGE = { minMs: 15 * MINUTE, maxMs: 120 * DAY, count: 14 } as const;

/** The generator's parameters for one asset: the table row when the id is known, else seeded defaults. */
export function assetParams(seed: number, asset: AssetInfo): AssetParams {
  const k = keyOf(seed, 'params', asset.id);
  const draw = (label: number): number => unit(keyOf(k, label));
  const row = demoAssetRow(asset.id);
  const drift = between(keyOf(k, 1), -0.25, 0.25);
  if (row) {
    const stable = row.flags.includes('s');
    return {
      id: asset.id,
      price: row.price,
      vol: row.vol,
      drift: stable ? 0 : drift,
      venues: row.venues,
      volume: row.volume,
      circ: row.circ,
      emission: row.emission,
      max: row.max,
      profile: row.flags.includes('1') ? 'single' : row.flags.includes('x') ? 'disagree' : 'verified',
      stable,
      issued: row.flags.includes('i'),
      kit: row.flags.includes('k') || asset.kitTicker !== undefined,
      tracks: row.tracks ?? null,
      known: true,
    };
  }
  const kit = asset.kitTicker !== undefined;
  const circ = logBetween(keyOf(k, 2), 1e7, 1e11);
  const p = draw(3);
  const m = draw(4);
  return {
    id: asset.id,
    price: kit ? logBetween(keyOf(k, 5), 1e-5, 0.5) : logBetween(keyOf(k, 5), 0.001, 50),
    vol: between(keyOf(k, 6), 0.04, 0.07),
    drift,
    venues: kit ? 2 + Math.floor(draw(7) * 2) : 2 + Math.floor(draw(7) * 5),
    volume: kit ? logBetween(keyOf(k, 8), 2e4, 5e5) : logBetween(keyOf(k, 8), 1e5, 5e7),
    circ,
    emission: circ * between(keyOf(k, 9), 0, 0.05),
    max: m < 0.2 ? null : m < 0.3 ? 0 : circ * between(keyOf(k, 10), 1.1, 2),
    profile: p < 0.1 ? 'single' : p < 0.18 ? 'disagree' : 'verified',
    stable: false,
    issued: draw(11) < 0.4,
    kit,
    tracks: null,
    known: false,
  };
}

/** Adds keys and octaves to the parameters (the anchor offset is filled in by `paths.ts`). */
export function assetModel(seed: number, params: AssetParams): AssetModel {
  const { minMs, maxMs, count } = PRICE_OCTAVE_RANGE;
  return {
    ...params,
    key: keyOf(seed, 'price', params.id),
    octaves: brownianOctaves(minMs, maxMs, count, params.vol),
    anchorOffset: 0,
  };
}
