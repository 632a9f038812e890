/**
 * The bridge read API, a Fastify plugin registered under `/api`: `/coins`, `/config` and `/proof-of-reserves` of
 * the active deployment. Read-only: deposits and withdrawals happen only through the wallet's bridge flow.
 * See docs/bridge.md.
 */
import type { FastifyInstance } from 'fastify';
import { ipLimitHook } from '../api-limits.ts';
import type { ApiLimits } from '../api-limits.ts';
import { ATTESTATION_ALGORITHM } from '../../bridge/attestation.ts';
import type { Deployment } from '../../bridge/model.ts';
import { latestSnapshot } from '../../bridge/snapshots.ts';
import type { Db } from '../../store/db.ts';
import { bridgeErrors } from '../../bridge/errors.ts';
import { sendJson } from './http.ts';
import { coinsBody, configBody } from '../../bridge/present.ts';
import { oldestObservation } from '../../bridge/report.ts';

/** Default age after which a snapshot is reported `stale: true`: one hour. */
export const DEFAULT_STALE_AFTER_MS = 3_600_000;

export interface BridgeApiOptions {
  db: Db;
  /** The active deployment (`loadDeployment(BRIDGE_NETWORK)`). */
  deployment: Deployment;
  /** Clock in ms; default `Date.now`. */
  now?: (() => number) | undefined;
  /** A snapshot older than this is served with `stale: true`; default {@link DEFAULT_STALE_AFTER_MS} (1 hour). */
  staleAfterMs?: number | undefined;
  /** The `/api` rate limits (`src/rest/api-limits.ts`); omitted → none. */
  limits?: ApiLimits | undefined;
}

/** Every route is public: counted in the client IP's `public` bucket when limits are on (`src/rest/api-limits.ts`). */
const PUBLIC = { apiLimit: 'public' } as const;

/** Cache lifetimes (seconds): lane terms change rarely; deposit addresses and pauses must not linger long. */
const MAX_AGE = { coins: 300, config: 60, reserves: 60 };

export async function bridgeApi(app: FastifyInstance, opts: BridgeApiOptions): Promise<void> {
  const { db, deployment: d } = opts;
  const now = opts.now ?? Date.now;
  const staleAfterMs = opts.staleAfterMs ?? DEFAULT_STALE_AFTER_MS;
  const coins = coinsBody(d);
  if (opts.limits) app.addHook('onRequest', ipLimitHook(opts.limits));

  app.get(
    '/coins',
    { schema: { tags: ['bridge'], summary: 'Coin metadata of the active deployment' }, config: PUBLIC },
    (req, reply) => sendJson(req, reply, coins, MAX_AGE.coins),
  );

  app.get(
    '/config',
    { schema: { tags: ['bridge'], summary: 'Configuration of the active deployment' }, config: PUBLIC },
    async (req, reply) => {
      // A pinned key is the deployment's; a "from-secret" key is whichever signed the latest snapshot.
      const publicKey = d.attestation.publicKey ?? (await latestSnapshot(db, d))?.publicKey ?? null;
      return sendJson(req, reply, configBody(d, { publicKey, staleAfterMs }), MAX_AGE.config);
    },
  );

  app.get(
    '/proof-of-reserves',
    { schema: { tags: ['bridge'], summary: 'Signed proof of reserves' }, config: PUBLIC },
    async (req, reply) => {
      const snap = await latestSnapshot(db, d);
      if (!snap) throw bridgeErrors.noSnapshot(d.network);
      // Staleness is about the figures, not the signature: the age of the oldest balance or supply in the report
      // (a fresh signature over old chain data is still stale).
      const asOf = Math.min(snap.createdAt, oldestObservation(snap.report));
      const ageMs = Math.max(0, now() - asOf);
      return sendJson(
        req,
        reply,
        {
          network: d.network,
          snapshotId: snap.id,
          stale: ageMs > staleAfterMs,
          ageSeconds: Math.floor(ageMs / 1000),
          dataAsOf: new Date(asOf).toISOString(),
          staleAfterSeconds: Math.round(staleAfterMs / 1000),
          report: snap.report,
          attestation: {
            algorithm: ATTESTATION_ALGORITHM,
            publicKey: snap.publicKey,
            signature: snap.signature,
          },
        },
        MAX_AGE.reserves,
      );
    },
  );
}
