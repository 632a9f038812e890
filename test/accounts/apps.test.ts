/**
 * Apps over the accounts API (src/rest/accounts/app-routes.ts → src/accounts/apps.ts) on an in-memory store:
 * registering, publishing versions (session or publish token), the refusals with their codes, immutability and
 * documents stored once, and the policy the router reads (src/accounts/app-policy.ts).
 */
import Fastify from 'fastify';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { StoredAppPolicies } from '../../src/accounts/app-policy.ts';
import { documentHash } from '../../src/accounts/app-manifest.ts';
import { AppService } from '../../src/accounts/apps.ts';
import { ApiKeyService } from '../../src/accounts/keys.ts';
import { accountsApi } from '../../src/rest/accounts/index.ts';
import { registerErrorHandling } from '../../src/server/host/render.ts';
import { strictJsonBodies } from '../../src/server/json-body.ts';
import { documentCheck } from '../../router/trusted/check.ts';
import { openMemoryDb } from '../support/memory-db.ts';
import { accountsServices, ADMIN_TOKEN, call, signIn, wallet } from './harness.ts';
import type { Harness } from './harness.ts';

const Q1 = 'query Top { coins(first: 3) { edges { node { id name } } } }';
const Q2 = 'query Global { global { totalMarketCap(currency: "usd") } }';
const Q3 = 'query Names { coins(first: 5) { edges { node { id symbol } } } }';
const manifest = (...bodies: string[]) =>
  Object.fromEntries(bodies.map((b) => [`sha256:${documentHash(b)}`, b]));

const check = documentCheck();
let h: Harness;
let policies: StoredAppPolicies;
let token: string;

beforeEach(async () => {
  const db = await openMemoryDb();
  const clock = { now: 1_767_225_600_000 };
  const now = () => clock.now;
  const keys = new ApiKeyService(db, { pepper: 'test-pepper-0123456789abcdef', now });
  policies = new StoredAppPolicies(db, { now });
  const apps = new AppService(db, { check, now, onChange: () => policies.forget() });
  const app = Fastify({ bodyLimit: 1_048_576 });
  registerErrorHandling(app);
  strictJsonBodies(app);
  await app.register(accountsApi, {
    prefix: '/api',
    ...accountsServices(db, keys, now),
    adminToken: ADMIN_TOKEN,
    apps,
  });
  await app.ready();
  h = {
    app,
    db,
    keys,
    clock,
    close: async () => {
      await app.close();
      await db.close();
    },
  };
  token = await signIn(h, wallet());
});
afterEach(() => h.close());

async function newKey(t: string, plan = 'free'): Promise<string> {
  const r = await call(h, 'POST', '/api/account/api-keys', { token: t, body: { plan, description: 'dapp' } });
  expect(r.status).toBe(201);
  return r.body.id as string;
}

const put = (url: string, t: string, body: unknown) =>
  h.app.inject({ method: 'PUT', url, headers: { authorization: `Bearer ${t}` }, payload: body as object });

describe('registering an app', () => {
  it('201 with the publish token shown once; the list shows the app, never the token', async () => {
    const key = await newKey(token);
    const r = await call(h, 'POST', '/api/account/apps', {
      token,
      body: { name: 'my-dapp', origins: ['https://app.example.com', 'http://localhost:5173'], keys: [key] },
    });
    expect(r.status).toBe(201);
    expect(r.body.publishToken).toMatch(/^cwp_[A-Za-z0-9_-]{43}$/);
    expect(r.body).toMatchObject({
      name: 'my-dapp',
      origins: ['https://app.example.com', 'http://localhost:5173'],
      keys: [{ id: key, documents: 'any', plan: 'free' }],
      versions: [],
    });
    const list = await call(h, 'GET', '/api/account/apps', { token });
    expect(list.raw.body).not.toContain(r.body.publishToken as string);
    expect((list.body as unknown as { name: string }[]).map((a) => a.name)).toEqual(['my-dapp']);
    // Kept as a hash only.
    const stored = await h.db.query<{ publish_token_hash: string }>('SELECT publish_token_hash FROM apps');
    expect(stored.rows[0]?.publish_token_hash).toMatch(/^[0-9a-f]{64}$/);
  });

  it('400 INVALID_ORIGIN naming an origin not written as a browser sends it', async () => {
    for (const origin of [
      'https://app.example.com/', // a trailing slash
      'https://app.example.com/path',
      'HTTPS://APP.EXAMPLE.COM',
      'https://app.example.com:443', // the default port
      'ftp://files.example.com',
      'app.example.com',
      42,
    ]) {
      const r = await call(h, 'POST', '/api/account/apps', { token, body: { name: 'a', origins: [origin] } });
      expect([r.status, r.code], String(origin)).toEqual([400, 'INVALID_ORIGIN']);
      expect(r.body.error).toMatchObject({ message: expect.stringContaining(String(origin)) });
    }
    const notList = await call(h, 'POST', '/api/account/apps', {
      token,
      body: { name: 'a', origins: 'https://a.example' },
    });
    expect(notList.code).toBe('INVALID_ORIGIN');
  });

  it('refuses a bad name (400), a name taken (409), a key of another account (404) or of another app (409)', async () => {
    expect((await call(h, 'POST', '/api/account/apps', { token, body: { name: 'My App' } })).code).toBe(
      'INVALID_APP_NAME',
    );
    expect((await call(h, 'POST', '/api/account/apps', { token, body: { name: 'a' } })).status).toBe(201);
    expect((await call(h, 'POST', '/api/account/apps', { token, body: { name: 'a' } })).code).toBe(
      'APP_EXISTS',
    );
    const theirs = await newKey(await signIn(h, wallet()));
    const r = await call(h, 'POST', '/api/account/apps', { token, body: { name: 'b', keys: [theirs] } });
    expect([r.status, r.code]).toEqual([404, 'KEY_NOT_FOUND']);
    const mine = await newKey(token);
    expect(
      (await call(h, 'POST', '/api/account/apps', { token, body: { name: 'c', keys: [mine] } })).status,
    ).toBe(201);
    const again = await call(h, 'POST', '/api/account/apps', { token, body: { name: 'd', keys: [mine] } });
    expect([again.status, again.code]).toEqual([409, 'KEY_IN_OTHER_APP']);
    // Nothing of the refused app was written.
    expect((await call(h, 'GET', '/api/account/apps/d', { token })).code).toBe('APP_NOT_FOUND');
  });

  it('401 without a session', async () => {
    expect((await call(h, 'POST', '/api/account/apps', { body: { name: 'a' } })).status).toBe(401);
  });
});

describe('publishing a version', () => {
  let publishToken: string;
  let key: string;
  beforeEach(async () => {
    key = await newKey(token);
    const r = await call(h, 'POST', '/api/account/apps', { token, body: { name: 'dapp', keys: [key] } });
    publishToken = r.body.publishToken as string;
  });
  const publish = (t: string, body: unknown, app = 'dapp') =>
    call(h, 'POST', `/api/account/apps/${app}/versions`, { token: t, body });

  it('201 with a session or the publish token; a repeated version is 409 VERSION_EXISTS; documents stored once', async () => {
    const a = await publish(token, { version: '1.0.0', manifest: manifest(Q1, Q2) });
    expect(a.status).toBe(201);
    expect(a.body).toMatchObject({ version: '1.0.0', active: false, documents: 2 });
    // The manifest as the file's text (what the CLI sends).
    const b = await publish(publishToken, {
      version: '1.1.0',
      manifest: JSON.stringify(manifest(Q2, Q3)),
      activate: true,
    });
    expect([b.status, b.body.active]).toEqual([201, true]);
    const again = await publish(publishToken, { version: '1.0.0', manifest: manifest(Q3) });
    expect([again.status, again.code]).toEqual([409, 'VERSION_EXISTS']);
    const docs = await h.db.query<{ n: number }>('SELECT count(*)::int AS n FROM app_documents');
    expect(docs.rows[0]?.n).toBe(3);
    const view = await call(h, 'GET', '/api/account/apps/dapp', { token });
    expect(view.body.versions).toMatchObject([
      { version: '1.1.0', active: true, documents: 2 },
      { version: '1.0.0', active: false, documents: 2 },
    ]);
  });

  it('refuses the whole version naming the document: invalid against the schema, or over the plan ceiling', async () => {
    const bad = 'query Bad { coins { nope } }';
    const r = await publish(token, { version: '1', manifest: manifest(Q1, bad) });
    expect([r.status, r.code]).toEqual([400, 'DOCUMENT_INVALID']);
    expect(r.body.error).toMatchObject({ message: expect.stringContaining(`sha256:${documentHash(bad)}`) });
    const dear =
      'query Dear { coins(first: 250) { edges { node { id chart(days: 365) { points { time price } } } } } }';
    const c = await publish(token, { version: '1', manifest: manifest(Q1, dear) });
    expect([c.status, c.code]).toEqual([400, 'DOCUMENT_OVER_COST']);
    expect(c.body.error).toMatchObject({ message: expect.stringMatching(/free plan's ceiling of 5000/) });
    // Nothing was written: the version is still free to publish.
    expect((await h.db.query('SELECT * FROM app_documents')).rows).toEqual([]);
    expect((await publish(token, { version: '1', manifest: manifest(Q1) })).status).toBe(201);
  });

  it('400 INVALID_JSON, DOCUMENT_HASH_MISMATCH, INVALID_VERSION; 413 MANIFEST_TOO_LARGE over the limit', async () => {
    expect((await publish(token, { version: '1', manifest: '{ not json' })).code).toBe('INVALID_JSON');
    const mismatch = await publish(token, { version: '1', manifest: { [`sha256:${documentHash(Q2)}`]: Q1 } });
    expect([mismatch.status, mismatch.code]).toEqual([400, 'DOCUMENT_HASH_MISMATCH']);
    expect((await publish(token, { version: '../1', manifest: manifest(Q1) })).code).toBe('INVALID_VERSION');
    const huge = await publish(token, { version: '1', manifest: 'x'.repeat(1024 * 1024 + 1) });
    expect([huge.status, huge.code]).toEqual([413, 'MANIFEST_TOO_LARGE']);
    const body = await publish(token, { version: '1', manifest: 'x'.repeat(3 * 1024 * 1024) });
    expect([body.status, body.code]).toEqual([413, 'MANIFEST_TOO_LARGE']);
  });

  it('a publish token works for its own app only: 401 INVALID_PUBLISH_TOKEN elsewhere', async () => {
    await call(h, 'POST', '/api/account/apps', { token, body: { name: 'other' } });
    const r = await publish(publishToken, { version: '1', manifest: manifest(Q1) }, 'other');
    expect([r.status, r.code]).toEqual([401, 'INVALID_PUBLISH_TOKEN']);
    const forged = await publish(`cwp_${'A'.repeat(43)}`, { version: '1', manifest: manifest(Q1) });
    expect(forged.code).toBe('INVALID_PUBLISH_TOKEN');
    // A rotated token replaces the old one.
    const rotated = await call(h, 'POST', '/api/account/apps/dapp/publish-token', { token });
    expect((await publish(publishToken, { version: '1', manifest: manifest(Q1) })).code).toBe(
      'INVALID_PUBLISH_TOKEN',
    );
    expect(
      (await publish(rotated.body.publishToken as string, { version: '1', manifest: manifest(Q1) })).status,
    ).toBe(201);
  });

  it('the policy the router reads: active versions only, the key policy, the origins', async () => {
    await publish(token, { version: '1', manifest: manifest(Q1) });
    await publish(token, { version: '2', manifest: manifest(Q2) });
    expect((await policies.forKey(key))?.byHash.size).toBe(0);
    const act = await call(h, 'POST', '/api/account/apps/dapp/versions/2/activate', { token: publishToken });
    expect(act.body).toMatchObject({ version: '2', active: true });
    let p = await policies.forKey(key);
    expect([...(p?.byHash.keys() ?? [])]).toEqual([documentHash(Q2)]);
    expect(p?.documents).toBe('any');
    const set = await put(`/api/account/apps/dapp/keys/${key}`, token, { documents: 'trusted-only' });
    expect(set.statusCode).toBe(200);
    const origins = await put('/api/account/apps/dapp/origins', token, { origins: ['https://dapp.example'] });
    expect(origins.statusCode).toBe(200);
    p = await policies.forKey(key);
    expect(p?.documents).toBe('trusted-only');
    expect([...(p?.origins ?? [])]).toEqual(['https://dapp.example']);
    expect(
      (await put(`/api/account/apps/dapp/keys/${key}`, token, { documents: 'some' })).json(),
    ).toMatchObject({
      error: { code: 'INVALID_DOCUMENTS_POLICY' },
    });
    const missing = await call(h, 'POST', '/api/account/apps/dapp/versions/9/activate', { token });
    expect([missing.status, missing.code]).toEqual([404, 'VERSION_NOT_FOUND']);
  });
});
