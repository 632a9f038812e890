/**
 * `Coin.mining`: a coin's proof-of-work network figures (src/market/mining.ts), read through the request's `mining`
 * loader, so the coins of one request cost one SQL read (`readMining`) whatever their number. A coin without an
 * observation (not mined, or no source), or whose newest one is older than a day, is null.
 */
import DataLoader from 'dataloader';
import type { MiningFigures } from '../../src/market/mining.ts';
import { miningAge, networkHashrate } from '../../src/market/mining.ts';
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

/**
 * The graph's `MiningInfo` of stored figures at `now`: the figures as observed, the network hashrate (reported or
 * implied), and whether they are stale; null once they are too old to serve (`miningAge`, rules from the engine).
 */
export function miningInfo(
  f: MiningFigures,
  now: number,
  rules: { staleAfterMs?: number | undefined; maxAgeMs?: number | undefined } = {},
): MiningInfo | null {
  const age = miningAge(f, now, rules);
  if (age === 'expired') return null;
  return {
    algorithm: f.algorithm,
    difficulty: f.difficulty,
    blockReward: f.blockReward,
    blockTimeSeconds: f.blockTimeSeconds,
    networkHashrate: networkHashrate(f),
    height: f.height,
    tipTime: f.tipTime,
    source: f.source,
    observedAt: f.observedAt,
    stale: age === 'stale',
  };
}

/** The `Coin.mining` resolver. */
export async function coinMining(
  m: AssetMarket,
  _args: unknown,
  ctx: MarketsContext,
): Promise<MiningInfo | null> {
  const f = await ctx.loaders.mining.load(m.id);
  return (
    f &&
    miningInfo(f, ctx.now, {
      staleAfterMs: ctx.engine.miningStaleAfterMs,
      maxAgeMs: ctx.engine.miningMaxAgeMs,
    })
  );
}
