/**
 * An empty embedded store prepared at build time: PGlite's initdb and our migrations, run once by `npm run build`
 * (and so by `npm ci`) into `dist/pglite/template/`. A first start copies it into `DATA_DIR/pg` and opens it as an
 * existing database, instead of running initdb: measured on a 2-core machine, 0.16 s to copy and about 1 s to open
 * (RSS 280 MiB) against 4.5–5 s for initdb in a second PGlite instance (RSS 745 MiB at ready). Without a build (tests
 * run from the sources) PGlite runs initdb as before.
 */
import { cpSync, existsSync, mkdirSync, readdirSync, renameSync, rmSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { PGlite } from '@electric-sql/pglite';
import { projectPath } from '../core/project-root.ts';
import { migrate } from './migrate.ts';
import { pgliteDb } from './pglite.ts';

export const STORE_TEMPLATE_DIR = projectPath('dist', 'pglite', 'template');

/** Builds the template: a new PGlite data directory with every migration applied, closed cleanly. */
export async function prepareStoreTemplate(dir = STORE_TEMPLATE_DIR): Promise<void> {
  const partial = `${dir}.partial`;
  rmSync(partial, { recursive: true, force: true });
  mkdirSync(dirname(partial), { recursive: true });
  const pg = new PGlite({ dataDir: partial });
  await pg.waitReady;
  const db = pgliteDb(pg);
  try {
    await migrate(db);
  } finally {
    await db.close();
  }
  rmSync(dir, { recursive: true, force: true });
  renameSync(partial, dir);
}

/**
 * Puts the template in `dir` when `dir` holds no database yet (absent or empty) and a template was built; returns
 * whether it did. Copied aside and renamed into place, so a crash midway leaves no half-copied database.
 */
export function seedFromTemplate(dir: string, template = STORE_TEMPLATE_DIR): boolean {
  if (!existsSync(join(template, 'PG_VERSION'))) return false;
  if (existsSync(dir) && readdirSync(dir).length > 0) return false;
  const partial = `${dir}.partial`;
  rmSync(partial, { recursive: true, force: true });
  cpSync(template, partial, { recursive: true });
  rmSync(dir, { recursive: true, force: true });
  renameSync(partial, dir);
  return true;
}
