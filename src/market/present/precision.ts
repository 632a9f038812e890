import { paramError, single } from '../../core/params.ts';
import type { Query } from '../../core/params.ts';
import { servedNumber } from '../../engine/served-numbers.ts';

/**
 * `precision`: `full` or 0–18 decimal places for currency values (CoinGecko). Absent → values as computed, rounded to
 * 12 significant digits so binary-float noise (0.30000000000000004) never reaches clients. Whatever it is, every
 * served number also follows the served-number rule (`src/engine/served-numbers.ts`) unless it is `full`.
 */
export type Precision = { kind: 'default' } | { kind: 'full' } | { kind: 'decimals'; n: number };

export function parsePrecision(q: Query): Precision {
  const v = single(q, 'precision');
  if (v === undefined || v === '') return { kind: 'default' };
  if (v === 'full') return { kind: 'full' };
  if (/^\d{1,2}$/.test(v) && Number(v) <= 18) return { kind: 'decimals', n: Number(v) };
  throw paramError('precision', 'must be full or an integer from 0 to 18');
}

/** Applies a precision to one value; null stays null. */
export function applyPrecision(v: number | null, p: Precision): number | null {
  if (v === null || !Number.isFinite(v)) return null;
  if (p.kind === 'full') return v;
  if (p.kind === 'decimals') return Number(v.toFixed(p.n));
  return servedNumber(v);
}
