/** The 20 kit packages: the complete kit and one per kit coin, in wallet order. */
import { ASSETS } from '../../src/catalog/assets.ts';

export interface KitSpec {
  /** Directory under the output dir: `kit`, `kit-ltc`, … */
  dir: string;
  /** npm name: `@coinwallet/kit`, `@coinwallet/kit-ltc`, … */
  name: string;
  /** The bound coin; null for the complete kit. */
  coin: { ticker: string; coinId: string; name: string } | null;
  /** The browser bundle's global. */
  globalName: string;
}

export function kitSpecs(): KitSpec[] {
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
