/** Response bodies of `/api/coins` and `/api/config`: pure functions of the deployment (see docs/bridge.md). */
import { ATTESTATION_ALGORITHM } from './attestation.ts';
import { chainById } from './deployment.ts';
import type { Deployment, Lane } from './model.ts';
import { RATIO_PLACES, REPORT_SCHEMA } from './report.ts';

function laneTerms(l: Lane) {
  return {
    id: l.id,
    direction: l.direction,
    from: l.from,
    to: l.to,
    status: l.status,
    paused: l.status === 'paused',
    pausedReason: l.pausedReason,
    confirmations: l.confirmations,
    minAmount: l.minAmount,
    maxAmount: l.maxAmount,
    fees: { fixed: l.fees.fixed, percent: l.fees.percent },
  };
}

/** `GET /api/coins`: each coin with its wrapped token and the terms of its lanes. Amounts in base units. */
export function coinsBody(d: Deployment) {
  return {
    network: d.network,
    version: d.version,
    coins: d.assets.map((a) => {
      const lanes = d.lanes.filter((l) => l.asset === a.ticker);
      const native = chainById(d, a.nativeChain);
      const wchain = chainById(d, a.wrapped.chain);
      return {
        ticker: a.ticker,
        name: a.name,
        decimals: a.decimals,
        nativeChain: { id: native.id, name: native.name },
        wrapped: {
          ticker: a.wrapped.ticker,
          name: a.wrapped.name,
          decimals: a.wrapped.decimals,
          chain: { id: wchain.id, name: wchain.name },
          mint: a.wrapped.mint,
        },
        paused: lanes.every((l) => l.status === 'paused'),
        lanes: lanes.map(laneTerms),
      };
    }),
  };
}

/** `GET /api/config`: the whole deployment, with the key that attests reserves (null until one is known). */
export function configBody(d: Deployment, o: { publicKey: string | null; staleAfterMs: number }) {
  return {
    network: d.network,
    version: d.version,
    label: d.label,
    chains: d.chains,
    assets: d.assets.map((a) => ({
      ticker: a.ticker,
      name: a.name,
      decimals: a.decimals,
      nativeChain: a.nativeChain,
      wrapped: a.wrapped,
      reserveAddresses: a.reserveAddresses,
    })),
    lanes: d.lanes.map((l) => ({ ...laneTerms(l), asset: l.asset, depositAddress: l.depositAddress })),
    attestation: {
      algorithm: ATTESTATION_ALGORITHM,
      publicKey: o.publicKey,
      pinned: d.attestation.publicKey !== null,
      schema: REPORT_SCHEMA,
    },
    proofOfReserves: {
      path: '/api/proof-of-reserves',
      staleAfterSeconds: Math.round(o.staleAfterMs / 1000),
      ratioDecimals: RATIO_PLACES,
    },
  };
}
