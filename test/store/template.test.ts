/**
 * The store template of the build (src/store/template.ts): a new embedded store starts from it instead of running
 * initdb, holds every migration, takes writes like any other, and an existing store is never overwritten by it.
 */
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, expect, it } from 'vitest';
import { listMigrations } from '../../src/store/migrate.ts';
import { openPglite } from '../../src/store/pglite.ts';
import { prepareStoreTemplate, seedFromTemplate } from '../../src/store/template.ts';

const root = mkdtempSync(join(tmpdir(), 'cw-template-'));
afterAll(() => rmSync(root, { recursive: true, force: true }));

it('a new store starts from the template with every migration, and an existing one is left alone', async () => {
  const template = join(root, 'template');
  await prepareStoreTemplate(template);
  const dir = join(root, 'pg');
  expect(seedFromTemplate(dir, template)).toBe(true);
  let db = await openPglite(dir);
  const applied = await db.query<{ version: number }>(
    'SELECT version FROM schema_migrations ORDER BY version',
  );
  expect(applied.rows.map((r) => r.version)).toEqual(listMigrations().map((m) => m.version));
  await db.query("INSERT INTO meta (key, value) VALUES ('probe', 'kept')");
  await db.close();
  expect(seedFromTemplate(dir, template)).toBe(false);
  db = await openPglite(dir);
  expect((await db.query<{ value: string }>("SELECT value FROM meta WHERE key = 'probe'")).rows).toEqual([
    { value: 'kept' },
  ]);
  await db.close();
  // Without a template (a build never made), nothing is seeded: PGlite runs initdb as it always did.
  expect(seedFromTemplate(join(root, 'other'), join(root, 'missing'))).toBe(false);
  expect(existsSync(join(root, 'other'))).toBe(false);
}, 60_000);
