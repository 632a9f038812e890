/**
 * Demo supply records. Three invented sources (`demo-explorer`, `demo-emission`, `demo-issuer`) report each asset's
 * circulating, total and max supply. Some assets are deliberately unverifiable: a single circulating source
 * (profile `single`) or two sources that disagree by 6–15 % (profile `disagree`).
 */
import type { SupplyKind, SupplyRecord, SupplySourceKind } from '../ingest/types.ts';
import type { AssetModel } from './params.ts';
import { ANCHOR_MS } from './paths.ts';
import { between, brownianOctaves, combine, fractalNoise, sig, unit, valueNoise } from './random.ts';

const DAY = 86_400_000;
const YEAR = 365.25 * DAY;
const STABLE_SUPPLY_OCTAVES = brownianOctaves(DAY, 180 * DAY, 6, 0.008);

interface Source {
  id: string;
  kind: SupplySourceKind;
}
export const DEMO_SUPPLY_SOURCES = {
  explorer: { id: 'demo-explorer', kind: 'explorer' },
  emission: { id: 'demo-emission', kind: 'emission' },
  issuer: { id: 'demo-issuer', kind: 'issuer' },
} as const satisfies Record<string, Source>;

/** The demo's true circulating supply at `t`: linear emission (capped at max), or mint/burn noise for stablecoins. */
export function circulatingAt(m: AssetModel, t: number): number {
  if (m.stable) return m.circ * Math.exp(fractalNoise(combine(m.key, 0x5e), STABLE_SUPPLY_OCTAVES, t));
  const c = m.circ + (m.emission * (t - ANCHOR_MS)) / YEAR;
  const capped = typeof m.max === 'number' && m.max > 0 ? Math.min(c, m.max) : c;
  return Math.max(capped, 0.1 * m.circ);
}

/** Supply records of one asset at `t` (values rounded to 10 significant digits). */
export function supplyRecords(m: AssetModel, t: number): SupplyRecord[] {
  const out: SupplyRecord[] = [];
  const add = (src: Source, kind: SupplyKind, value: number): void => {
    out.push({
      asset: m.id,
      kind,
      value: sig(Math.max(0, value), 10),
      source: src.id,
      sourceKind: src.kind,
      ts: t,
    });
  };
  const { explorer, emission, issuer } = DEMO_SUPPLY_SOURCES;
  const circ = circulatingAt(m, t);
  // Each source measures with its own small, slowly varying error (well inside the engine's 1 % tolerance).
  const jitter = (salt: number, size: number): number =>
    1 + size * valueNoise(combine(m.key, salt), t / (3 * DAY));
  const primary = m.issued ? issuer : explorer;
  const second = m.issued ? explorer : emission;
  const lockedShare = m.issued && !m.stable ? between(combine(m.key, 0x70), 0, 0.3) : 0;
  const cap = typeof m.max === 'number' && m.max > 0 ? m.max : Infinity;
  add(primary, 'circulating', circ * jitter(1, 0.0003));
  add(primary, 'total', Math.min(cap, circ * (1 + lockedShare)));
  if (m.profile === 'verified') add(second, 'circulating', circ * jitter(2, 0.0004));
  if (m.profile === 'disagree') {
    const sign = unit(combine(m.key, 0x71)) < 0.5 ? -1 : 1;
    add(
      second,
      'circulating',
      circ * (1 + sign * between(combine(m.key, 0x72), 0.06, 0.15)) * jitter(2, 0.0004),
    );
  }
  // A capped issued token with a vesting schedule gets a third, emission-based circulating figure.
  if (m.profile === 'verified' && m.issued && cap < Infinity)
    add(emission, 'circulating', circ * jitter(3, 0.0002));
  // Max: the cap when known; 0 from the emission source means "no cap"; null means no max record at all.
  if (m.max !== null) add(m.issued && m.max > 0 ? issuer : emission, 'max', m.max);
  return out;
}
