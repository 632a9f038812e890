/**
 * The 20 kit packages (docs/kit.md): the complete kit and one per kit coin, in wallet order. One list for the build
 * (`scripts/build-kits.ts` writes each to `dist/kits/<dir>/`) and the server (`/kits/<dir>.tgz`). Node-side code: no
 * kit bundle imports this file.
 */
import { ASSETS } from '../../catalog/assets.ts';

export interface KitPackage {
  /** Directory under the build's output directory, and the tarball's name: `kit`, `kit-ltc`, … */
  dir: string;
  /** npm name: `@coinwallet/kit`, `@coinwallet/kit-ltc`, … */
  name: string;
  /** The bound coin; null for the complete kit. */
  coin: { ticker: string; coinId: string; name: string } | null;
  /** The browser bundle's global. */
  globalName: string;
}

/** The complete kit first, then one kit per coin of the catalog's kit coins. */
export function kitPackages(): KitPackage[] {
  const coins = ASSETS.filter((a) => a.kitTicker);
  return [
    { dir: 'kit', name: '@coinwallet/kit', coin: null, globalName: 'CoinWalletKit' },
    ...coins.map((a) => {
      const t = a.kitTicker as string;
      return {
        dir: `kit-${t.toLowerCase()}`,
        name: `@coinwallet/kit-${t.toLowerCase()}`,
        coin: { ticker: t, coinId: a.id, name: a.name },
        globalName: `CoinWalletKit${t}`,
      };
    }),
  ];
}

/** Where the server serves a package's tarball: `/kits/kit.tgz`, `/kits/kit-ltc.tgz`, … */
export const kitTarballPath = (dir: string): string => `/kits/${dir}.tgz`;
