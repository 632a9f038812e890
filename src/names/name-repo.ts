import type { Queryable } from '../store/db.ts';
import { cachedRead, changed } from '../store/read-cache.ts';

/**
 * The SQL of `names`, `name_addresses` and `name_challenges` (migrations 005–006). The rules live in service.ts.
 *
 * Every write to `names` or `name_addresses` calls `changed(q, 'names')`: resolutions are served from memory on the
 * embedded store until then (`src/store/read-cache.ts`).
 */

export interface NameRow {
  label: string;
  ownerAccountId: string | null;
  partnerId: string | null;
  partnerOwnerRef: string | null;
  private: boolean;
  createdAt: number;
  updatedAt: number;
}

export interface LinkedAddress {
  address: string;
  updatedAt: number;
}

interface RawName {
  label: string;
  owner_account_id: string | null;
  partner_id: string | null;
  partner_owner_ref: string | null;
  private: boolean;
  created_at: number;
  updated_at: number;
}

const COLS = 'label, owner_account_id, partner_id, partner_owner_ref, private, created_at, updated_at';

const fromRow = (r: RawName): NameRow => ({
  label: r.label,
  ownerAccountId: r.owner_account_id,
  partnerId: r.partner_id,
  partnerOwnerRef: r.partner_owner_ref,
  private: r.private,
  createdAt: Number(r.created_at),
  updatedAt: Number(r.updated_at),
});

/** The name; `forUpdate` locks its row for the rest of the transaction. */
export async function selectName(q: Queryable, label: string, forUpdate = false): Promise<NameRow | null> {
  const r = await q.query<RawName>(
    `SELECT ${COLS} FROM names WHERE label = $1${forUpdate ? ' FOR UPDATE' : ''}`,
    [label],
  );
  return r.rows[0] ? fromRow(r.rows[0]) : null;
}

/** Inserts the name unless it is taken; true when this call registered it. */
export async function insertName(q: Queryable, n: NameRow): Promise<boolean> {
  const r = await q.query(
    `INSERT INTO names (${COLS}) VALUES ($1, $2, $3, $4, $5, $6, $7) ON CONFLICT (label) DO NOTHING RETURNING label`,
    [n.label, n.ownerAccountId, n.partnerId, n.partnerOwnerRef, n.private, n.createdAt, n.updatedAt],
  );
  changed(q, 'names');
  return r.rows.length === 1;
}

export async function updatePrivacy(q: Queryable, label: string, priv: boolean, at: number): Promise<void> {
  await q.query('UPDATE names SET private = $2, updated_at = $3 WHERE label = $1', [label, priv, at]);
  changed(q, 'names');
}

export async function updateAccountHolder(
  q: Queryable,
  label: string,
  accountId: string,
  at: number,
): Promise<void> {
  await q.query('UPDATE names SET owner_account_id = $2, updated_at = $3 WHERE label = $1', [
    label,
    accountId,
    at,
  ]);
  changed(q, 'names');
}

export async function selectNamesOfAccount(q: Queryable, accountId: string): Promise<NameRow[]> {
  const r = await q.query<RawName>(`SELECT ${COLS} FROM names WHERE owner_account_id = $1 ORDER BY label`, [
    accountId,
  ]);
  return r.rows.map(fromRow);
}

/**
 * The names of several accounts in one read (the identity subgraph's batched `Account.names`): account id → its
 * names by label, an empty list for an account holding none. Every id must be a uuid (the column's type).
 */
export async function selectNamesOfAccounts(
  q: Queryable,
  accountIds: readonly string[],
): Promise<Map<string, NameRow[]>> {
  const out = new Map<string, NameRow[]>(accountIds.map((id) => [id, []]));
  if (accountIds.length === 0) return out;
  const r = await q.query<RawName>(
    `SELECT ${COLS} FROM names WHERE owner_account_id = ANY($1::uuid[]) ORDER BY owner_account_id, label`,
    [[...new Set(accountIds)]],
  );
  for (const row of r.rows)
    if (row.owner_account_id !== null) out.get(row.owner_account_id)?.push(fromRow(row));
  return out;
}

/** Linked addresses of some names: label → asset → address. */
export async function selectAddresses(
  q: Queryable,
  labels: readonly string[],
): Promise<Map<string, Record<string, LinkedAddress>>> {
  const out = new Map<string, Record<string, LinkedAddress>>(labels.map((l) => [l, {}]));
  if (labels.length === 0) return out;
  const r = await q.query<{ label: string; asset: string; address: string; updated_at: number }>(
    'SELECT label, asset, address, updated_at FROM name_addresses WHERE label = ANY($1) ORDER BY label, asset',
    [labels],
  );
  for (const row of r.rows) {
    const m = out.get(row.label);
    if (m) m[row.asset] = { address: row.address, updatedAt: Number(row.updated_at) };
  }
  return out;
}

/**
 * The name's privacy and its address for one coin (null when unlinked); null when the name does not exist. From
 * memory on the embedded store while no name was written since (resolutions are most of the identity traffic).
 */
export function selectResolution(
  q: Queryable,
  label: string,
  asset: string,
): Promise<{ private: boolean; link: LinkedAddress | null } | null> {
  return cachedRead(q, 'names', `${label}\0${asset}`, async () => {
    const r = await q.query<{ private: boolean; address: string | null; updated_at: number | null }>(
      `SELECT n.private, a.address, a.updated_at FROM names n
       LEFT JOIN name_addresses a ON a.label = n.label AND a.asset = $2
       WHERE n.label = $1`,
      [label, asset],
    );
    const row = r.rows[0];
    if (!row) return null;
    return {
      private: row.private,
      link: row.address === null ? null : { address: row.address, updatedAt: Number(row.updated_at) },
    };
  });
}

/** What {@link selectResolution} answers for one (label, asset). */
export type ResolutionRow = { private: boolean; link: LinkedAddress | null } | null;

/**
 * {@link selectResolution} for many (label, asset) pairs at once, in their order: the pairs the read cache holds are
 * answered from memory, all the others by one SQL read (`unnest` of the pairs joined to `names` and
 * `name_addresses`), whatever their number.
 */
export async function selectResolutions(
  q: Queryable,
  pairs: readonly { label: string; asset: string }[],
): Promise<ResolutionRow[]> {
  const misses: { label: string; asset: string }[] = [];
  let batch: Promise<Map<string, ResolutionRow>> | undefined;
  // Every miss of this call is recorded before the one read runs (it starts a microtask later).
  const read = (): Promise<Map<string, ResolutionRow>> =>
    (batch ??= Promise.resolve().then(async () => {
      const r = await q.query<{
        label: string;
        asset: string;
        private: boolean;
        address: string | null;
        updated_at: number | null;
      }>(
        `SELECT n.label, k.asset, n.private, a.address, a.updated_at
         FROM unnest($1::text[], $2::text[]) AS k(label, asset)
         JOIN names n ON n.label = k.label
         LEFT JOIN name_addresses a ON a.label = k.label AND a.asset = k.asset`,
        [misses.map((m) => m.label), misses.map((m) => m.asset)],
      );
      const out = new Map<string, ResolutionRow>();
      for (const row of r.rows)
        out.set(`${row.label}\0${row.asset}`, {
          private: row.private,
          link: row.address === null ? null : { address: row.address, updatedAt: Number(row.updated_at) },
        });
      return out;
    }));
  return Promise.all(
    pairs.map((p) => {
      const key = `${p.label}\0${p.asset}`;
      return cachedRead(q, 'names', key, async () => {
        misses.push(p);
        return (await read()).get(key) ?? null;
      });
    }),
  );
}

/** Links (or replaces) the address of one coin; returns the address it replaced, if any. */
export async function upsertAddress(
  q: Queryable,
  label: string,
  asset: string,
  address: string,
  at: number,
): Promise<string | null> {
  const old = await q.query<{ address: string }>(
    'SELECT address FROM name_addresses WHERE label = $1 AND asset = $2',
    [label, asset],
  );
  await q.query(
    `INSERT INTO name_addresses (label, asset, address, updated_at) VALUES ($1, $2, $3, $4)
     ON CONFLICT (label, asset) DO UPDATE SET address = EXCLUDED.address, updated_at = EXCLUDED.updated_at`,
    [label, asset, address, at],
  );
  changed(q, 'names');
  return old.rows[0]?.address ?? null;
}

/** Unlinks one coin; returns the address removed, or null when none was linked. */
export async function deleteAddress(q: Queryable, label: string, asset: string): Promise<string | null> {
  const r = await q.query<{ address: string }>(
    'DELETE FROM name_addresses WHERE label = $1 AND asset = $2 RETURNING address',
    [label, asset],
  );
  changed(q, 'names');
  return r.rows[0]?.address ?? null;
}

/** Unlinks every coin (a transfer); returns how many were linked. */
export async function deleteAllAddresses(q: Queryable, label: string): Promise<number> {
  const r = await q.query('DELETE FROM name_addresses WHERE label = $1 RETURNING asset', [label]);
  changed(q, 'names');
  return r.rows.length;
}

/** What a challenge proves control for: a link, or a primary name (docs/names.md). */
export type ChallengePurpose = 'link' | 'primary';

export interface StoredProofChallenge {
  purpose: ChallengePurpose;
  nonce: string;
  accountId: string;
  label: string;
  asset: string;
  address: string;
  message: string;
  issuedAt: number;
  expiresAt: number;
  usedAt: number | null;
}

export async function insertChallenge(q: Queryable, c: StoredProofChallenge): Promise<void> {
  await q.query(
    `INSERT INTO name_challenges (nonce, account_id, label, asset, address, message, issued_at, expires_at, used_at, purpose)
     VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10)`,
    [
      c.nonce,
      c.accountId,
      c.label,
      c.asset,
      c.address,
      c.message,
      c.issuedAt,
      c.expiresAt,
      c.usedAt,
      c.purpose,
    ],
  );
}

export async function selectChallenge(q: Queryable, nonce: string): Promise<StoredProofChallenge | null> {
  const r = await q.query<{
    purpose: ChallengePurpose;
    nonce: string;
    account_id: string;
    label: string;
    asset: string;
    address: string;
    message: string;
    issued_at: number;
    expires_at: number;
    used_at: number | null;
  }>(
    `SELECT purpose, nonce, account_id, label, asset, address, message, issued_at, expires_at, used_at
     FROM name_challenges WHERE nonce = $1`,
    [nonce],
  );
  const row = r.rows[0];
  if (!row) return null;
  return {
    purpose: row.purpose,
    nonce: row.nonce,
    accountId: row.account_id,
    label: row.label,
    asset: row.asset,
    address: row.address,
    message: row.message,
    issuedAt: Number(row.issued_at),
    expiresAt: Number(row.expires_at),
    usedAt: row.used_at === null ? null : Number(row.used_at),
  };
}

/** Marks the challenge used; false when it already was (a concurrent use won). */
export async function consumeChallenge(q: Queryable, nonce: string, at: number): Promise<boolean> {
  const r = await q.query(
    'UPDATE name_challenges SET used_at = $2 WHERE nonce = $1 AND used_at IS NULL RETURNING nonce',
    [nonce, at],
  );
  return r.rows.length === 1;
}

export async function purgeChallenges(q: Queryable, before: number): Promise<void> {
  await q.query('DELETE FROM name_challenges WHERE expires_at < $1', [before]);
}
