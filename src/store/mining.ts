/**
 * `mining_figures` (migration 009): observations of coins' proof-of-work network figures with their source and time.
 * Writes are idempotent (an observation already stored, by coin, source and time, is kept as it is); reads take the
 * newest observation of each coin, for many coins in one statement.
 */
import type { MiningRecord } from '../ingest/types.ts';
import type { Queryable } from './db.ts';
import { arrayParams } from './sql.ts';

/** Stores observations; one already stored (same coin, source and time) is left unchanged. Returns rows added. */
export async function saveMiningFigures(q: Queryable, figures: readonly MiningRecord[]): Promise<number> {
  if (figures.length === 0) return 0;
  const cols = arrayParams(figures, [
    (f) => f.asset,
    (f) => f.source,
    (f) => f.observedAt,
    (f) => f.algorithm,
    (f) => f.difficulty,
    (f) => f.blockReward,
    (f) => f.blockTimeSeconds,
    (f) => f.height,
    (f) => f.networkHashps,
    (f) => f.tipTime,
  ]);
  const r = await q.query<{ asset: string }>(
    `INSERT INTO mining_figures (asset, source, observed_at, algorithm, difficulty, block_reward, block_time_seconds,
       height, network_hashps, tip_time)
     SELECT * FROM unnest($1::text[], $2::text[], $3::int8[], $4::text[], $5::float8[], $6::float8[], $7::float8[],
       $8::int8[], $9::float8[], $10::int8[])
     ON CONFLICT (asset, source, observed_at) DO NOTHING
     RETURNING asset`,
    cols,
  );
  return r.rows.length;
}

interface MiningRow {
  asset: string;
  source: string;
  observed_at: number | string;
  algorithm: string;
  difficulty: number | null;
  block_reward: number | null;
  block_time_seconds: number | null;
  height: number | string | null;
  network_hashps: number | null;
  tip_time: number | string | null;
}

/** The newest observation of each of `assets` (by time; any source), in one read. Coins without one are absent. */
export async function readLatestMining(
  q: Queryable,
  assets: readonly string[],
): Promise<Map<string, MiningRecord>> {
  const out = new Map<string, MiningRecord>();
  if (assets.length === 0) return out;
  const r = await q.query<MiningRow>(
    `SELECT DISTINCT ON (asset) asset, source, observed_at, algorithm, difficulty, block_reward, block_time_seconds,
       height, network_hashps, tip_time
     FROM mining_figures WHERE asset = ANY($1::text[]) ORDER BY asset, observed_at DESC, source`,
    [[...new Set(assets)]],
  );
  for (const row of r.rows)
    out.set(row.asset, {
      asset: row.asset,
      source: row.source,
      observedAt: Number(row.observed_at),
      algorithm: row.algorithm,
      difficulty: row.difficulty,
      blockReward: row.block_reward,
      blockTimeSeconds: row.block_time_seconds,
      height: row.height === null ? null : Number(row.height),
      networkHashps: row.network_hashps,
      tipTime: row.tip_time === null ? null : Number(row.tip_time),
    });
  return out;
}
