import { describe, expect, it } from 'vitest';
import type { AssetInfo, CurrencyInfo } from '../../src/catalog/types.ts';
import type { SourceSnapshot, Ticker } from '../../src/ingest/types.ts';
import { createDemoSource } from '../../src/demo/live.ts';
import { generateRecording } from '../../src/demo/recording.ts';

const END = Date.UTC(2026, 10, 21, 7, 40);
const asset = (id: string): AssetInfo => ({
  id,
  symbol: id.slice(0, 4),
  name: id,
  hashingAlgorithm: null,
  blockTimeMinutes: null,
  genesisDate: null,
  homepage: null,
});
const ASSETS = ['bitcoin', 'ethereum', 'tether', 'litecoin', 'dogecoin', 'pepecoin', 'catcoin'].map(asset);
const CURRENCIES: CurrencyInfo[] = [
  { code: 'usd', name: 'US Dollar', kind: 'fiat' },
  { code: 'eur', name: 'Euro', kind: 'fiat' },
];
const base = { seed: 11, assets: ASSETS, currencies: CURRENCIES };
const market = (t: Ticker): string => `${t.venue}|${t.base}|${t.quote}`;

async function pollAt(t: number): Promise<SourceSnapshot> {
  const src = createDemoSource({ ...base, now: () => t });
  const snap = await src.poll(new AbortController().signal);
  if (!snap) throw new Error('live demo source returned null');
  return snap;
}

describe('live demo source', () => {
  it('is a never-ending replay source with id demo:live', async () => {
    const src = createDemoSource(base);
    expect(src).toMatchObject({ id: 'demo:live', kind: 'replay' });
    const snap = await src.poll(new AbortController().signal);
    expect(snap?.tickers.length).toBeGreaterThan(0);
  });

  it('returns exactly the recorded snapshot at the recording end', async () => {
    const recorded = [...generateRecording({ ...base, end: END, days: 1 })].at(-1) as SourceSnapshot;
    expect(await pollAt(END)).toEqual(recorded);
  });

  it('continues the recorded paths smoothly and always carries supply and fx', async () => {
    const recorded = [...generateRecording({ ...base, end: END, days: 1 })].at(-1) as SourceSnapshot;
    const before = new Map((recorded.tickers as Ticker[]).map((t) => [market(t), t]));
    const live = await pollAt(END + 5 * 60_000 + 1234);
    expect(live.supply?.length).toBeGreaterThan(0);
    expect(live.fx?.length).toBe(2);
    expect(live.tickers).toHaveLength(before.size);
    for (const t of live.tickers as Ticker[]) {
      const prev = before.get(market(t));
      expect(prev).toBeDefined();
      // Five minutes later: a small move, unless the outlier venue just entered or left an episode.
      const r = t.last / (prev as Ticker).last;
      if (t.venue !== 'demo-cex-echo') expect(Math.abs(r - 1)).toBeLessThan(0.03);
      expect(t.ts).toBeGreaterThan((prev as Ticker).ts - 60 * 60_000);
    }
  });

  it('rejects a poll whose signal is already aborted', async () => {
    const ctl = new AbortController();
    ctl.abort(new Error('cut off'));
    await expect(createDemoSource(base).poll(ctl.signal)).rejects.toThrow('cut off');
  });
});
