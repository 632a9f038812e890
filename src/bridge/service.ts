/**
 * The bridge's read side as one service: the active deployment's coins and configuration, its latest proof of
 * reserves and the rule that says when that proof is stale. Built once per process (`src/services.ts`) and called by
 * both transports, the REST bridge API (`src/rest/bridge/`) and the bridge subgraph, so that neither reads the store
 * and both answer figure for figure alike (docs/bridge.md).
 */
import type { Queryable } from '../store/db.ts';
import { ATTESTATION_ALGORITHM } from './attestation.ts';
import type { AttestationKey } from './attestation.ts';
import type { ChainDataAdapter } from './chain-data.ts';
import { bridgeErrors } from './errors.ts';
import type { Deployment } from './model.ts';
import { coinsBody, configBody } from './present.ts';
import { oldestObservation } from './report.ts';
import type { ReserveReport } from './report.ts';
import { latestSnapshot, takeSnapshot } from './snapshots.ts';
import type { StoredSnapshot } from './snapshots.ts';

/** Default age after which a snapshot is reported `stale: true`: one hour (`BRIDGE_STALE_AFTER_MS`). */
export const DEFAULT_STALE_AFTER_MS = 3_600_000;

export interface BridgeServiceOptions {
  /** The active deployment (`loadDeployment(BRIDGE_NETWORK)`). */
  deployment: Deployment;
  /** A snapshot whose figures are older than this (ms) is served with `stale: true`; default 1 hour. */
  staleAfterMs?: number | undefined;
  /** Clock in ms; default `Date.now`. */
  now?: (() => number) | undefined;
}

/** How old a snapshot's figures are at a given time, and whether that is too old. */
export interface Freshness {
  /** The earliest observation the report rests on, or its signing time if earlier (UNIX ms). */
  dataAsOf: number;
  /** Age of the figures (ms), never negative. */
  ageMs: number;
  stale: boolean;
}

/**
 * The staleness rule: a snapshot is as old as its oldest figure (a reserve balance or the wrapped supply), or its
 * signing time if that is earlier. A fresh signature over old chain data is still stale.
 */
export function freshness(
  s: Pick<StoredSnapshot, 'createdAt' | 'report'>,
  now: number,
  staleAfterMs: number,
): Freshness {
  const dataAsOf = Math.min(s.createdAt, oldestObservation(s.report));
  const ageMs = Math.max(0, now - dataAsOf);
  return { dataAsOf, ageMs, stale: ageMs > staleAfterMs };
}

/** `GET /api/proof-of-reserves`: the latest snapshot, its age and its attestation. */
export interface ProofOfReservesBody {
  network: string;
  snapshotId: number;
  stale: boolean;
  ageSeconds: number;
  dataAsOf: string;
  staleAfterSeconds: number;
  report: ReserveReport;
  attestation: { algorithm: typeof ATTESTATION_ALGORITHM; publicKey: string; signature: string };
}

export class BridgeService {
  readonly deployment: Deployment;
  readonly staleAfterMs: number;
  /** The clock every age is measured by (UNIX ms). */
  readonly now: () => number;
  private readonly coinsView: ReturnType<typeof coinsBody>;

  constructor(
    private readonly db: Queryable,
    opts: BridgeServiceOptions,
  ) {
    this.deployment = opts.deployment;
    this.staleAfterMs = opts.staleAfterMs ?? DEFAULT_STALE_AFTER_MS;
    this.now = opts.now ?? Date.now;
    this.coinsView = coinsBody(opts.deployment);
  }

  /** `GET /api/coins`: a pure function of the deployment, made once. */
  coins(): ReturnType<typeof coinsBody> {
    return this.coinsView;
  }

  /**
   * `GET /api/config`. A pinned key is the deployment's; a "from-secret" key is whichever signed the latest snapshot
   * (read only then).
   */
  async config(): Promise<ReturnType<typeof configBody>> {
    const publicKey =
      this.deployment.attestation.publicKey ?? (await this.latestSnapshot())?.publicKey ?? null;
    return this.configWith(publicKey);
  }

  /** The configuration with a known attesting key (the graph resolves a from-secret key only when it is asked). */
  configWith(publicKey: string | null): ReturnType<typeof configBody> {
    return configBody(this.deployment, { publicKey, staleAfterMs: this.staleAfterMs });
  }

  /** The latest snapshot of the active network (signed by the pinned key when there is one); null before the first. */
  latestSnapshot(): Promise<StoredSnapshot | null> {
    return latestSnapshot(this.db, this.deployment);
  }

  /**
   * The latest snapshot of each network, in order: the graph's batch. Only the active deployment is served: another
   * network is an error for that key alone.
   */
  latestSnapshots(networks: readonly string[]): Promise<Array<StoredSnapshot | null | Error>> {
    const d = this.deployment;
    return Promise.all(
      networks.map((n) =>
        n === d.network
          ? this.latestSnapshot()
          : new Error(`the bridge subgraph serves the ${d.network} deployment, not ${n}`),
      ),
    );
  }

  /**
   * Signs a report of `chain` now with `key` and stores it as the deployment's latest snapshot (`coinwallet bridge
   * snapshot`; the attester of a running process re-signs through `takeSnapshot` on its own schedule).
   */
  snapshot(chain: ChainDataAdapter, key: AttestationKey): Promise<StoredSnapshot> {
    return takeSnapshot(this.db, this.deployment, chain, key, this.now());
  }

  /** {@link freshness} by this service's threshold. */
  freshness(s: Pick<StoredSnapshot, 'createdAt' | 'report'>, now: number = this.now()): Freshness {
    return freshness(s, now, this.staleAfterMs);
  }

  /** `GET /api/proof-of-reserves`; 404 NO_SNAPSHOT before the first snapshot. */
  async proofOfReserves(): Promise<ProofOfReservesBody> {
    const snap = await this.latestSnapshot();
    if (!snap) throw bridgeErrors.noSnapshot(this.deployment.network);
    const f = this.freshness(snap);
    return {
      network: this.deployment.network,
      snapshotId: snap.id,
      stale: f.stale,
      ageSeconds: Math.floor(f.ageMs / 1000),
      dataAsOf: new Date(f.dataAsOf).toISOString(),
      staleAfterSeconds: Math.round(this.staleAfterMs / 1000),
      report: snap.report,
      attestation: { algorithm: ATTESTATION_ALGORITHM, publicKey: snap.publicKey, signature: snap.signature },
    };
  }
}
