/**
 * Proof-of-reserves snapshots: taken from a chain-data adapter, signed, and kept in `bridge_snapshots`
 * (migration 007). The API serves the latest one; nothing here moves funds.
 */
import type { Db, Queryable } from '../store/db.ts';
import { cachedRead, changed } from '../store/read-cache.ts';
import { AttestationKeyError, resolveAttestationKey, signReport, verifyReport } from './attestation.ts';
import type { AttestationKey, KeySource } from './attestation.ts';
import { canonicalJson } from './canonical.ts';
import { RecordedChainData } from './chain-data.ts';
import type { ChainDataAdapter } from './chain-data.ts';
import type { Deployment } from './model.ts';
import { buildReport } from './report.ts';
import type { ReserveReport } from './report.ts';

export interface StoredSnapshot {
  id: number;
  network: string;
  report: ReserveReport;
  /** The exact canonical JSON that was signed. */
  canonical: string;
  signature: string;
  publicKey: string;
  createdAt: number;
}

interface Row {
  id: number;
  network: string;
  report: string;
  signature: string;
  public_key: string;
  created_at: number;
}

/**
 * The latest snapshot of `deployment`'s network, or null. When the deployment pins its attestation key, only
 * snapshots signed by that key count (one signed by a replaced key is never served). From memory on the embedded
 * store until a snapshot is taken (`src/store/read-cache.ts`); the value is shared, not to be mutated.
 */
export function latestSnapshot(db: Queryable, deployment: Deployment): Promise<StoredSnapshot | null> {
  const pinned = deployment.attestation.publicKey;
  return cachedRead(db, 'bridge_snapshots', `${deployment.network}\0${pinned ?? ''}`, async () => {
    const { rows } = await db.query<Row>(
      `SELECT id, network, report, signature, public_key, created_at FROM bridge_snapshots
       WHERE network = $1 AND ($2::text IS NULL OR public_key = $2)
       ORDER BY created_at DESC, id DESC LIMIT 1`,
      [deployment.network, pinned],
    );
    const r = rows[0];
    if (!r) return null;
    return {
      id: Number(r.id),
      network: r.network,
      report: JSON.parse(r.report) as ReserveReport,
      canonical: r.report,
      signature: r.signature,
      publicKey: r.public_key,
      createdAt: Number(r.created_at),
    };
  });
}

/** Builds the report from `chain`, signs it with `key`, checks the signature and stores it. */
export async function takeSnapshot(
  db: Queryable,
  deployment: Deployment,
  chain: ChainDataAdapter,
  key: AttestationKey,
  now: number,
): Promise<StoredSnapshot> {
  const report = await buildReport(deployment, chain, { now, signer: key.publicKey });
  const canonical = canonicalJson(report);
  const signature = signReport(report, key);
  if (!verifyReport(JSON.parse(canonical), signature, key.publicKey)) {
    throw new Error('the report does not verify after a JSON round trip: refusing to store it');
  }
  const { rows } = await db.query<{ id: number }>(
    `INSERT INTO bridge_snapshots (network, report, signature, public_key, source, created_at)
     VALUES ($1, $2, $3, $4, $5, $6) RETURNING id`,
    [deployment.network, canonical, signature, key.publicKey, report.source, now],
  );
  changed(db, 'bridge_snapshots');
  return {
    id: Number(rows[0]?.id),
    network: deployment.network,
    report,
    canonical,
    signature,
    publicKey: key.publicKey,
    createdAt: now,
  };
}

export type DemoSnapshotResult =
  { status: 'exists' | 'created'; snapshot: StoredSnapshot } | { status: 'skipped'; reason: string };

/**
 * At server start: when the network has no snapshot yet, takes one from the recorded chain data so
 * `/api/proof-of-reserves` answers out of the box (the report says `source: "recorded"`). When no usable key is at
 * hand (a pinned deployment without `BRIDGE_ATTESTATION_KEY`) it skips and says why, instead of failing start-up.
 */
export async function ensureDemoSnapshot(
  db: Db,
  deployment: Deployment,
  dataDir: string,
  now: number = Date.now(),
  opts: {
    seedHex?: string | undefined;
    scaleOut?: boolean | undefined;
    recordedDir?: string | undefined;
  } = {},
): Promise<DemoSnapshotResult> {
  const existing = await latestSnapshot(db, deployment);
  if (existing) return { status: 'exists', snapshot: existing };
  let key: AttestationKey;
  try {
    const src: KeySource = { dataDir, seedHex: opts.seedHex, scaleOut: opts.scaleOut };
    key = resolveAttestationKey(deployment, src);
  } catch (err) {
    if (err instanceof AttestationKeyError) return { status: 'skipped', reason: err.message };
    throw err;
  }
  const chain = RecordedChainData.load(deployment.network, opts.recordedDir);
  return { status: 'created', snapshot: await takeSnapshot(db, deployment, chain, key, now) };
}
