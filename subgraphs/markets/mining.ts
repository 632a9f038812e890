/**
 * `Coin.mining`: a coin's proof-of-work network figures (src/market/mining.ts), read through the request's `mining`
 * loader, so the coins of one request cost one SQL read (`readMining`) whatever their number. A coin without an
 * observation (not mined, or no source) is null.
 */
import DataLoader from 'dataloader';
import type { MiningFigures } from '../../src/market/mining.ts';
import { networkHashrate } from '../../src/market/mining.ts';
import type { AssetMarket } from '../../src/engine/types.ts';
import type { MarketsContext, MarketsStore } from './context.ts';
import type { MiningInfo } from './generated/resolvers-types.ts';

/** Coin id → its newest mining figures (null when none): one `store.readMining` per batch; none without it. */
export function miningLoader(
  store: MarketsStore,
  onBatch: (keys: readonly string[]) => void,
): DataLoader<string, MiningFigures | null> {
  return new DataLoader<string, MiningFigures | null>(async (ids) => {
    onBatch(ids);
    const byId = store.readMining ? await store.readMining(ids) : new Map<string, MiningFigures>();
    return ids.map((id) => byId.get(id) ?? null);
  });
}

/** The graph's `MiningInfo` of stored figures: the figures as observed, plus the network hashrate they imply. */
export function miningInfo(f: MiningFigures): MiningInfo {
  return {
    algorithm: f.algorithm,
    difficulty: f.difficulty,
    blockReward: f.blockReward,
    blockTimeSeconds: f.blockTimeSeconds,
    networkHashrate: networkHashrate(f),
    source: f.source,
    observedAt: f.observedAt,
  };
}

/** The `Coin.mining` resolver. */
export async function coinMining(
  m: AssetMarket,
  _args: unknown,
  ctx: MarketsContext,
): Promise<MiningInfo | null> {
  const f = await ctx.loaders.mining.load(m.id);
  return f && miningInfo(f);
}
