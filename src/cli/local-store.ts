/**
 * What a command runs on when it opens the store itself (nobody holds the embedded store, or `DATABASE_URL`): the
 * store, under the command's name in its lock, and the domain services over it from `createServices`, the one
 * composition root a server uses too, so that a key, a snapshot or a market tick is written by the same service
 * whichever process writes it. The store is closed after `run`, whatever it ends with.
 */
import type { AppConfig } from '../config.ts';
import type { KeyServices, Services, ServicesOptions, ServicesWith } from '../services.ts';
import { createServices } from '../services.ts';
import { servicesOptions } from '../start/wiring.ts';
import type { Db } from '../store/db.ts';
import { openDb } from '../store/open.ts';

/** Which services beyond the domain's own a command wants: a bridge deployment, a schema comparison, a market. */
export type ServicesFor = Pick<ServicesOptions, 'bridge' | 'schemaCheck' | 'market'>;

/** The services over an open store, with those in `wanted` built (not null). */
export const servicesOver = <W extends ServicesFor>(
  cfg: AppConfig,
  db: Db,
  wanted: W,
): ServicesWith<ServicesOptions & W> => createServices(db, { ...servicesOptions(cfg), ...wanted });

/**
 * Opens the store as `owner`, builds the services (with `access` when given: the API-key service the access runtime
 * built over this store, see {@link withAccessServices}) and runs `run` with them and the store (for start-up's own
 * steps over it, such as loading the demo dataset).
 */
export async function withServices<W extends ServicesFor, T>(
  cfg: AppConfig,
  owner: string,
  wanted: W,
  run: (services: ServicesWith<ServicesOptions & W>, db: Db) => Promise<T>,
): Promise<T> {
  const db = await openDb({ databaseUrl: cfg.databaseUrl, dataDir: cfg.dataDir, owner });
  try {
    return await run(servicesOver(cfg, db, wanted), db);
  } finally {
    await db.close();
  }
}

/**
 * {@link withServices} with the access layer's API-key service (`src/start/access.ts`: its pepper, and with
 * `REDIS_URL` the revision that tells the servers' key caches of a change), closed before the store.
 */
export async function withAccessServices<T>(
  cfg: AppConfig,
  owner: string,
  run: (services: Services & KeyServices) => Promise<T>,
): Promise<T> {
  const [{ createAccessRuntime }, { createLogger }] = await Promise.all([
    import('../start/access.ts'),
    import('../core/log.ts'),
  ]);
  const db = await openDb({ databaseUrl: cfg.databaseUrl, dataDir: cfg.dataDir, owner });
  try {
    const rt = await createAccessRuntime(cfg, db, createLogger(cfg.logLevel));
    try {
      return await run(createServices(db, servicesOptions(cfg), rt));
    } finally {
      await rt.close();
    }
  } finally {
    await db.close();
  }
}
