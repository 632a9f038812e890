import { describe, expect, inject, it } from 'vitest';
import type { Db } from '../../src/store/db.ts';
import { openDb } from '../../src/store/open.ts';
import { storeContract } from './contract.ts';

// A fresh schema per run keeps reruns against a shared TEST_DATABASE_URL independent.
storeContract('PostgreSQL server', async () => {
  const base = inject('databaseUrl');
  const admin = await openDb({ databaseUrl: base });
  const schema = `t_${Date.now().toString(36)}_${Math.random().toString(36).slice(2, 6)}`;
  await admin.query(`CREATE SCHEMA ${schema}`);
  await admin.close();
  const url = new URL(base);
  url.searchParams.set('options', `-c search_path=${schema}`);
  return openDb({ databaseUrl: url.toString() });
});

async function freshSchemaUrl(prefix: string): Promise<{ url: string; admin: Db }> {
  const base = inject('databaseUrl');
  const admin = await openDb({ databaseUrl: base });
  const schema = `${prefix}_${Date.now().toString(36)}_${Math.random().toString(36).slice(2, 6)}`;
  await admin.query(`CREATE SCHEMA ${schema}`);
  const url = new URL(base);
  url.searchParams.set('options', `-c search_path=${schema}`);
  return { url: url.toString(), admin };
}

describe('PostgreSQL server: processes starting together', () => {
  it('six stores opened at once on an empty schema all migrate without error, each migration once', async () => {
    const { url, admin } = await freshSchemaUrl('race');
    const dbs = await Promise.all(Array.from({ length: 6 }, () => openDb({ databaseUrl: url })));
    const db = dbs[0] as Db;
    const rows = await db.query<{ n: number; d: number }>(
      'SELECT count(*)::int AS n, count(DISTINCT version)::int AS d FROM schema_migrations',
    );
    expect(rows.rows[0]?.n).toBe(rows.rows[0]?.d);
    expect(rows.rows[0]?.n).toBeGreaterThanOrEqual(7);
    for (const d of dbs) await d.close();
    await admin.close();
  });

  it('survives the server dropping an idle connection (no crash; the next query works)', async () => {
    const { url, admin } = await freshSchemaUrl('drop');
    const db = await openDb({ databaseUrl: url });
    const pid = (await db.query<{ pid: number }>('SELECT pg_backend_pid() AS pid')).rows[0]?.pid;
    await admin.query('SELECT pg_terminate_backend($1)', [pid]);
    await new Promise((r) => setTimeout(r, 200));
    expect((await db.query<{ one: number }>('SELECT 1 AS one')).rows[0]?.one).toBe(1);
    await db.close();
    await admin.close();
  });
});
