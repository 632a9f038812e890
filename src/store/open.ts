import { join } from 'node:path';
import type { Db } from './db.ts';
import { migrate } from './migrate.ts';
import { openPglite } from './pglite.ts';
import { openPostgres } from './postgres.ts';
import { traced } from './traced.ts';

export interface StoreOptions {
  /** `postgres://…` → a PostgreSQL server; unset → embedded PGlite. */
  databaseUrl?: string | undefined;
  /** Folder for the embedded database (`<dataDir>/pg`); unset → in memory. */
  dataDir?: string | undefined;
}

/** Opens the configured database and runs pending migrations; its statements are traced (`traced.ts`). */
export async function openDb(opts: StoreOptions): Promise<Db> {
  const db = opts.databaseUrl
    ? await openPostgres(opts.databaseUrl)
    : await openPglite(opts.dataDir ? join(opts.dataDir, 'pg') : undefined);
  try {
    await migrate(db);
  } catch (err) {
    await db.close();
    throw err;
  }
  return traced(db);
}
