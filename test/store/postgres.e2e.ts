import { inject } from 'vitest';
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
