/**
 * Resolvers of the bridge subgraph, typed with the generated `Resolvers` (parents are the domain's `Deployment`,
 * `BridgeAsset`, `Lane`, `Chain`, `StoredSnapshot`, `ReserveReport`, …). The figures and rules are the bridge
 * service's (`src/bridge/service.ts`), the REST API's own: its configuration, its staleness rule (`freshness`: the age
 * of a snapshot's oldest figure), the stored snapshot's signature and canonical text for the attestation. So the graph
 * and `/api/coins`, `/api/config`, `/api/proof-of-reserves` agree figure for figure, and the graph's proof verifies
 * over the same bytes as the REST one.
 *
 * The report's fields are GraphQL's view of the signed report (enums UPPER_CASE, times as `DateTime`, an added
 * `coin` reference), so `Attestation.canonical` carries the exact signed text: clients verify over those bytes.
 */
import { DateTime } from '../shared/scalars.ts';
import { ATTESTATION_ALGORITHM } from '../../src/bridge/attestation.ts';
import { chainById } from '../../src/bridge/deployment.ts';
import type { BridgeContext } from './context.ts';
import type { Coin, Resolvers } from './generated/resolvers-types.ts';

/** A `Coin` reference (resolved by the markets subgraph) for a bridge ticker; null when markets does not track it. */
async function coinRef(ticker: string, ctx: BridgeContext): Promise<Coin | null> {
  const id = await ctx.loaders.coinIdByTicker.load(ticker);
  return id === null ? null : { id };
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
      const body = ctx.bridge.configWith(d.attestation.publicKey);
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
    // The request's clock: every age of one request is measured from the same instant.
    stale: (s, _args, ctx) => ctx.bridge.freshness(s, ctx.now).stale,
    ageSeconds: (s, _args, ctx) => Math.floor(ctx.bridge.freshness(s, ctx.now).ageMs / 1000),
    staleAfterSeconds: (_s, _args, ctx) => staleAfterSeconds(ctx),
    dataAsOf: (s, _args, ctx) => ctx.bridge.freshness(s, ctx.now).dataAsOf,
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
