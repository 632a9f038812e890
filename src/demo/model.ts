/**
 * The resolved demo world for one seed and catalog: asset models, their markets and the FX specs. Built once, then
 * evaluated at any time by `snapshot.ts`.
 */
import type { AssetInfo, CurrencyInfo } from '../catalog/types.ts';
import type { FxSpec } from './fx.ts';
import { fxCurrencies, fxSpec } from './fx.ts';
import type { AssetModel } from './params.ts';
import { assetModel, assetParams } from './params.ts';
import { anchorModel } from './paths.ts';
import type { Listing } from './venues.ts';
import { DEMO_QUOTE_ASSETS, listAsset } from './venues.ts';

/** Inputs of the generator. */
export interface DemoInputs {
  /** Seed of every random choice; the same seed and catalog give the same data. */
  seed: number;
  /** Assets to generate (usually the catalog's `ASSETS`). */
  assets: readonly AssetInfo[];
  /** Currencies (usually the catalog's `CURRENCIES`): fiat and metal ones get FX records. */
  currencies: readonly CurrencyInfo[];
}

/** One asset with its markets. */
export interface DemoAsset {
  model: AssetModel;
  listings: readonly Listing[];
}

export interface DemoModel {
  seed: number;
  assets: readonly DemoAsset[];
  /** Every asset model by id, including tracked assets that are not in the catalog. */
  byId: ReadonlyMap<string, AssetModel>;
  /** FX specs of the catalog's fiat and metal currencies (FX records are emitted for these). */
  fx: readonly FxSpec[];
  /** FX spec of `eur`, used to price EUR-quoted markets. */
  eur: FxSpec;
}

function buildModel(seed: number, asset: AssetInfo): AssetModel {
  return anchorModel(assetModel(seed, assetParams(seed, asset)));
}

/** Resolves the demo world. Pure: the same inputs give an identical model. */
export function createDemoModel({ seed, assets, currencies }: DemoInputs): DemoModel {
  const byId = new Map<string, AssetModel>();
  for (const a of assets) if (!byId.has(a.id)) byId.set(a.id, buildModel(seed, a));
  // Wrapped assets need the model of what they track even when it is not in the catalog.
  for (const m of [...byId.values()]) {
    if (m.tracks !== null && !byId.has(m.tracks)) {
      byId.set(
        m.tracks,
        buildModel(seed, {
          id: m.tracks,
          symbol: m.tracks,
          name: m.tracks,
          hashingAlgorithm: null,
          blockTimeMinutes: null,
          genesisDate: null,
          homepage: null,
        }),
      );
    }
  }
  const fiat = fxCurrencies(currencies);
  const available = new Set<string>(['usd']);
  for (const [code, id] of Object.entries(DEMO_QUOTE_ASSETS))
    if (assets.some((a) => a.id === id)) available.add(code);
  if (fiat.some((c) => c.code === 'eur')) available.add('eur');
  const seen = new Set<string>();
  const out: DemoAsset[] = [];
  for (const a of assets) {
    if (seen.has(a.id)) continue;
    seen.add(a.id);
    const model = byId.get(a.id) as AssetModel;
    out.push({ model, listings: listAsset(seed, model, available) });
  }
  return {
    seed,
    assets: out,
    byId,
    fx: fiat.map((c) => fxSpec(seed, c)),
    eur: fxSpec(seed, { code: 'eur', kind: 'fiat' }),
  };
}
