import type { Db } from './db.ts';
import { transactionOf, withReadCache } from './read-cache.ts';

/** Opens a pool to a PostgreSQL server (`DATABASE_URL`); node-postgres is loaded only then. */
export async function openPostgres(url: string, opts: { max?: number } = {}): Promise<Db> {
  const { default: pg } = await import('pg');
  // BIGINT (int8, oid 20) holds UNIX-millisecond timestamps here: well inside Number's safe range.
  pg.types.setTypeParser(20, (v: string) => Number(v));
  const pool = new pg.Pool({ connectionString: url, max: opts.max ?? 10 });
  // An idle connection dropped by the server (restart, failover, a killed backend) must not crash the process: the
  // pool replaces it, and queries in flight fail with their own error.
  pool.on('error', (err) => {
    process.stderr.write(`postgres: idle connection lost: ${err.message}\n`);
  });
  // Fail fast with a clear message when the server is unreachable.
  const client = await pool.connect();
  client.release();
  const db: Db = {
    kind: 'postgres',
    async query(sql, params) {
      const r = await pool.query(sql, params ? [...params] : []);
      return { rows: r.rows };
    },
    async exec(sql) {
      await pool.query(sql);
    },
    async transaction(fn) {
      const c = await pool.connect();
      try {
        await c.query('BEGIN');
        const out = await fn(
          transactionOf(db, {
            async query(sql, params) {
              const r = await c.query(sql, params ? [...params] : []);
              return { rows: r.rows };
            },
          }),
        );
        await c.query('COMMIT');
        return out;
      } catch (err) {
        await c.query('ROLLBACK').catch(() => undefined);
        throw err;
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
