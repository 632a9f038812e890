import type { Db } from '../../src/store/db.ts';

/**
 * `db` whose `query` calls are recorded in `calls` (the SQL text); everything else (transactions, `kind`, the read
 * cache that lives with the store) passes through to `db` itself.
 */
export function countingDb(db: Db, calls: string[]): Db {
  return new Proxy(db, {
    get(target, prop) {
      if (prop === 'query') {
        return (sql: string, params?: readonly unknown[]) => {
          calls.push(sql);
          return target.query(sql, params);
        };
      }
      const v: unknown = Reflect.get(target, prop, target);
      return typeof v === 'function' ? (v as (...a: unknown[]) => unknown).bind(target) : v;
    },
  });
}
