/**
 * What counts as the store not answering (`src/store/unavailable.ts`): the drivers' real failures where they can be
 * made without a server (a refused connection, a closed PGlite, a constraint violation), and the SQLSTATEs and
 * messages a server or pool gives while it goes away; how it reaches a client (`src/core/store-outage.ts`); the readiness
 * probe.
 */
import { PGlite } from '@electric-sql/pglite';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ApiError } from '../../src/core/errors.ts';
import type { Db } from '../../src/store/db.ts';
import { clientErrorOf } from '../../src/core/store-outage.ts';
import { pgliteDb } from '../../src/store/pglite.ts';
import {
  isOutage,
  isStoreUnavailable,
  outageOr,
  storeAnswers,
  StoreUnavailableError,
} from '../../src/store/unavailable.ts';
import { freePort } from '../support/postgres.ts';

/** An error as node-postgres reports a server's ErrorResponse: its SQLSTATE in `code`. */
function serverError(code: string, message: string): Error {
  return Object.assign(new pg.DatabaseError(message, 0, 'error'), { code });
}

describe('isOutage', () => {
  it('a refused connection (real node-postgres, nothing listening) is an outage', async () => {
    const client = new pg.Client({ host: '127.0.0.1', port: await freePort(), user: 'x', database: 'x' });
    const err = await client.connect().then(
      () => null,
      (e: unknown) => e,
    );
    expect((err as { code?: string }).code).toBe('ECONNREFUSED');
    expect(isOutage(err)).toBe(true);
  });

  it.each([
    ['57P01', 'terminating connection due to administrator command'],
    ['57P02', 'terminating connection due to crash of another server process'],
    ['57P03', 'the database system is starting up'],
    ['53300', 'sorry, too many clients already'],
    ['08006', 'connection failure'],
    ['08001', 'could not connect'],
  ])('SQLSTATE %s (%s) is an outage', (code, message) => {
    expect(isOutage(serverError(code, message))).toBe(true);
  });

  it.each([
    ['23505', 'duplicate key value violates unique constraint "api_keys_pkey"'],
    ['23503', 'insert or update violates foreign key constraint'],
    ['42P01', 'relation "nope" does not exist'],
    ['42601', 'syntax error at or near "SELEC"'],
    ['22P02', 'invalid input syntax for type uuid'],
    ['57014', 'canceling statement due to statement timeout'],
  ])('SQLSTATE %s (%s) is not', (code, message) => {
    expect(isOutage(serverError(code, message))).toBe(false);
  });

  it.each([
    'Connection terminated unexpectedly',
    'Connection terminated',
    'Connection terminated due to connection timeout',
    'timeout exceeded when trying to connect',
    'Client has encountered a connection error and is not queryable',
    'Cannot use a pool after calling end on the pool',
  ])('node-postgres "%s" is an outage', (message) => {
    expect(isOutage(new Error(message))).toBe(true);
  });

  it('socket codes, a missing Unix socket and every address refused are outages; other values are not', () => {
    const sys = (code: string, syscall: string) => Object.assign(new Error(code), { code, syscall });
    expect(isOutage(sys('ECONNRESET', 'read'))).toBe(true);
    expect(isOutage(sys('ENOENT', 'connect'))).toBe(true);
    expect(isOutage(sys('ENOENT', 'open'))).toBe(false);
    expect(isOutage(new AggregateError([sys('ECONNREFUSED', 'connect')], 'connect failed'))).toBe(true);
    expect(isOutage(new Error('value too long for type character varying(64)'))).toBe(false);
    expect(isOutage('Connection terminated')).toBe(false);
    expect(isOutage(undefined)).toBe(false);
  });
});

describe('the PGlite wrapper', () => {
  let lite: PGlite;
  let db: Db;
  beforeAll(async () => {
    lite = new PGlite();
    db = pgliteDb(lite);
    await db.exec('CREATE TABLE t (id int PRIMARY KEY)');
    await db.query('INSERT INTO t VALUES (1)');
  }, 60_000);
  afterAll(async () => {
    if (!lite.closed) await lite.close();
  });

  it('passes a constraint violation on as it is; once closed, a statement is StoreUnavailableError', async () => {
    const dup = await db.query('INSERT INTO t VALUES (1)').catch((e: unknown) => e);
    expect(dup).not.toBeInstanceOf(StoreUnavailableError);
    expect((dup as { code?: string }).code).toBe('23505');
    expect(clientErrorOf(dup)).toBeNull();

    await lite.close();
    const gone = await db.query('SELECT 1').catch((e: unknown) => e);
    expect(gone).toBeInstanceOf(StoreUnavailableError);
    await expect(db.transaction((tx) => tx.query('SELECT 1'))).rejects.toBeInstanceOf(StoreUnavailableError);
  });
});

describe('STORE_UNAVAILABLE', () => {
  it('is 503 with Retry-After on REST and carries the code and retryAfter in the graph', () => {
    const e = clientErrorOf(outageOr(new Error('Connection terminated unexpectedly')));
    expect(e).toBeInstanceOf(ApiError);
    expect(e?.status).toBe(503);
    expect(e?.headers).toEqual({ 'retry-after': '5' });
    expect(e?.toBody()).toEqual({
      error: { code: 'STORE_UNAVAILABLE', message: 'the data store is not answering: retry in 5 seconds' },
    });
    expect(e?.toGraphQL().extensions).toMatchObject({ code: 'STORE_UNAVAILABLE', retryAfter: 5 });
  });

  it('is found through causes; an ApiError is itself; anything else is internal (null)', () => {
    const wrapped = new Error('could not save', { cause: new StoreUnavailableError(new Error('x')) });
    expect(isStoreUnavailable(wrapped)).toBe(true);
    expect(clientErrorOf(wrapped)?.code).toBe('STORE_UNAVAILABLE');
    const api = new ApiError(404, 'NOT_FOUND', 'no such thing');
    expect(clientErrorOf(api)).toBe(api);
    expect(clientErrorOf(new Error('boom'))).toBeNull();
    // Only the store's outage is wrapped; an outage already wrapped stays the same object.
    const once = outageOr(new Error('timeout exceeded when trying to connect'));
    expect(outageOr(once)).toBe(once);
  });
});

describe('storeAnswers (readiness)', () => {
  const fakeDb = (kind: Db['kind'], answer: () => Promise<unknown>) => {
    let probes = 0;
    const db = {
      kind,
      query: () => {
        probes++;
        return answer();
      },
    } as unknown as Db;
    return { db, probes: () => probes };
  };

  it('the embedded store is never probed', async () => {
    const { db, probes } = fakeDb('pglite', () => Promise.reject(new Error('not called')));
    expect(await storeAnswers(db)()).toBe(true);
    expect(probes()).toBe(0);
  });

  it('a server is probed: answering, failing or slower than 2 s; one probe per second at most', async () => {
    let now = 0;
    let up = true;
    const { db, probes } = fakeDb('postgres', () =>
      up ? Promise.resolve({ rows: [] }) : Promise.reject(new Error('ECONNREFUSED')),
    );
    const ready = storeAnswers(db, () => now);
    expect(await ready()).toBe(true);
    up = false;
    expect(await ready()).toBe(true); // the same second: the last answer
    expect(probes()).toBe(1);
    now += 1_000;
    expect(await ready()).toBe(false);
    expect(probes()).toBe(2);

    const hung = fakeDb('postgres', () => new Promise(() => undefined));
    const t0 = performance.now();
    expect(await storeAnswers(hung.db)()).toBe(false);
    expect(performance.now() - t0).toBeGreaterThanOrEqual(1_900);
  });
});
