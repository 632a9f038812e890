import type { Queryable } from './db.ts';

export async function getMeta(q: Queryable, key: string): Promise<string | null> {
  const r = await q.query<{ value: string }>('SELECT value FROM meta WHERE key = $1', [key]);
  return r.rows[0]?.value ?? null;
}

export async function setMeta(q: Queryable, key: string, value: string): Promise<void> {
  await q.query(
    'INSERT INTO meta (key, value) VALUES ($1, $2) ON CONFLICT (key) DO UPDATE SET value = EXCLUDED.value',
    [key, value],
  );
}

export async function deleteMeta(q: Queryable, key: string): Promise<void> {
  await q.query('DELETE FROM meta WHERE key = $1', [key]);
}
