import { randomBytes } from 'node:crypto';
import { ed25519 } from '@noble/curves/ed25519.js';
import { base58 } from '@scure/base';
import Fastify from 'fastify';
import type { FastifyInstance, LightMyRequestResponse } from 'fastify';
import { AuthService } from '../../src/accounts/auth.ts';
import { messageParams } from '../../src/crypto/chains.ts';
import type { Network } from '../../src/crypto/chains.ts';
import { LTC } from '../../src/crypto/coins.ts';
import { addressOf, signMessage } from '../../src/crypto/signed-message.ts';
import type { MessageAddressType } from '../../src/crypto/signed-message.ts';
import { signPartnerRequest } from '../../src/names/partner-auth.ts';
import { createAuthGuards } from '../../src/rest/accounts/guards-impl.ts';
import type { ApiLimits } from '../../src/rest/api-limits.ts';
import { registerErrorHandling } from '../../src/server/host/render.ts';
import { strictJsonBodies } from '../../src/server/json-body.ts';
import { namesApi } from '../../src/rest/names/index.ts';
import type { Db } from '../../src/store/db.ts';
import { openMemoryDb } from '../support/memory-db.ts';
import { NameService } from '../../src/names/service.ts';
import { PartnerService } from '../../src/names/partners.ts';

export const ADMIN_TOKEN = 'cwa_test-operator-token-0123456789';
export const DOMAIN = 'names.test:4000';

/** The names API in process with the real auth guards: in-memory PGlite, a settable clock, Fastify inject. */
export interface Harness {
  app: FastifyInstance;
  db: Db;
  auth: AuthService;
  clock: { now: number };
  close(): Promise<void>;
}

export async function harness(o: { limits?: ApiLimits } = {}): Promise<Harness> {
  const db = await openMemoryDb();
  const clock = { now: 1_767_225_600_000 }; // 2026-01-01T00:00:00Z
  const now = () => clock.now;
  const auth = new AuthService(db, { domain: DOMAIN, now });
  const guards = createAuthGuards({ auth, adminToken: ADMIN_TOKEN, limits: o.limits });
  const app = Fastify({ bodyLimit: 1_048_576 });
  registerErrorHandling(app);
  strictJsonBodies(app); // as the product's server (src/start/server.ts)
  await app.register(namesApi, {
    prefix: '/api',
    guards,
    names: new NameService(db, { suffix: 'coin', network: 'mainnet', now }),
    partners: new PartnerService(db, { now }),
    limits: o.limits,
  });
  await app.ready();
  return {
    app,
    db,
    auth,
    clock,
    async close() {
      await app.close();
      await db.close();
    },
  };
}

/** A throwaway wallet of one coin with real keys. */
export interface Wallet {
  address: string;
  sign(text: string): string;
}

export function wallet(
  asset = 'LTC',
  type: MessageAddressType = 'p2wpkh',
  network: Network = 'mainnet',
): Wallet {
  if (asset === 'SOL') {
    const key = ed25519.utils.randomSecretKey();
    return {
      address: base58.encode(ed25519.getPublicKey(key)),
      sign: (text) => base58.encode(ed25519.sign(new TextEncoder().encode(text), key)),
    };
  }
  const params = messageParams(asset, network);
  if (!params) throw new Error(`no message params for ${asset}`);
  const key = randomBytes(32);
  return { address: addressOf(params, key, type), sign: (text) => signMessage(params, key, text, type) };
}

/** Signs in through AuthService (challenge, LTC signature, session); returns the token and the account id. */
export async function signIn(
  h: Harness,
  w: Wallet = wallet(),
): Promise<{ token: string; id: string; address: string }> {
  const c = await h.auth.challenge(w.address);
  const s = await h.auth.signIn(w.address, w.sign(c.challenge), c.nonce);
  return { token: s.token, id: s.account.id, address: s.account.address };
}

export interface Res {
  status: number;
  body: Record<string, unknown>;
  code: string | undefined;
  raw: LightMyRequestResponse;
}

export type Method = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';

export async function call(
  h: Harness,
  method: Method,
  url: string,
  o: { token?: string; body?: unknown; payload?: string; headers?: Record<string, string> } = {},
): Promise<Res> {
  const headers: Record<string, string> = { ...o.headers };
  if (o.token) headers.authorization = `Bearer ${o.token}`;
  const payload = o.payload ?? (o.body !== undefined ? JSON.stringify(o.body) : undefined);
  if (payload !== undefined) headers['content-type'] ??= 'application/json';
  const raw = await h.app.inject({ method, url, headers, ...(payload !== undefined ? { payload } : {}) });
  const body = (raw.body ? JSON.parse(raw.body) : {}) as Record<string, unknown>;
  const err = body.error as { code?: string } | undefined;
  return { status: raw.statusCode, body, code: err?.code, raw };
}

export const errorMessage = (r: Res): string => (r.body.error as { message: string }).message;

/** Registers `name` for the account of `token`; throws unless 201. */
export async function register(h: Harness, token: string, name: string): Promise<void> {
  const r = await call(h, 'POST', '/api/names', { token, body: { name } });
  if (r.status !== 201) throw new Error(`register ${name}: ${r.status} ${r.raw.body}`);
}

/** Links `w`'s address with a real proof of control; returns the PUT's response. */
export async function link(h: Harness, token: string, name: string, asset: string, w: Wallet): Promise<Res> {
  const c = await call(h, 'POST', `/api/names/${name}/addresses/${asset}/challenge`, {
    token,
    body: { address: w.address },
  });
  if (c.status !== 200) throw new Error(`challenge: ${c.status} ${c.raw.body}`);
  return call(h, 'PUT', `/api/names/${name}/addresses/${asset}`, {
    token,
    body: { address: w.address, signature: w.sign(c.body.challenge as string), nonce: c.body.nonce },
  });
}

export interface PartnerCred {
  id: string;
  secret: string;
}

export async function createPartner(h: Harness, name = 'Exchange'): Promise<PartnerCred> {
  const r = await call(h, 'POST', '/api/admin/partners', { token: ADMIN_TOKEN, body: { name } });
  if (r.status !== 201) throw new Error(`partner: ${r.status} ${r.raw.body}`);
  return { id: r.body.id as string, secret: r.body.secret as string };
}

/** A partner request signed with real HMACs (override any part to break it). */
export async function partnerCall(
  h: Harness,
  p: PartnerCred,
  method: Method,
  path: string,
  body?: unknown,
  o: { timestamp?: number; nonce?: string; signedBody?: string; secret?: string; signedPath?: string } = {},
): Promise<Res> {
  const payload = body === undefined ? undefined : JSON.stringify(body);
  const headers = signPartnerRequest({
    partnerId: p.id,
    secret: o.secret ?? p.secret,
    method,
    path: o.signedPath ?? path,
    timestamp: o.timestamp ?? Math.floor(h.clock.now / 1000),
    nonce: o.nonce ?? randomBytes(16).toString('hex'),
    ...(o.signedBody !== undefined || payload !== undefined ? { body: o.signedBody ?? payload ?? '' } : {}),
  });
  return call(h, method, path, { headers, ...(payload !== undefined ? { payload } : {}) });
}

export interface AuditRow {
  actor: string;
  action: string;
  entity: string;
  entity_id: string;
  from_state: string | null;
  to_state: string | null;
  reason: string | null;
}

export async function audit(db: Db, entityId?: string): Promise<AuditRow[]> {
  const r = await db.query<AuditRow>(
    `SELECT actor, action, entity, entity_id, from_state, to_state, reason FROM audit_log
     WHERE entity IN ('name', 'partner')${entityId ? ' AND entity_id = $1' : ''} ORDER BY id`,
    entityId ? [entityId] : [],
  );
  return r.rows;
}

export { LTC };
