/**
 * Default wiring of the demo generator to the catalog. The catalog is imported lazily so the generator itself (and
 * its tests) never depend on it.
 */
import type { DemoInputs } from './model.ts';

/** Seed of the shipped demo dataset. */
export const DEFAULT_DEMO_SEED = 20261121;

/** The catalog's assets and currencies with the default seed (or `seed`). */
export async function defaultDemoInputs(seed: number = DEFAULT_DEMO_SEED): Promise<DemoInputs> {
  const [{ ASSETS }, { CURRENCIES }] = await Promise.all([
    import('../catalog/assets.ts'),
    import('../catalog/currencies.ts'),
  ]);
  return { seed, assets: ASSETS, currencies: CURRENCIES };
}
