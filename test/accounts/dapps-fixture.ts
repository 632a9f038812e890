/**
 * An in-process app with only the dapp routes under `/api`, over in-memory PGlite, with FAKE guards (the guards have
 * their own tests): `x-test-account: <id>` is a signed-in account (401 without it); `/admin` also accepts
 * `x-test-operator: 1` and answers 403 to a non-admin account.
 */
import { randomUUID } from 'node:crypto';
import Fastify from 'fastify';
import type { FastifyInstance, FastifyRequest, LightMyRequestResponse } from 'fastify';
import { insertIfAbsent } from '../../src/accounts/account-repo.ts';
import type { Account, Role } from '../../src/accounts/types.ts';
import type { AuthGuards } from '../../src/rest/accounts/guards.ts';
import { registerDappRoutes } from '../../src/rest/accounts/dapps.ts';
import { accountErrors } from '../../src/accounts/errors.ts';
import { registerErrorHandling } from '../../src/server/host/render.ts';
import type { Db } from '../../src/store/db.ts';
import { openMemoryDb } from '../support/memory-db.ts';
import { DappService } from '../../src/accounts/dapps.ts';

export const T0 = Date.UTC(2025, 0, 15, 12, 0, 0);
export const HOUR = 3_600_000;

export interface Fixture {
  db: Db;
  app: FastifyInstance;
  clock: { now: number };
  /** Inserts an account row and returns it. */
  account(role?: Role): Promise<Account>;
  close(): Promise<void>;
}

export async function dappFixture(db?: Db): Promise<Fixture> {
  const store = db ?? (await openMemoryDb());
  const clock = { now: T0 };
  const known = new Map<string, Account>();
  const who = (req: FastifyRequest): Account => {
    const id = req.headers['x-test-account'];
    const a = typeof id === 'string' ? known.get(id) : undefined;
    if (!a) throw accountErrors.authRequired();
    return a;
  };
  const guards: AuthGuards = {
    account: async (req) => who(req),
    admin: async (req) => {
      if (req.headers['x-test-operator'] === '1') return { kind: 'operator' };
      const a = who(req);
      if (a.role !== 'admin') throw accountErrors.forbidden();
      return { kind: 'account', account: a };
    },
  };
  const app = Fastify();
  registerErrorHandling(app);
  await app.register(
    async (api) =>
      registerDappRoutes(api, { dapps: new DappService(store, { now: () => clock.now }), guards }),
    {
      prefix: '/api',
    },
  );
  await app.ready();
  return {
    db: store,
    app,
    clock,
    async account(role: Role = 'user') {
      const a: Account = {
        id: randomUUID(),
        address: `ltc1q${randomUUID().replace(/-/g, '')}`,
        role,
        createdAt: T0,
      };
      await insertIfAbsent(store, a);
      known.set(a.id, a);
      return a;
    },
    async close() {
      await app.close();
      await store.close();
    },
  };
}

/** A valid listing request; `over` replaces fields (undefined removes one). */
export function dappBody(n: number | string, over: Record<string, unknown> = {}): Record<string, unknown> {
  const b: Record<string, unknown> = {
    name: `Dapp ${n}`,
    site: `https://dapp${n}.example/`,
    icon: `https://dapp${n}.example/icon.png`,
    description: `Dapp number ${n}`,
    contactEmail: `team${n}@example.com`,
    chains: ['LTC', 'DOGE'],
    ...over,
  };
  for (const [k, v] of Object.entries(b)) if (v === undefined) delete b[k];
  return b;
}

export type Headers = Record<string, string>;
export const as = (a: Account): Headers => ({ 'x-test-account': a.id });
export const OPERATOR: Headers = { 'x-test-operator': '1' };

export function post(
  app: FastifyInstance,
  url: string,
  body: unknown,
  headers: Headers,
): Promise<LightMyRequestResponse> {
  return app.inject({
    method: 'POST',
    url,
    headers,
    ...(body === undefined ? {} : { payload: body as object }),
  });
}

export function get(
  app: FastifyInstance,
  url: string,
  headers: Headers = {},
): Promise<LightMyRequestResponse> {
  return app.inject({ method: 'GET', url, headers });
}

/** The error code of a JSON error body. */
export const code = (r: LightMyRequestResponse): string | undefined =>
  (r.json() as { error?: { code?: string } }).error?.code;
export const message = (r: LightMyRequestResponse): string =>
  (r.json() as { error?: { message?: string } }).error?.message ?? '';

export interface AuditRow {
  actor: string;
  action: string;
  entity: string;
  entity_id: string;
  from_state: string | null;
  to_state: string | null;
  reason: string | null;
  at: number;
}

/** Audit rows of dapps (of one dapp when `id` is given), oldest first. */
export async function auditRows(db: Db, id?: string): Promise<AuditRow[]> {
  const r = await db.query<AuditRow>(
    `SELECT actor, action, entity, entity_id, from_state, to_state, reason, at FROM audit_log
     WHERE entity = 'dapp' AND ($1::text IS NULL OR entity_id = $1) ORDER BY id`,
    [id ?? null],
  );
  return r.rows.map((x) => ({ ...x, at: Number(x.at) }));
}

/** Submits `body` as `a` and returns the created dapp's id (expects 201). */
export async function submitted(f: Fixture, a: Account, body: Record<string, unknown>): Promise<string> {
  const r = await post(f.app, '/api/account/dapps', body, as(a));
  if (r.statusCode !== 201) throw new Error(`submit failed: ${r.statusCode} ${r.body}`);
  return (r.json() as { id: string }).id;
}
