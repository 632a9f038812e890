import type { Queryable } from '../store/db.ts';
import { isUuid } from '../core/ids.ts';
import type { Account, Role } from './types.ts';

/** The SQL of the `accounts` table (migration 003). The rules live in auth.ts and admins.ts. */

interface Row {
  id: string;
  address: string;
  role: Role;
  created_at: number;
}

export function fromRow(r: Row): Account {
  return { id: r.id, address: r.address, role: r.role, createdAt: Number(r.created_at) };
}

/** The account of an address; `forUpdate` locks its row for the rest of the transaction. */
export async function selectByAddress(
  q: Queryable,
  address: string,
  forUpdate = false,
): Promise<Account | null> {
  const r = await q.query<Row>(
    `SELECT id, address, role, created_at FROM accounts WHERE address = $1${forUpdate ? ' FOR UPDATE' : ''}`,
    [address],
  );
  return r.rows[0] ? fromRow(r.rows[0]) : null;
}

/** Inserts the account unless its address exists; true when this call created it. */
export async function insertIfAbsent(q: Queryable, a: Account): Promise<boolean> {
  const r = await q.query(
    `INSERT INTO accounts (id, address, role, created_at) VALUES ($1, $2, $3, $4)
     ON CONFLICT (address) DO NOTHING RETURNING id`,
    [a.id, a.address, a.role, a.createdAt],
  );
  return r.rows.length === 1;
}

export async function updateRole(q: Queryable, id: string, role: Role): Promise<Account> {
  const r = await q.query<Row>(
    'UPDATE accounts SET role = $2 WHERE id = $1 RETURNING id, address, role, created_at',
    [id, role],
  );
  if (!r.rows[0]) throw new Error(`account ${id} vanished inside its transaction`);
  return fromRow(r.rows[0]);
}

/** Accounts with this role, oldest first. */
export async function selectByRole(q: Queryable, role: Role): Promise<Account[]> {
  const r = await q.query<Row>(
    'SELECT id, address, role, created_at FROM accounts WHERE role = $1 ORDER BY created_at, id',
    [role],
  );
  return r.rows.map(fromRow);
}

/** Accounts by id in one read, in the order asked; null for an unknown (or malformed) id. */
export async function selectByIds(q: Queryable, ids: readonly string[]): Promise<Array<Account | null>> {
  const wanted = [...new Set(ids.filter(isUuid).map((id) => id.toLowerCase()))];
  const byId = new Map<string, Account>();
  if (wanted.length > 0) {
    const r = await q.query<Row>(
      'SELECT id, address, role, created_at FROM accounts WHERE id = ANY($1::uuid[])',
      [wanted],
    );
    for (const row of r.rows) byId.set(row.id, fromRow(row));
  }
  return ids.map((id) => byId.get(id.toLowerCase()) ?? null);
}
