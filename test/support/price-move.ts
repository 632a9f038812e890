/**
 * Moves a coin's aggregate price in a test market: every venue's latest ticker of the coin again, at `factor` times
 * its last price and timed at the market's clock, as one source snapshot ingested then (a new engine tick). Advance
 * the market's clock between two moves: a venue keeps a ticker only when it is newer than the one it has.
 */
import type { MarketService } from '../../src/market/service.ts';
import type { Ticker } from '../../src/ingest/types.ts';

export async function movePrice(market: MarketService, coin: string, factor: number): Promise<void> {
  const now = market.now();
  const ts = now;
  const tickers: Ticker[] = [];
  for (const t of market.state.tickers.values())
    if (t.base === coin) tickers.push({ ...t, last: t.last * factor, bid: null, ask: null, ts });
  if (tickers.length === 0) throw new Error(`the test market has no ticker of ${coin}`);
  await market.ingest([
    { source: 'test:move', snapshot: { source: 'test:move', ts, tickers }, error: null, ms: 1 },
  ]);
}
