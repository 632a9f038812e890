/**
 * The store's statements as spans, inside a traced request only (`childOnly`: the engine's ticks and background
 * writes make none). Attributes after OpenTelemetry's database conventions: the system and the statement's operation
 * (its first word, never its parameters).
 */
import { inSpan, SpanKind } from '../core/trace.ts';
import type { Db, Queryable } from './db.ts';

function traceQueries(q: Queryable, system: string): Queryable['query'] {
  return <T>(sql: string, params?: readonly unknown[]) =>
    inSpan(
      `db.query ${operationOf(sql)}`,
      {
        kind: SpanKind.CLIENT,
        childOnly: true,
        attributes: { 'db.system.name': system, 'db.operation.name': operationOf(sql) },
      },
      () => q.query<T>(sql, params),
    );
}

const operationOf = (sql: string): string => /^\s*(\w+)/.exec(sql)?.[1]?.toUpperCase() ?? 'SQL';

/**
 * `db` with each `query` (and each query of a transaction) in a span when a traced request runs it. Spread copies
 * keep the read cache's marks (`read-cache.ts`) on the store and its transactions.
 */
export function traced(db: Db): Db {
  const system = db.kind === 'postgres' ? 'postgresql' : 'pglite';
  return {
    ...db,
    query: traceQueries(db, system),
    transaction: (fn) => db.transaction((tx) => fn({ ...tx, query: traceQueries(tx, system) })),
  };
}
