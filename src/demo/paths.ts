/**
 * Random-access price and volume paths. Every value is a pure function of (seed, asset, t): no sequential state,
 * so the recording and the live source evaluate the same curves and live data joins the history seamlessly.
 */
import type { AssetModel } from './params.ts';
import { between, brownianOctaves, combine, fractalNoise, hash2, unit, valueNoise } from './random.ts';

const MINUTE = 60_000;
const HOUR = 3_600_000;
const DAY = 86_400_000;
const YEAR = 365.25 * DAY;

/** Paths are anchored here: each asset's price equals its table level at this instant (2026-11-01T00:00Z). */
export const ANCHOR_MS = Date.UTC(2026, 10, 1);

/** Events (volume surges, often with a price jump) are drawn per 12-day slot. */
export const EVENT_SLOT_MS = 12 * DAY;
const EVENT_PROBABILITY = 0.35;
const JUMP_PROBABILITY = 0.7;
/** A jump fades out over 30–120 days; events older than this no longer matter. */
const JUMP_MAX_FADE_MS = 120 * DAY;
const JUMP_RAMP_MS = 30 * MINUTE;

const STABLE_OCTAVES = brownianOctaves(15 * MINUTE, 30 * DAY, 8, 0.0008);
const VOLUME_OCTAVES = brownianOctaves(HOUR, 60 * DAY, 8, 0.12);

/** A seeded market event of one asset: 24h volume ×`surge` for one day, with an optional price jump. */
export interface DemoEvent {
  ts: number;
  /** Trading-intensity multiplier during the day after `ts` (3–10). */
  surge: number;
  /** Log-price jump (0 when the event moves only volume). */
  jump: number;
  /** Time for the jump to fade out, ms. */
  fadeMs: number;
}

/** Events already drawn, by model and slot (pure values: a cache, never a source of truth). */
const drawn = new WeakMap<AssetModel, Map<number, DemoEvent | null>>();

/** The event of `slot` for an asset, or null when the slot is quiet. */
export function eventInSlot(m: AssetModel, slot: number): DemoEvent | null {
  let bySlot = drawn.get(m);
  if (!bySlot) drawn.set(m, (bySlot = new Map()));
  let e = bySlot.get(slot);
  if (e === undefined) {
    if (bySlot.size >= 4096) bySlot.clear();
    bySlot.set(slot, (e = drawEvent(m, slot)));
  }
  return e;
}

function drawEvent(m: AssetModel, slot: number): DemoEvent | null {
  const k = combine(m.key, 0xe7e47);
  if (unit(hash2(k, slot, 1)) >= EVENT_PROBABILITY) return null;
  const ts = slot * EVENT_SLOT_MS + Math.floor(unit(hash2(k, slot, 2)) * EVENT_SLOT_MS);
  const surge = between(hash2(k, slot, 3), 3, 10);
  let jump = 0;
  if (!m.stable && m.tracks === null && unit(hash2(k, slot, 4)) < JUMP_PROBABILITY) {
    const scale = Math.min(1.5, Math.max(0.5, m.vol / 0.045));
    jump = (unit(hash2(k, slot, 5)) < 0.5 ? -1 : 1) * between(hash2(k, slot, 6), 0.08, 0.3) * scale;
  }
  return { ts, surge, jump, fadeMs: between(hash2(k, slot, 7), 30 * DAY, JUMP_MAX_FADE_MS) };
}

/** All events of an asset with `from <= ts < to`, ascending. */
export function eventsBetween(m: AssetModel, from: number, to: number): DemoEvent[] {
  const out: DemoEvent[] = [];
  for (let s = Math.floor(from / EVENT_SLOT_MS); s <= Math.floor(to / EVENT_SLOT_MS); s++) {
    const e = eventInSlot(m, s);
    if (e && e.ts >= from && e.ts < to) out.push(e);
  }
  return out;
}

/** Sum of the (fading) jumps active at `t`: ramps in over 30 minutes, fades out smoothly. */
function jumpsAt(m: AssetModel, t: number): number {
  let sum = 0;
  const first = Math.floor((t - JUMP_MAX_FADE_MS) / EVENT_SLOT_MS);
  for (let s = first; s <= Math.floor(t / EVENT_SLOT_MS); s++) {
    const e = eventInSlot(m, s);
    if (!e || e.jump === 0 || t < e.ts) continue;
    const dt = t - e.ts;
    if (dt >= e.fadeMs) continue;
    const u = dt / e.fadeMs;
    sum += e.jump * Math.min(1, dt / JUMP_RAMP_MS) * (1 - u * u * (3 - 2 * u));
  }
  return sum;
}

/** Log-price deviation of a volatile asset at `t` (before anchoring). */
function logNoise(m: AssetModel, t: number): number {
  return fractalNoise(m.key, m.octaves, t) + jumpsAt(m, t);
}

/** Fills in the anchor offset so that `priceUsd(m, ANCHOR_MS)` equals the table level. */
export function anchorModel(m: AssetModel): AssetModel {
  return { ...m, anchorOffset: m.stable || m.tracks !== null ? 0 : logNoise(m, ANCHOR_MS) };
}

/** Looks up the model of a tracked asset (wrapped assets). */
export type ModelLookup = (id: string) => AssetModel | undefined;

/** The demo's "true" USD price of an asset at `t`, before any venue noise. */
export function priceUsd(m: AssetModel, t: number, lookup: ModelLookup): number {
  if (m.stable) {
    // Stays within ±0.15 % of 1: a soft clamp of a small fractal noise.
    return 1 + 0.0015 * Math.tanh(fractalNoise(m.key, STABLE_OCTAVES, t) / 0.0015);
  }
  if (m.tracks !== null) {
    const base = lookup(m.tracks);
    const p = base ? priceUsd(base, t, lookup) : m.price;
    return p * (1 + 0.001 * valueNoise(m.key, t / (6 * HOUR)));
  }
  return m.price * Math.exp((m.drift * (t - ANCHOR_MS)) / YEAR + logNoise(m, t) - m.anchorOffset);
}

/** Volume multiplier of the surges: intensity ×surge over one day, seen through a trailing 24h window. */
function surgeAt(m: AssetModel, t: number): number {
  let mult = 1;
  for (let s = Math.floor((t - 2 * DAY) / EVENT_SLOT_MS); s <= Math.floor(t / EVENT_SLOT_MS); s++) {
    const e = eventInSlot(m, s);
    if (!e) continue;
    const overlap = Math.min(t, e.ts + DAY) - Math.max(t - DAY, e.ts);
    if (overlap > 0) mult += ((e.surge - 1) * overlap) / DAY;
  }
  return mult;
}

/** The demo's 24h traded volume in USD across all venues at `t`. */
export function volumeUsd(m: AssetModel, t: number): number {
  return m.volume * Math.exp(fractalNoise(combine(m.key, 0x701), VOLUME_OCTAVES, t)) * surgeAt(m, t);
}
