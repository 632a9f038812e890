/**
 * The mining calculator's arithmetic, a pure function of the miner's inputs and the network's figures (no I/O, no
 * DOM): the widget runs it in the browser; there is no calculation API on the server, by design.
 *
 * ```
 * hashrate (H/s)      h = value × unit (H/s 1, kH/s 10³, MH/s 10⁶, GH/s 10⁹, TH/s 10¹²)
 * share of network    s = h / H                       H: the network hashrate, H/s
 * blocks per day      b = 86,400 / T                  T: seconds between blocks
 * coins per day       c = s × b × R × (1 − fee / 100) R: coins per block, fee: the pool's fee in percent
 * revenue per day     r = c × P                       P: the coin's price in the chosen currency
 * electricity per day e = W / 1000 × 24 × K           W: power draw in watts, K: currency per kWh
 * profit per day      p = r − e
 * per month           × 30 (a month is 30 days)
 * ```
 *
 * A figure the network side does not know (null, or not a positive number) makes what depends on it null and is
 * listed in `missing`; electricity needs only the inputs and is always computed.
 */

/** Hashrate units of the unit selector, with their factor to H/s. */
export const HASHRATE_UNITS = [
  { unit: 'H/s', factor: 1 },
  { unit: 'kH/s', factor: 1e3 },
  { unit: 'MH/s', factor: 1e6 },
  { unit: 'GH/s', factor: 1e9 },
  { unit: 'TH/s', factor: 1e12 },
] as const;
export type HashrateUnit = (typeof HASHRATE_UNITS)[number]['unit'];

export const SECONDS_PER_DAY = 86_400;
export const HOURS_PER_DAY = 24;
/** A month, for the monthly figures: 30 days. */
export const DAYS_PER_MONTH = 30;

/** What the miner enters. */
export interface MinerInputs {
  /** Hashrate in `unit`. */
  hashrate: number;
  unit: HashrateUnit;
  /** Power draw, watts. */
  powerWatts: number;
  /** Electricity price, in the chosen currency per kWh. */
  electricityPerKwh: number;
  /** Pool fee, percent (0–100). */
  poolFeePercent: number;
}

/** What the graph knows about the network and the coin's price; null when unknown. */
export interface NetworkFigures {
  /** Network hashrate, H/s. */
  networkHashrate: number | null;
  /** Seconds between blocks. */
  blockTimeSeconds: number | null;
  /** Coins per block. */
  blockReward: number | null;
  /** Price of one coin in the chosen currency. */
  price: number | null;
}

export type NetworkFigure = keyof NetworkFigures;
export type InputField = keyof MinerInputs;

export interface InputError {
  field: InputField;
  message: string;
}

export interface MiningEstimate {
  /** The miner's hashrate, H/s. */
  hashrateHs: number;
  /** The miner's share of the network hashrate; null when the network hashrate is unknown. */
  share: number | null;
  coinsPerDay: number | null;
  coinsPerMonth: number | null;
  revenuePerDay: number | null;
  revenuePerMonth: number | null;
  electricityPerDay: number;
  electricityPerMonth: number;
  profitPerDay: number | null;
  profitPerMonth: number | null;
  /** Network figures that were unknown (or unusable), in the order of {@link NETWORK_FIGURES}. */
  missing: NetworkFigure[];
}

export type CalcResult = { ok: true; estimate: MiningEstimate } | { ok: false; errors: InputError[] };

export const NETWORK_FIGURES: readonly NetworkFigure[] = [
  'networkHashrate',
  'blockTimeSeconds',
  'blockReward',
  'price',
];

/** The factor of a unit to H/s; undefined for a unit not offered. */
export function unitFactor(unit: string): number | undefined {
  return HASHRATE_UNITS.find((u) => u.unit === unit)?.factor;
}

/** The inputs' problems, one per field at most (empty when they are usable). */
export function validateInputs(i: MinerInputs): InputError[] {
  const errors: InputError[] = [];
  const nonNegative = (field: InputField, v: number, what: string): void => {
    if (!Number.isFinite(v) || v < 0)
      errors.push({ field, message: `${what} must be a number of 0 or more` });
  };
  nonNegative('hashrate', i.hashrate, 'Hashrate');
  if (unitFactor(i.unit) === undefined)
    errors.push({
      field: 'unit',
      message: `Unit must be one of ${HASHRATE_UNITS.map((u) => u.unit).join(', ')}`,
    });
  nonNegative('powerWatts', i.powerWatts, 'Power draw');
  nonNegative('electricityPerKwh', i.electricityPerKwh, 'Electricity cost');
  if (!Number.isFinite(i.poolFeePercent) || i.poolFeePercent < 0 || i.poolFeePercent > 100)
    errors.push({ field: 'poolFeePercent', message: 'Pool fee must be a percentage from 0 to 100' });
  return errors;
}

/** A network figure that can be used: a finite number, positive (the reward and the price may be 0). */
function usable(name: NetworkFigure, v: number | null): v is number {
  if (v === null || !Number.isFinite(v)) return false;
  return name === 'blockReward' || name === 'price' ? v >= 0 : v > 0;
}

/** The estimate of {@link MinerInputs} on a network; input errors instead when the inputs are not usable. */
export function calculate(inputs: MinerInputs, network: NetworkFigures): CalcResult {
  const errors = validateInputs(inputs);
  if (errors.length > 0) return { ok: false, errors };
  const missing = NETWORK_FIGURES.filter((n) => !usable(n, network[n]));
  const known = (n: NetworkFigure): number | null => (missing.includes(n) ? null : network[n]);
  const H = known('networkHashrate');
  const T = known('blockTimeSeconds');
  const R = known('blockReward');
  const P = known('price');

  const hashrateHs = inputs.hashrate * (unitFactor(inputs.unit) as number);
  const share = H === null ? null : hashrateHs / H;
  const coinsPerDay =
    share === null || T === null || R === null
      ? null
      : share * (SECONDS_PER_DAY / T) * R * (1 - inputs.poolFeePercent / 100);
  const revenuePerDay = coinsPerDay === null || P === null ? null : coinsPerDay * P;
  const electricityPerDay = (inputs.powerWatts / 1000) * HOURS_PER_DAY * inputs.electricityPerKwh;
  const profitPerDay = revenuePerDay === null ? null : revenuePerDay - electricityPerDay;
  const month = (v: number | null): number | null => (v === null ? null : v * DAYS_PER_MONTH);
  return {
    ok: true,
    estimate: {
      hashrateHs,
      share,
      coinsPerDay,
      coinsPerMonth: month(coinsPerDay),
      revenuePerDay,
      revenuePerMonth: month(revenuePerDay),
      electricityPerDay,
      electricityPerMonth: electricityPerDay * DAYS_PER_MONTH,
      profitPerDay,
      profitPerMonth: month(profitPerDay),
      missing,
    },
  };
}

/**
 * A number typed into a field: `''` (or only spaces) is null; a decimal comma is read as a point; anything else
 * that is not a plain decimal number is NaN (reported by {@link validateInputs}).
 */
export function parseAmount(text: string): number | null {
  const t = text.trim().replace(',', '.');
  if (t === '') return null;
  return /^[+]?(\d+\.?\d*|\.\d+)(e[+-]?\d+)?$/i.test(t) ? Number(t) : NaN;
}
