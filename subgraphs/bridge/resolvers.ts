/**
 * Resolvers of the bridge subgraph, typed with the generated `Resolvers` (parents are the domain's `Deployment`,
 * `BridgeAsset`, `Lane`, `Chain`, `StoredSnapshot`, `ReserveReport`, …). The figures come from the REST API's own
 * functions and rules (`src/bridge/present.ts`, `report.ts`): `configBody` for the config, `oldestObservation` for the age of a
 * snapshot's figures, the stored snapshot's signature and canonical text for the attestation. So the graph and
 * `/api/coins`, `/api/config`, `/api/proof-of-reserves` agree figure for figure, and the graph's proof verifies
 * over the same bytes as the REST one.
 *
 * The report's fields are GraphQL's view of the signed report (enums UPPER_CASE, times as `DateTime`, an added
 * `coin` reference), so `Attestation.canonical` carries the exact signed text: clients verify over those bytes.
 */
import { DateTime } from '../shared/scalars.ts';
import { ATTESTATION_ALGORITHM } from '../../src/bridge/attestation.ts';
import { chainById } from '../../src/bridge/deployment.ts';
import { oldestObservation } from '../../src/bridge/report.ts';
import type { StoredSnapshot } from '../../src/bridge/snapshots.ts';
import { configBody } from '../../src/bridge/present.ts';
import type { BridgeContext } from './context.ts';
import type { Coin, Resolvers } from './generated/resolvers-types.ts';

/** A `Coin` reference (resolved by the markets subgraph) for a bridge ticker; null when markets does not track it. */
async function coinRef(ticker: string, ctx: BridgeContext): Promise<Coin | null> {
  const id = await ctx.loaders.coinIdByTicker.load(ticker);
  return id === null ? null : { id };
}

/**
 * Age (ms) of a snapshot's figures at the request's clock, as REST computes it: from the earliest observation
 * (reserve balance or wrapped supply) or the signing time if earlier. A fresh signature over old data is still old.
 */
const dataAsOf = (s: StoredSnapshot): number => Math.min(s.createdAt, oldestObservation(s.report));

function figuresAgeMs(s: StoredSnapshot, ctx: BridgeContext): number {
  return Math.max(0, ctx.now - dataAsOf(s));
}

const staleAfterSeconds = (ctx: BridgeContext): number => Math.round(ctx.staleAfterMs / 1000);

export const resolvers: Resolvers<BridgeContext> = {
  DateTime,
  BridgeNetwork: { TESTNET: 'testnet', MAINNET: 'mainnet' },
  ChainKind: { UTXO: 'utxo', SOLANA: 'solana' },
  LaneDirection: { WRAP: 'wrap', UNWRAP: 'unwrap' },
  LaneStatus: { ACTIVE: 'active', PAUSED: 'paused' },
  ReportSource: { RECORDED: 'recorded', LIVE: 'live' },
  Query: {
    bridge: (_root, _args, ctx) => ctx.deployment,
  },
  BridgeDeployment: {
    coins: (d) => d.assets,
    config: (d, _args, ctx) => {
      // REST's `/api/config` body. A pinned key is the deployment's; a from-secret key is whichever signed the
      // latest snapshot, read only when asked (`AttestationKey.publicKey`).
      const body = configBody(d, { publicKey: d.attestation.publicKey, staleAfterMs: ctx.staleAfterMs });
      return {
        attestation: body.attestation,
        staleAfterSeconds: body.proofOfReserves.staleAfterSeconds,
        ratioDecimals: body.proofOfReserves.ratioDecimals,
      };
    },
    // Null before the first snapshot (REST's 404 NO_SNAPSHOT): absent is not an error (docs/graph.md).
    proofOfReserves: (d, _args, ctx) => ctx.loaders.latestSnapshot.load(d.network),
  },
  BridgeChain: {
    ticker: (c) => (c.kind === 'utxo' ? c.ticker : null),
    cluster: (c) => (c.kind === 'solana' ? c.cluster : null),
    bridgeProgram: (c) => (c.kind === 'solana' ? c.bridgeProgram : null),
  },
  BridgeCoin: {
    coin: (a, _args, ctx) => coinRef(a.ticker, ctx),
    nativeChain: (a, _args, ctx) => chainById(ctx.deployment, a.nativeChain),
    wrapped: (a, _args, ctx) => ({
      ticker: a.wrapped.ticker,
      name: a.wrapped.name,
      decimals: a.wrapped.decimals,
      mint: a.wrapped.mint,
      chain: chainById(ctx.deployment, a.wrapped.chain),
    }),
    // As `/api/coins`: a coin is paused when all its lanes are.
    paused: (a, _args, ctx) =>
      ctx.deployment.lanes.filter((l) => l.asset === a.ticker).every((l) => l.status === 'paused'),
    lanes: (a, _args, ctx) => ctx.deployment.lanes.filter((l) => l.asset === a.ticker),
  },
  AttestationKey: {
    publicKey: async (k, _args, ctx) =>
      k.pinned
        ? (k.publicKey ?? null)
        : ((await ctx.loaders.latestSnapshot.load(ctx.deployment.network))?.publicKey ?? null),
  },
  ProofOfReserves: {
    snapshotId: (s) => s.id,
    stale: (s, _args, ctx) => figuresAgeMs(s, ctx) > ctx.staleAfterMs,
    ageSeconds: (s, _args, ctx) => Math.floor(figuresAgeMs(s, ctx) / 1000),
    staleAfterSeconds: (_s, _args, ctx) => staleAfterSeconds(ctx),
    dataAsOf: (s) => dataAsOf(s),
    report: (s) => s.report,
    attestation: (s) => ({
      algorithm: ATTESTATION_ALGORITHM,
      publicKey: s.publicKey,
      signature: s.signature,
      canonical: s.canonical,
    }),
  },
  AssetReserves: {
    coin: (a, _args, ctx) => coinRef(a.ticker, ctx),
  },
};
