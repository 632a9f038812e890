import { describe, expect, it } from 'vitest';
import { DEFAULT_FX_MAX_AGE_MS, MarketState } from '../../src/engine/state.ts';

const HOUR = 3_600_000;
const T0 = Date.UTC(2026, 10, 20, 13, 15);
// ECB: 132 h; the JSON API: 36 h (as the product configures them); anything else: the default.
const windows = new Map([
  ['ecb', 132 * HOUR],
  ['open-er-api', 36 * HOUR],
]);
const state = (): MarketState => new MarketState((s) => windows.get(s) ?? DEFAULT_FX_MAX_AGE_MS);

describe('FX rates are used only while fresh, per source', () => {
  it('serves the newest fresh rate among the sources', () => {
    const s = state();
    s.applyFx({ currency: 'eur', usdPerUnit: 1.08, ts: T0, source: 'ecb' });
    s.applyFx({ currency: 'eur', usdPerUnit: 1.09, ts: T0 + 10 * HOUR, source: 'open-er-api' });
    expect(s.fxNow('eur', T0 + 11 * HOUR)).toBe(1.09);
    // The JSON API's rate is past its 36 h; the older ECB rate is still inside its 132 h: it is used.
    expect(s.fxNow('eur', T0 + 50 * HOUR)).toBe(1.08);
    // Both past their windows: no rate, not the last one carried on.
    expect(s.fxNow('eur', T0 + 133 * HOUR)).toBeNull();
    expect(s.fxNow('jpy', T0)).toBeNull();
  });

  it('a source without its own window gets the default (5.5 days)', () => {
    const s = state();
    s.applyFx({ currency: 'gbp', usdPerUnit: 1.27, ts: T0, source: 'replay:june' });
    expect(s.fxNow('gbp', T0 + DEFAULT_FX_MAX_AGE_MS)).toBe(1.27);
    expect(s.fxNow('gbp', T0 + DEFAULT_FX_MAX_AGE_MS + 1)).toBeNull();
  });

  it("history uses a day's rate only within its window: a gap in the rates is a gap in the chart", () => {
    const s = state();
    s.applyFx({ currency: 'eur', usdPerUnit: 1.08, ts: T0, source: 'open-er-api' });
    s.applyFx({ currency: 'eur', usdPerUnit: 1.1, ts: T0 + 96 * HOUR, source: 'open-er-api' });
    expect(s.fxAt('eur', T0 - 14 * HOUR)).toBeNull(); // the day before the first rate
    expect(s.fxAt('eur', T0 - HOUR)).toBe(1.08); // a day's rate holds for the whole UTC day
    expect(s.fxAt('eur', T0 + 20 * HOUR)).toBe(1.08);
    expect(s.fxAt('eur', T0 + 36 * HOUR)).toBe(1.08);
    expect(s.fxAt('eur', T0 + 37 * HOUR)).toBeNull(); // the source said nothing for two days
    expect(s.fxAt('eur', T0 + 97 * HOUR)).toBe(1.1);
  });
});
