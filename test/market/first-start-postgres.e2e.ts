/**
 * The differential start-up test (`first-start.test.ts`) on a PostgreSQL server: a demo first start and a restart
 * leave there the same store, state and snapshot as the recorded digests of the code before the start-up rework (on
 * PGlite: both stores run the same SQL).
 */
import { readFileSync } from 'node:fs';
import { describe, expect, inject, it } from 'vitest';
import { openDb } from '../../src/store/open.ts';
import type { StartDigests } from '../support/first-start.ts';
import { runStarts, SCENARIOS } from '../support/first-start.ts';

const RECORDED = JSON.parse(
  readFileSync(new URL('./first-start-digests.json', import.meta.url), 'utf8'),
) as Record<string, { first: StartDigests; restart: StartDigests }>;

describe('start-up data work on PostgreSQL against the recorded digests', () => {
  for (const name of ['few assets, 3 days', 'few assets, 100 days']) {
    it(`${name}: the same store, state and snapshot`, async () => {
      const base = inject('databaseUrl');
      const admin = await openDb({ databaseUrl: base });
      const schema = `fs_${Date.now().toString(36)}_${Math.random().toString(36).slice(2, 6)}`;
      await admin.query(`CREATE SCHEMA ${schema}`);
      await admin.close();
      const url = new URL(base);
      url.searchParams.set('options', `-c search_path=${schema}`);
      const db = await openDb({ databaseUrl: url.toString() });
      try {
        const got = await runStarts(SCENARIOS[name]!, { db });
        expect(got.first).toEqual(RECORDED[name]?.first);
        expect(got.restart).toEqual(RECORDED[name]?.restart);
      } finally {
        await db.close();
      }
    });
  }
});
