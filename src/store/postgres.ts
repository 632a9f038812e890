import type { Db } from './db.ts';
import { transactionOf, withReadCache } from './read-cache.ts';
import { outageOr } from './unavailable.ts';

/**
 * How long a statement may wait for a connection (a new one, or a free one of the pool) before it fails as an outage
 * (`unavailable.ts`): without it, a server that drops packets holds every request until the kernel gives up (minutes).
 */
const CONNECT_TIMEOUT_MS = 5_000;

/**
 * Opens a pool to a PostgreSQL server (`DATABASE_URL`); node-postgres is loaded only then. A statement that cannot
 * reach the server rejects with `StoreUnavailableError` (`unavailable.ts`); the pool reconnects by itself once the
 * server is back.
 */
export async function openPostgres(url: string, opts: { max?: number } = {}): Promise<Db> {
  const { default: pg } = await import('pg');
  // BIGINT (int8, oid 20) holds UNIX-millisecond timestamps here: well inside Number's safe range.
  pg.types.setTypeParser(20, (v: string) => Number(v));
  const pool = new pg.Pool({
    connectionString: url,
    max: opts.max ?? 10,
    connectionTimeoutMillis: CONNECT_TIMEOUT_MS,
  });
  // An idle connection dropped by the server (restart, failover, a killed backend) must not crash the process: the
  // pool replaces it, and queries in flight fail with their own error.
  pool.on('error', (err) => {
    process.stderr.write(`postgres: idle connection lost: ${err.message}\n`);
  });
  // Fail fast with a clear message when the server is unreachable.
  const client = await pool.connect();
  client.release();
  const fail = (err: unknown): never => {
    throw outageOr(err);
  };
  const db: Db = {
    kind: 'postgres',
    async query(sql, params) {
      const r = await pool.query(sql, params ? [...params] : []).catch(fail);
      return { rows: r.rows };
    },
    async exec(sql) {
      await pool.query(sql).catch(fail);
    },
    async transaction(fn) {
      const c = await pool.connect().catch(fail);
      try {
        await c.query('BEGIN');
        const out = await fn(
          transactionOf(db, {
            async query(sql, params) {
              const r = await c.query(sql, params ? [...params] : []).catch(fail);
              return { rows: r.rows };
            },
          }),
        );
        await c.query('COMMIT');
        return out;
      } catch (err) {
        await c.query('ROLLBACK').catch(() => undefined);
        throw outageOr(err);
      } finally {
        c.release();
      }
    },
    async close() {
      await pool.end();
    },
  };
  return withReadCache(db);
}
