import { randomBytes } from 'node:crypto';
import Fastify from 'fastify';
import type { FastifyInstance, LightMyRequestResponse } from 'fastify';
import { ApiKeyService } from '../../src/accounts/keys.ts';
import { LTC } from '../../src/crypto/coins.ts';
import { addressOf, signMessage } from '../../src/crypto/signed-message.ts';
import type { MessageAddressType } from '../../src/crypto/signed-message.ts';
import { accountsApi } from '../../src/rest/accounts/index.ts';
import type { ApiLimits } from '../../src/rest/api-limits.ts';
import { registerErrorHandling } from '../../src/server/host/render.ts';
import { strictJsonBodies } from '../../src/server/json-body.ts';
import type { Db } from '../../src/store/db.ts';
import { openMemoryDb } from '../support/memory-db.ts';
import { createServices } from '../../src/services.ts';

export const ADMIN_TOKEN = 'cwa_test-operator-token-0123456789';
export const DOMAIN = 'accounts.test:4000';

/** The accounts API in process: in-memory PGlite, a settable clock, Fastify inject. */
export interface Harness {
  app: FastifyInstance;
  db: Db;
  keys: ApiKeyService;
  clock: { now: number };
  close(): Promise<void>;
}

/** The accounts API's services over `db` (`src/services.ts`), on the harness's clock. */
export function accountsServices(db: Db, keys: ApiKeyService, now: () => number) {
  const s = createServices(db, { domain: DOMAIN, nameSuffix: 'coin', nameNetwork: 'mainnet', now }, { keys });
  return { keys: s.keys, ownKeys: s.ownKeys, accounts: s.accounts, auth: s.auth, dapps: s.dapps };
}

export async function harness(
  opts: { db?: Db; adminToken?: string | null; limits?: ApiLimits } = {},
): Promise<Harness> {
  const db = opts.db ?? (await openMemoryDb());
  const clock = { now: 1_767_225_600_000 }; // 2026-01-01T00:00:00Z
  const now = () => clock.now;
  const keys = new ApiKeyService(db, { pepper: 'test-pepper-0123456789abcdef', now });
  const app = Fastify({ bodyLimit: 1_048_576 });
  registerErrorHandling(app);
  strictJsonBodies(app); // as the product's server (src/start/server.ts)
  await app.register(accountsApi, {
    prefix: '/api',
    ...accountsServices(db, keys, now),
    adminToken: opts.adminToken === undefined ? ADMIN_TOKEN : opts.adminToken,
    limits: opts.limits,
  });
  await app.ready();
  return {
    app,
    db,
    keys,
    clock,
    async close() {
      await app.close();
      await db.close();
    },
  };
}

/** A throwaway LTC wallet with real keys. */
export interface Wallet {
  address: string;
  type: MessageAddressType;
  sign(text: string): string;
}

export function wallet(type: MessageAddressType = 'p2wpkh'): Wallet {
  const key = randomBytes(32);
  return { address: addressOf(LTC, key, type), type, sign: (text) => signMessage(LTC, key, text, type) };
}

export interface Res {
  status: number;
  body: Record<string, unknown>;
  /** `error.code` of an error body. */
  code: string | undefined;
  raw: LightMyRequestResponse;
}

/** One request. `body` is sent as JSON; `payload` as given (with `contentType`, default JSON). */
export async function call(
  h: Harness,
  method: 'GET' | 'POST',
  url: string,
  o: { token?: string; body?: unknown; payload?: string; contentType?: string } = {},
): Promise<Res> {
  const headers: Record<string, string> = {};
  if (o.token) headers.authorization = `Bearer ${o.token}`;
  if (o.body !== undefined || o.payload !== undefined)
    headers['content-type'] = o.contentType ?? 'application/json';
  const raw = await h.app.inject({
    method,
    url,
    headers,
    ...(o.body !== undefined ? { payload: JSON.stringify(o.body) } : {}),
    ...(o.payload !== undefined ? { payload: o.payload } : {}),
  });
  const body = (raw.body ? JSON.parse(raw.body) : {}) as Record<string, unknown>;
  const err = body.error as { code?: string } | undefined;
  return { status: raw.statusCode, body, code: err?.code, raw };
}

export async function challengeFor(h: Harness, address: string): Promise<string> {
  const r = await call(h, 'POST', '/api/auth/challenge', { body: { address } });
  if (r.status !== 200) throw new Error(`challenge: ${r.status} ${r.raw.body}`);
  return r.body.challenge as string;
}

/** Signs in with a real signature, naming the challenge by its nonce (as clients do); returns the session token. */
export async function signIn(h: Harness, w: Wallet): Promise<string> {
  const c = await call(h, 'POST', '/api/auth/challenge', { body: { address: w.address } });
  if (c.status !== 200) throw new Error(`challenge: ${c.status} ${c.raw.body}`);
  const r = await call(h, 'POST', '/api/auth/session', {
    body: { address: w.address, signature: w.sign(c.body.challenge as string), nonce: c.body.nonce },
  });
  if (r.status !== 201) throw new Error(`sign-in: ${r.status} ${r.raw.body}`);
  return r.body.token as string;
}

/** A signed-in administrator (granted with the operator token). */
export async function signInAdmin(h: Harness): Promise<{ wallet: Wallet; token: string; id: string }> {
  const w = wallet('p2pkh');
  const g = await call(h, 'POST', '/api/admin/admins', { token: ADMIN_TOKEN, body: { address: w.address } });
  if (g.status !== 200) throw new Error(`grant: ${g.status} ${g.raw.body}`);
  return { wallet: w, token: await signIn(h, w), id: g.body.id as string };
}

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

export async function auditOf(db: Db, entityId: string): Promise<AuditRow[]> {
  const r = await db.query<AuditRow>(
    'SELECT actor, action, entity, entity_id, from_state, to_state, reason, at FROM audit_log WHERE entity_id = $1 ORDER BY id',
    [entityId],
  );
  return r.rows.map((row) => ({ ...row, at: Number(row.at) }));
}
