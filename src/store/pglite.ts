import { PGlite } from '@electric-sql/pglite';
import { mkdirSync } from 'node:fs';
import type { Db, Queryable } from './db.ts';
import { transactionOf, withReadCache } from './read-cache.ts';
import { breathe } from '../core/turns.ts';
import { outageOr } from './unavailable.ts';
import { compiledPgliteWasm } from './pglite-wasm.ts';

/**
 * PGlite's default buffer pool (160 MB) dominates the process's memory, and PostgreSQL's start initialises the whole
 * pool (about 5 ms a MB of every start, in a profile of PGlite opening the demo's store). The hot market data lives in
 * the engine's own memory and the embedded store's pages stay in the OS's cache, so a small pool costs nothing
 * measurable: chart reads of the demo's 50 MB of bars took the same with 8, 16 and 32 MB, and so did a first start's
 * history write (bench/README.md, "Start-up").
 */
const PGLITE_CONF = 'shared_buffers=8MB';

/**
 * Opens PGlite. `dir` undefined → in memory (tests); otherwise the database lives in that folder and every
 * committed transaction is written to it before `transaction`/`query` resolve. `image`: a dump of a data directory
 * (`dumpDataDir`) to start from instead of running initdb.
 */
export async function openPglite(dir?: string, image?: Blob): Promise<Db> {
  if (dir) mkdirSync(dir, { recursive: true });
  const wasm = await compiledPgliteWasm();
  const pg = new PGlite({
    ...(dir ? { dataDir: dir } : {}),
    ...(image ? { loadDataDir: image } : {}),
    ...(wasm ? { pgliteWasmModule: wasm } : {}),
    postgresqlconf: PGLITE_CONF,
  });
  await pg.waitReady;
  return pgliteDb(pg);
}

/**
 * A started PGlite as a {@link Db}; closing the `Db` closes it. A statement issued once it is closing or closed (a
 * request still in flight at shutdown) rejects with `StoreUnavailableError` (`unavailable.ts`).
 */
export function pgliteDb(pg: PGlite): Db {
  const fail = (err: unknown): never => {
    throw outageOr(err);
  };
  const run: Queryable['query'] = async (sql, params) => {
    // PGlite answers within microtasks: a long run of statements would otherwise never let the loop turn.
    await breathe();
    const r = await pg.query(sql, params ? [...params] : []).catch(fail);
    return { rows: r.rows as never[] };
  };
  const db: Db = {
    kind: 'pglite',
    query: run,
    async exec(sql) {
      await pg.exec(sql).catch(fail);
    },
    transaction(fn) {
      return pg
        .transaction((tx) =>
          fn(
            transactionOf(db, {
              async query(sql, params) {
                const r = await tx.query(sql, params ? [...params] : []);
                return { rows: r.rows as never[] };
              },
            }),
          ),
        )
        .catch(fail);
    },
    async close() {
      await pg.close();
    },
  };
  return withReadCache(db);
}
