import { inject } from 'vitest';
import { openDb } from '../../src/store/open.ts';
import { operationUsageContract } from './operation-usage-contract.ts';

// A fresh schema per run keeps reruns against a shared TEST_DATABASE_URL independent (as postgres.e2e.ts).
operationUsageContract('PostgreSQL server', async () => {
  const base = inject('databaseUrl');
  const admin = await openDb({ databaseUrl: base });
  const schema = `ops_${Date.now().toString(36)}_${Math.random().toString(36).slice(2, 6)}`;
  await admin.query(`CREATE SCHEMA ${schema}`);
  await admin.close();
  const url = new URL(base);
  url.searchParams.set('options', `-c search_path=${schema}`);
  return openDb({ databaseUrl: url.toString() });
});
