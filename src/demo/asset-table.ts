/**
 * Demo parameters of the well-known assets: realistic 2026-ish magnitudes, not real data. Assets missing here get
 * seeded defaults (see `params.ts`).
 */

/** Max supply: a number (capped), 0 (the emission source states "no cap") or null (no max record at all). */
export type DemoMax = number | 0 | null;

/**
 * Flags: `s` USD stablecoin, `i` supply published by an issuer (token), `k` wallet kit coin,
 * `1` only one circulating-supply source, `x` two circulating sources that disagree by more than 5 %,
 * `w` wrapped asset whose price follows `tracks`.
 */
export interface DemoAssetRow {
  /** USD price at the anchor time (2026-11-01). */
  price: number;
  /** Daily standard deviation of the log price (ignored for stablecoins and wrapped assets). */
  vol: number;
  /** Number of demo venues listing the asset (2–8). */
  venues: number;
  /** Typical 24h volume in USD, across all venues. */
  volume: number;
  /** Circulating supply at the anchor time. */
  circ: number;
  /** Net new units per year (negative for burns). */
  emission: number;
  max: DemoMax;
  flags: string;
  tracks?: string;
}

type Row = [
  price: number,
  vol: number,
  venues: number,
  volume: number,
  circ: number,
  emission: number,
  max: DemoMax,
  flags?: string,
];

const ROWS: Record<string, Row> = {
  // Wallet kit coins.
  litecoin: [90, 0.04, 7, 5e8, 76.5e6, 1.31e6, 84e6, 'k'],
  dogecoin: [0.15, 0.05, 7, 1.2e9, 151e9, 5.256e9, 0, 'k'],
  digibyte: [0.008, 0.05, 4, 8e6, 18e9, 0.3e9, 21e9, 'k'],
  luckycoin: [0.35, 0.07, 3, 1.5e5, 14.2e6, 0.26e6, 20e6, 'k1'],
  pepecoin: [0.0006, 0.07, 2, 2.5e5, 120e9, 5e9, 0, 'k'],
  bellscoin: [0.25, 0.07, 3, 4e5, 62e6, 3e6, null, 'k'],
  dingocoin: [0.00004, 0.07, 3, 6e4, 100e9, 5e9, 0, 'k'],
  shibacoin: [0.0000015, 0.08, 2, 3e4, 1.1e12, 3e10, null, 'k'],
  junkcoin: [0.06, 0.07, 2, 5e4, 3.2e6, 0.2e6, 21e6, 'k1'],
  catcoin: [0.012, 0.07, 2, 2e4, 8.5e6, 0.26e6, 21e6, 'kx'],
  flopcoin: [0.00003, 0.08, 2, 1e4, 60e9, 2e9, null, 'kx'],
  fairbrix: [0.02, 0.07, 2, 8e3, 4.3e6, 0.1e6, 25e6, 'k1'],
  craftcoin: [0.004, 0.07, 2, 5e3, 5.1e6, 0.1e6, 10e6, 'k1'],
  bbqcoin: [0.0009, 0.07, 2, 4e3, 70e6, 2e6, 88e6, 'k1'],
  bonkcoin: [0.00002, 0.08, 2, 1.5e4, 90e9, 4e9, 0, 'k'],
  earthcoin: [0.0006, 0.07, 3, 2e4, 16e9, 0.3e9, 13.5e10, 'kx'],
  newyorkcoin: [0.000005, 0.08, 2, 6e3, 144e9, 2e9, null, 'k1'],
  cyberyen: [0.0012, 0.08, 2, 7e3, 300e6, 20e6, 1e9, 'k'],
  'bit-b1t': [0.0003, 0.08, 2, 5e3, 4e9, 0.2e9, 21e9, 'k'],
  // Majors.
  bitcoin: [90_000, 0.028, 8, 35e9, 19.95e6, 164e3, 21e6],
  ethereum: [3_000, 0.035, 8, 18e9, 120.7e6, 0.8e6, null],
  tether: [1, 0, 7, 60e9, 185e9, 20e9, null, 'si'],
  ripple: [2.1, 0.04, 7, 3e9, 60e9, 0.8e9, 100e9],
  binancecoin: [900, 0.03, 6, 1.8e9, 139e6, -2e6, 200e6, 'i'],
  solana: [140, 0.045, 7, 4e9, 560e6, 25e6, null],
  'usd-coin': [1, 0, 6, 8e9, 75e9, 10e9, null, 'si'],
  tron: [0.29, 0.03, 5, 8e8, 94.7e9, 0.3e9, null],
  cardano: [0.45, 0.045, 6, 7e8, 36e9, 0.3e9, 45e9],
  hyperliquid: [35, 0.06, 4, 3e8, 337e6, 20e6, 1e9, 'i'],
  chainlink: [13, 0.05, 6, 6e8, 680e6, 30e6, 1e9, 'i'],
  'bitcoin-cash': [550, 0.04, 6, 4e8, 19.95e6, 164e3, 21e6],
  stellar: [0.25, 0.04, 5, 2e8, 31e9, 0.5e9, 50e9],
  'ethena-usde': [1, 0, 4, 1.5e8, 7e9, 1e9, null, 'si'],
  sui: [2.5, 0.055, 5, 7e8, 3.5e9, 0.3e9, 10e9, 'i'],
  'avalanche-2': [14, 0.05, 6, 5e8, 420e6, 15e6, 720e6],
  'hedera-hashgraph': [0.15, 0.045, 5, 1.5e8, 42e9, 0.8e9, 50e9],
  'leo-token': [9, 0.015, 2, 3e6, 920e6, 0, null, 'ix'],
  'shiba-inu': [0.0000085, 0.055, 6, 2e8, 589e12, 0, null, 'i'],
  'the-open-network': [2.5, 0.05, 5, 2e8, 2.5e9, 40e6, null],
  monero: [380, 0.035, 3, 1e8, 18.45e6, 157e3, null],
  dai: [1, 0, 5, 2e8, 5.3e9, 0.3e9, null, 'si'],
  polkadot: [2.5, 0.05, 5, 3e8, 1.6e9, 120e6, null],
  'crypto-com-chain': [0.1, 0.04, 3, 2e7, 30e9, 0.5e9, 100e9, 'i'],
  uniswap: [6, 0.05, 5, 2e8, 630e6, 20e6, 1e9, 'i'],
  pepe: [0.0000065, 0.07, 6, 6e8, 420.69e12, 0, 420.69e12, 'i'],
  aave: [190, 0.05, 5, 3e8, 15.2e6, 50e3, 16e6, 'i'],
  okb: [110, 0.03, 2, 2e7, 21e6, 0, 21e6, 'i'],
  near: [2.2, 0.05, 4, 2e8, 1.28e9, 60e6, null],
  'ethereum-classic': [14, 0.045, 5, 1e8, 152e6, 2.5e6, 210.7e6],
  aptos: [3.5, 0.05, 4, 1.5e8, 700e6, 70e6, null, 'i'],
  'internet-computer': [4.5, 0.05, 4, 8e7, 540e6, 20e6, null],
  bittensor: [350, 0.06, 4, 1.5e8, 9.6e6, 1.31e6, 21e6],
  cosmos: [3.5, 0.05, 4, 1e8, 480e6, 30e6, null],
  'polygon-ecosystem-token': [0.2, 0.05, 5, 1e8, 10.5e9, 0.2e9, null, 'i'],
  arbitrum: [0.3, 0.055, 5, 2e8, 5.5e9, 0.9e9, 10e9, 'i'],
  optimism: [0.45, 0.055, 4, 1.2e8, 1.8e9, 0.3e9, 4.29e9, 'i'],
  vechain: [0.018, 0.05, 3, 3e7, 86e9, 1e9, null],
  algorand: [0.18, 0.05, 4, 4e7, 8.7e9, 0.1e9, 10e9],
  filecoin: [2.3, 0.05, 4, 1.2e8, 700e6, 60e6, 1.96e9],
  kaspa: [0.06, 0.06, 4, 6e7, 26.8e9, 0.6e9, 28.7e9],
  mantle: [1.1, 0.05, 3, 6e7, 3.25e9, 0, 6.22e9, 'i'],
  'first-digital-usd': [1, 0, 3, 3e9, 1e9, 0.1e9, null, 'si'],
  'render-token': [2.5, 0.06, 4, 6e7, 518e6, 5e6, 644e6, 'i'],
  stacks: [0.5, 0.06, 4, 3e7, 1.5e9, 40e6, 1.818e9],
  'injective-protocol': [8, 0.06, 4, 6e7, 97e6, 0.5e6, 100e6, 'i'],
  'the-graph': [0.08, 0.055, 4, 3e7, 10.5e9, 0.3e9, null, 'i'],
  maker: [1_500, 0.05, 3, 3e7, 870e3, 0, 1.005e6, 'i'],
  tezos: [0.6, 0.045, 3, 2e7, 1.05e9, 40e6, null],
  eos: [0.5, 0.045, 3, 4e7, 1.55e9, 60e6, 2.1e9],
  zcash: [60, 0.06, 4, 1e8, 16.2e6, 657e3, 21e6],
  dash: [25, 0.05, 4, 6e7, 12.5e6, 0.6e6, 18.9e6],
  'bitcoin-cash-sv': [30, 0.05, 3, 2e7, 19.9e6, 164e3, 21e6],
  'yearn-finance': [4_500, 0.05, 3, 1e7, 33.7e3, 0, 36.666e3, 'i'],
  'true-usd': [1, 0, 2, 2e7, 0.5e9, 0, null, 'si'],
  'binance-usd': [1, 0, 2, 2e6, 60e6, 0, null, 'si'],
  'paypal-usd': [1, 0, 3, 4e7, 1e9, 0.2e9, null, 'si'],
  decred: [15, 0.05, 3, 3e6, 16.8e6, 0.3e6, 21e6],
  ravencoin: [0.012, 0.055, 3, 8e6, 15e9, 1.6e9, 21e9],
  namecoin: [0.9, 0.05, 2, 2e5, 14.7e6, 0.1e6, 21e6, '1'],
};

/** Wrapped assets: their price follows the tracked asset's path. */
const WRAPPED: Record<string, { tracks: string; venues: number; volume: number; circ: number }> = {
  'wrapped-bitcoin': { tracks: 'bitcoin', venues: 4, volume: 1.5e8, circ: 130e3 },
  weth: { tracks: 'ethereum', venues: 3, volume: 5e8, circ: 2.9e6 },
  'staked-ether': { tracks: 'ethereum', venues: 3, volume: 6e7, circ: 9.5e6 },
};

/** The demo parameters of a well-known asset id, or undefined for an unknown one. */
export function demoAssetRow(id: string): DemoAssetRow | undefined {
  const w = WRAPPED[id];
  if (w)
    return {
      price: 0,
      vol: 0,
      venues: w.venues,
      volume: w.volume,
      circ: w.circ,
      emission: 0,
      max: null,
      flags: 'iw',
      tracks: w.tracks,
    };
  const r = ROWS[id];
  if (!r) return undefined;
  const [price, vol, venues, volume, circ, emission, max, flags = ''] = r;
  return { price, vol, venues, volume, circ, emission, max, flags };
}
