import { join } from 'node:path';
import type { Db } from './db.ts';
import { acquireStoreLock } from './lock.ts';
import { migrate } from './migrate.ts';
import { openPglite } from './pglite.ts';
import { openPostgres } from './postgres.ts';
import { seedFromTemplate } from './template.ts';
import { traced } from './traced.ts';

export interface StoreOptions {
  /** `postgres://…` → a PostgreSQL server; unset → embedded PGlite. */
  databaseUrl?: string | undefined;
  /** Folder for the embedded database (`<dataDir>/pg`); unset → in memory. */
  dataDir?: string | undefined;
  /**
   * What opens the embedded store (`serve`, `keys`…), written in its lock (`lock.ts`): the store in `dataDir` has one
   * owner process, and opening it while another live process holds it throws `StoreLockedError`. Default `coinwallet`.
   */
  owner?: string;
  /** Told when the lock of a dead process was taken over (for the log). */
  onTakeover?: (message: string) => void;
}

/**
 * Opens the configured database and runs pending migrations; its statements are traced (`traced.ts`). The embedded
 * store is locked for this process until `close()`; a new one starts from the build's prepared template.
 */
export async function openDb(opts: StoreOptions): Promise<Db> {
  if (opts.databaseUrl) return migrated(await openPostgres(opts.databaseUrl));
  if (!opts.dataDir) return migrated(await openPglite());
  const lock = acquireStoreLock(opts.dataDir, opts.owner ?? 'coinwallet');
  try {
    const from = lock.tookOverFrom;
    if (from)
      opts.onTakeover?.(
        `took over the lock of ${lock.dataDir} from coinwallet ${from.command} (pid ${from.pid}, started ` +
          `${from.startedAt}), which is no longer running`,
      );
    const dir = join(opts.dataDir, 'pg');
    seedFromTemplate(dir);
    const db = await migrated(await openPglite(dir));
    return {
      ...db,
      async close() {
        try {
          await db.close();
        } finally {
          lock.release();
        }
      },
    };
  } catch (err) {
    lock.release();
    throw err;
  }
}

/** `db` with its pending migrations run and its statements traced (closed when a migration fails). */
export async function migrated(db: Db): Promise<Db> {
  try {
    await migrate(db);
  } catch (err) {
    await db.close();
    throw err;
  }
  return traced(db);
}
