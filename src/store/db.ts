/**
 * The one SQL dialect: PostgreSQL. `Db` hides whether the server is PGlite (embedded, the default) or a
 * PostgreSQL server reached through node-postgres; both run the same migrations and the same queries.
 */

/** Something that runs parameterised SQL: the database or an open transaction. */
export interface Queryable {
  /** Runs one statement with `$1…` parameters. BIGINT columns come back as JS numbers. */
  query<T = Record<string, unknown>>(sql: string, params?: readonly unknown[]): Promise<{ rows: T[] }>;
}

export interface Db extends Queryable {
  /** `pglite` (embedded) or `postgres` (server). */
  readonly kind: 'pglite' | 'postgres';
  /** Runs a script of several statements without parameters (migrations). */
  exec(sql: string): Promise<void>;
  /** Runs `fn` in one transaction: committed when it resolves, rolled back when it throws. */
  transaction<T>(fn: (tx: Queryable) => Promise<T>): Promise<T>;
  close(): Promise<void>;
}
