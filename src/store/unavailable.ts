/**
 * When the store does not answer. A failure to reach the database (refused or reset connections, a server shutting
 * down or starting, a connect timeout, PostgreSQL's connection-exception class 08) is an outage: the request was
 * fine, the store was not, and the same request may succeed in a few seconds. A constraint violation, an SQL error or
 * any other answer of the server is not one. The drivers' wrappers (`postgres.ts`, `pglite.ts`) throw
 * {@link StoreUnavailableError} for outages, so that the transports can answer 503 `STORE_UNAVAILABLE` instead of an
 * internal error (the error and its answer are the shared kernel's, `src/core/store-outage.ts`), and `/readyz` can say
 * not ready ({@link storeAnswers}).
 */
import { StoreUnavailableError } from '../core/store-outage.ts';
import { withTimeout } from '../core/timeout.ts';
import type { Db } from './db.ts';

export { isStoreUnavailable, StoreUnavailableError } from '../core/store-outage.ts';

/** Socket-level failures of Node (`err.code`) while connecting to, or talking with, the server. */
const NETWORK_CODES = new Set([
  'ECONNREFUSED',
  'ECONNRESET',
  'ECONNABORTED',
  'EPIPE',
  'ETIMEDOUT',
  'EHOSTUNREACH',
  'EHOSTDOWN',
  'ENETUNREACH',
  'ENETDOWN',
  'EAI_AGAIN',
  'ENOTFOUND',
]);

/**
 * SQLSTATEs of a server that cannot serve: 57P01 admin shutdown (`pg_ctl stop -m fast`), 57P02 crash shutdown, 57P03
 * cannot connect now (starting up, recovering), 53300 too many connections; and all of class 08, connection
 * exception.
 */
const SERVER_STATES = new Set(['57P01', '57P02', '57P03', '53300']);

/**
 * What node-postgres (pg, pg-pool) and PGlite say, without a code, when the connection or the database is gone: a
 * connection ended under a query, a connect timeout, a client or pool already closed.
 */
const DRIVER_MESSAGES = [
  /^Connection terminated/,
  /^timeout exceeded when trying to connect$/,
  /^timeout expired$/,
  /^Client has encountered a connection error and is not queryable$/,
  /^Client was closed and is not queryable$/,
  /^Cannot use a pool after calling end on the pool$/,
  /^PGlite is clos(ed|ing)$/,
];

/** True when `err` (a driver's error) says the store could not be reached, rather than that it refused a statement. */
export function isOutage(err: unknown): boolean {
  if (err instanceof StoreUnavailableError) return true;
  if (!(err instanceof Error)) return false;
  const code = (err as { code?: unknown }).code;
  if (typeof code === 'string') {
    if (NETWORK_CODES.has(code) || SERVER_STATES.has(code) || /^08[0-9A-Z]{3}$/.test(code)) return true;
    // A socket file that is not there (a server on a Unix socket, stopped).
    if (code === 'ENOENT' && (err as { syscall?: unknown }).syscall === 'connect') return true;
  }
  // Node's happy-eyeballs connect reports every address tried (AggregateError), each with its own code.
  if (err instanceof AggregateError && err.errors.some(isOutage)) return true;
  return DRIVER_MESSAGES.some((re) => re.test(err.message));
}

/** `err` as the store's outage when it is one, else `err` itself: what the drivers' wrappers throw. */
export function outageOr(err: unknown): unknown {
  return err instanceof StoreUnavailableError || !isOutage(err) ? err : new StoreUnavailableError(err);
}

/** How long {@link storeAnswers} waits for the store, and how long its answer is reused. */
const PROBE_TIMEOUT_MS = 2_000;
const PROBE_REUSE_MS = 1_000;

/**
 * Whether the store answers now, for `/readyz`: `SELECT 1` within 2 s, its answer reused for 1 s after it came (a load balancer
 * probing every process often costs the store one statement a second at most); concurrent calls share one probe.
 * The embedded store (PGlite) lives in this process and is always answering while the process is: it is not
 * probed, so that a long write (the demo's first history) never makes the process look unready.
 */
export function storeAnswers(db: Db, now: () => number = Date.now): () => Promise<boolean> {
  if (db.kind !== 'postgres') return () => Promise.resolve(true);
  /** The last probe, and when it settled (null while in flight). */
  let last: { settledAt: number | null; answer: Promise<boolean> } | null = null;
  return () => {
    if (last && (last.settledAt === null || now() - last.settledAt < PROBE_REUSE_MS)) return last.answer;
    const current: { settledAt: number | null; answer: Promise<boolean> } = {
      settledAt: null,
      answer: probe(db),
    };
    void current.answer.then(() => (current.settledAt = now()));
    last = current;
    return current.answer;
  };
}

function probe(db: Db): Promise<boolean> {
  return withTimeout(db.query('SELECT 1'), PROBE_TIMEOUT_MS).then(
    () => true,
    () => false,
  );
}
