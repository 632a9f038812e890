import type { Queryable } from '../store/db.ts';
import { cachedRead, changed } from '../store/read-cache.ts';

/**
 * The SQL of `primary_names` (migration 011): which name an address's holder chose as its primary for a coin. The
 * rules (proof, forward verification, privacy) live in `primary.ts`. Writes call `changed(q, 'names')`, so reverse
 * lookups share the names domain of the read cache (`src/store/read-cache.ts`) with resolutions.
 */

/** A reverse record with what forward verification needs: the name's privacy and its address for the coin now. */
export interface PrimaryRow {
  label: string;
  updatedAt: number;
  private: boolean;
  /** The address the name resolves to for the coin now; null when none is linked. */
  linked: string | null;
}

/** Makes `label` the primary name of (asset, address); returns the label it replaced, if any. */
export async function upsertPrimary(
  q: Queryable,
  asset: string,
  address: string,
  label: string,
  at: number,
): Promise<string | null> {
  const old = await q.query<{ label: string }>(
    'SELECT label FROM primary_names WHERE asset = $1 AND address = $2 FOR UPDATE',
    [asset, address],
  );
  await q.query(
    `INSERT INTO primary_names (asset, address, label, updated_at) VALUES ($1, $2, $3, $4)
     ON CONFLICT (asset, address) DO UPDATE SET label = EXCLUDED.label, updated_at = EXCLUDED.updated_at`,
    [asset, address, label, at],
  );
  changed(q, 'names');
  return old.rows[0]?.label ?? null;
}

/**
 * Deletes the primaries `label` holds: of every coin, or of one coin (`asset`), optionally keeping the one of
 * address `keep` (a relink to the same address keeps it). Returns the (asset, address) pairs deleted.
 */
export async function deletePrimaries(
  q: Queryable,
  label: string,
  asset?: string,
  keep?: string,
): Promise<{ asset: string; address: string }[]> {
  const r = await q.query<{ asset: string; address: string }>(
    `DELETE FROM primary_names
     WHERE label = $1 AND ($2::text IS NULL OR asset = $2) AND ($3::text IS NULL OR address <> $3)
     RETURNING asset, address`,
    [label, asset ?? null, keep ?? null],
  );
  changed(q, 'names');
  return r.rows;
}

/**
 * The reverse records of several (asset, address) pairs, in their order (null where there is none), with each
 * name's privacy and current address for the coin: one SQL read for the pairs the read cache does not hold.
 */
export async function selectPrimaries(
  q: Queryable,
  pairs: readonly { asset: string; address: string }[],
): Promise<(PrimaryRow | null)[]> {
  const misses: { asset: string; address: string }[] = [];
  let batch: Promise<Map<string, PrimaryRow>> | undefined;
  const read = (): Promise<Map<string, PrimaryRow>> =>
    (batch ??= Promise.resolve().then(async () => {
      const r = await q.query<{
        asset: string;
        address: string;
        label: string;
        updated_at: number;
        private: boolean;
        linked: string | null;
      }>(
        `SELECT p.asset, p.address, p.label, p.updated_at, n.private, a.address AS linked
         FROM unnest($1::text[], $2::text[]) AS k(asset, address)
         JOIN primary_names p ON p.asset = k.asset AND p.address = k.address
         JOIN names n ON n.label = p.label
         LEFT JOIN name_addresses a ON a.label = p.label AND a.asset = p.asset`,
        [misses.map((m) => m.asset), misses.map((m) => m.address)],
      );
      const out = new Map<string, PrimaryRow>();
      for (const row of r.rows)
        out.set(`${row.asset}\0${row.address}`, {
          label: row.label,
          updatedAt: Number(row.updated_at),
          private: row.private,
          linked: row.linked,
        });
      return out;
    }));
  return Promise.all(
    pairs.map((p) => {
      const key = `${p.asset}\0${p.address}`;
      return cachedRead(q, 'names', `primary\0${key}`, async () => {
        misses.push(p);
        return (await read()).get(key) ?? null;
      });
    }),
  );
}
