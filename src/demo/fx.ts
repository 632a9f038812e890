/**
 * Demo FX rates (USD per unit) for fiat and metal currencies: a table of realistic levels with slow seeded noise,
 * and a seeded plausible level for codes the table does not know. Crypto and unit currencies get no FX record.
 */
import type { CurrencyInfo } from '../catalog/types.ts';
import type { FxRate } from '../ingest/types.ts';
import { ANCHOR_MS } from './paths.ts';
import type { Octave } from './random.ts';
import { brownianOctaves, fractalNoise, keyOf, logBetween, sig } from './random.ts';

const DAY = 86_400_000;

/** Source id of the demo FX records. */
export const DEMO_FX_SOURCE = 'demo-fx';

/** USD per unit at the anchor time (demo levels, roughly 2025/26). Pegged currencies (`p`) barely move. */
// prettier-ignore
const LEVELS: Record<string, number | [number, 'p']> = {
  usd: [1, 'p'], eur: 1.08, jpy: 0.0067, gbp: 1.27, cny: 0.138, aud: 0.66, cad: 0.73, chf: 1.13, hkd: [0.128, 'p'],
  sgd: 0.75, sek: 0.095, krw: 0.00072, nok: 0.093, nzd: 0.6, inr: 0.0118, mxn: 0.055, twd: 0.031, zar: 0.055,
  brl: 0.18, dkk: [0.145, 'p'], pln: 0.25, thb: 0.029, ils: 0.27, idr: 0.000062, czk: 0.043, aed: [0.2723, 'p'],
  try: 0.025, huf: 0.0027, clp: 0.00106, sar: [0.2667, 'p'], php: 0.0175, myr: 0.22, cop: 0.00025, rub: 0.011,
  ron: 0.22, pen: 0.27, bhd: [2.653, 'p'], ars: 0.00085, afn: 0.014, all: 0.011, amd: 0.0026, aoa: 0.0011,
  awg: [0.5587, 'p'], azn: [0.588, 'p'], bam: [0.552, 'p'], bbd: [0.5, 'p'], bdt: 0.0083, bif: 0.00034,
  bmd: [1, 'p'], bnd: 0.75, bob: [0.1447, 'p'], bsd: [1, 'p'], btn: 0.0118, bwp: 0.074, byn: 0.3, bzd: [0.5, 'p'],
  cdf: 0.00035, crc: 0.002, cup: 0.042, cve: 0.0098, djf: [0.00562, 'p'], dop: 0.016, dzd: 0.0075, egp: 0.02,
  ern: [0.0667, 'p'], etb: 0.008, fjd: 0.44, gel: 0.37, ghs: 0.065, gmd: 0.014, gnf: 0.000116, gtq: 0.13,
  gyd: 0.0048, hnl: 0.039, htg: 0.0076, iqd: 0.00076, irr: 0.000024, isk: 0.0073, jmd: 0.0064, jod: [1.41, 'p'],
  kes: 0.0077, kgs: 0.0115, khr: 0.00025, kmf: [0.0022, 'p'], kwd: 3.25, kyd: [1.2, 'p'], kzt: 0.002,
  lak: 0.000046, lbp: 0.0000112, lkr: 0.0033, lrd: 0.005, lsl: 0.055, lyd: 0.18, mad: 0.1, mdl: 0.056,
  mga: 0.00022, mkd: 0.0175, mmk: 0.00048, mnt: 0.00029, mop: [0.124, 'p'], mru: 0.025, mur: 0.022, mvr: 0.065,
  mwk: 0.00058, mzn: 0.0157, nad: 0.055, ngn: 0.00065, nio: 0.027, npr: 0.0074, omr: [2.6, 'p'], pab: [1, 'p'],
  pgk: 0.25, pkr: 0.0036, pyg: 0.000128, qar: [0.2747, 'p'], rsd: 0.0092, rwf: 0.0007, sbd: 0.12, scr: 0.07,
  sdg: 0.0017, sle: 0.044, sos: 0.00175, srd: 0.028, ssp: 0.00077, stn: 0.044, syp: 0.000077, szl: 0.055,
  tjs: 0.094, tmt: [0.2857, 'p'], tnd: 0.32, top: 0.42, ttd: 0.147, tzs: 0.00038, uah: 0.024, ugx: 0.00027,
  uyu: 0.025, uzs: 0.000079, ves: 0.004, vnd: 0.000039, vuv: 0.0083, wst: 0.36, xaf: [0.00165, 'p'],
  xcd: [0.37, 'p'], xcg: [0.5587, 'p'], xof: [0.00165, 'p'], xpf: [0.00905, 'p'], yer: 0.004, zmw: 0.038,
  zwg: 0.037, xdr: 1.33,
  xau: 2400, xag: 30, xpt: 950, xpd: 1000,
};

/** How one currency's rate is generated. */
export interface FxSpec {
  code: string;
  level: number;
  key: number;
  octaves: readonly Octave[];
  anchorOffset: number;
}

/** The FX spec of a fiat or metal currency (table level, or a seeded plausible level for unknown codes). */
export function fxSpec(seed: number, c: Pick<CurrencyInfo, 'code' | 'kind'>): FxSpec {
  const entry = LEVELS[c.code];
  const pegged = Array.isArray(entry);
  let level = Array.isArray(entry) ? entry[0] : entry;
  if (level === undefined || level <= 0) {
    const k = keyOf(seed, 'fx-level', c.code);
    level = c.kind === 'metal' ? logBetween(k, 500, 3000) : logBetween(k, 0.00005, 1.5);
  }
  // Daily std: 0.02 % pegged, 0.5 % fiat, 1.2 % metals; periods from one day to 360 days.
  const sigma = pegged ? 0.0002 : c.kind === 'metal' ? 0.012 : 0.005;
  const octaves = brownianOctaves(DAY, 360 * DAY, 6, sigma);
  const key = keyOf(seed, 'fx', c.code);
  return { code: c.code, level, key, octaves, anchorOffset: fractalNoise(key, octaves, ANCHOR_MS) };
}

/** USD per unit of the currency at `t`. */
export function fxUsdPerUnit(s: FxSpec, t: number): number {
  if (s.code === 'usd') return 1;
  return s.level * Math.exp(fractalNoise(s.key, s.octaves, t) - s.anchorOffset);
}

/** The currencies that get FX records: fiat and metal ones. */
export function fxCurrencies(currencies: readonly CurrencyInfo[]): CurrencyInfo[] {
  return currencies.filter((c) => c.kind === 'fiat' || c.kind === 'metal');
}

/** FX records of every spec at `t`. */
export function fxRecords(specs: readonly FxSpec[], t: number): FxRate[] {
  return specs.map((s) => ({
    currency: s.code,
    usdPerUnit: sig(fxUsdPerUnit(s, t), 8),
    ts: t,
    source: DEMO_FX_SOURCE,
  }));
}
