import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ADMIN_TOKEN, call, harness, signIn, wallet } from './harness.ts';
import type { Harness } from './harness.ts';

let h: Harness;
let token: string;
let w: ReturnType<typeof wallet>;
beforeAll(async () => {
  h = await harness();
  w = wallet();
  token = await signIn(h, w);
});
afterAll(async () => {
  await h.close();
});

const ZERO = '00000000-0000-4000-8000-000000000000';
/** Every endpoint that takes a body, with a valid one and the token it needs. */
const WRITES: [url: string, body: Record<string, unknown>, auth: 'session' | 'operator' | 'none'][] = [
  ['/api/auth/challenge', { address: wallet().address }, 'none'],
  ['/api/auth/session', { address: wallet().address, signature: 'x' }, 'none'],
  ['/api/account/api-keys', { description: 'd', plan: 'free' }, 'session'],
  [`/api/account/api-keys/${ZERO}/revoke`, {}, 'session'],
  ['/api/admin/api-keys', { plan: 'free' }, 'operator'],
  [`/api/admin/api-keys/${ZERO}/approve`, {}, 'operator'],
  [`/api/admin/api-keys/${ZERO}/reject`, { reason: 'r' }, 'operator'],
  [`/api/admin/api-keys/${ZERO}/revoke`, {}, 'operator'],
  ['/api/admin/admins', { address: wallet().address }, 'operator'],
  ['/api/admin/admins/revoke', { address: wallet().address }, 'operator'],
];
const tokenFor = (auth: 'session' | 'operator' | 'none') =>
  auth === 'session' ? { token } : auth === 'operator' ? { token: ADMIN_TOKEN } : {};

describe('request bodies', () => {
  it.each(WRITES)('%s: an unknown field → 400 UNKNOWN_FIELD naming it', async (url, body, auth) => {
    const r = await call(h, 'POST', url, { ...tokenFor(auth), body: { ...body, isAdmin: true } });
    expect([r.status, r.code]).toEqual([400, 'UNKNOWN_FIELD']);
    expect((r.body.error as { message: string }).message).toContain('"isAdmin"');
  });

  it.each(WRITES)(
    '%s: malformed JSON → 400 INVALID_JSON, a non-object → 400 INVALID_BODY',
    async (url, _b, auth) => {
      const bad = await call(h, 'POST', url, { ...tokenFor(auth), payload: '{"plan": "free",' });
      expect([bad.status, bad.code]).toEqual([400, 'INVALID_JSON']);
      for (const payload of ['[]', '"free"', '42']) {
        const r = await call(h, 'POST', url, { ...tokenFor(auth), payload });
        expect([r.status, r.code]).toEqual([400, 'INVALID_BODY']);
      }
    },
  );

  it('invalid UTF-8 in a body → 400 INVALID_JSON, never decoded with replacement characters and stored', async () => {
    const bytes = (...parts: (string | number[])[]) =>
      Buffer.concat(parts.map((p) => (typeof p === 'string' ? Buffer.from(p) : Buffer.from(p))));
    const keysBefore = (await h.db.query('SELECT id FROM api_keys')).rows.length;
    for (const bad of [
      [0xff, 0xfe],
      [0xc0, 0xaf],
      [0xed, 0xa0, 0x80],
      [0xe2, 0x82],
    ]) {
      const r = await h.app.inject({
        method: 'POST',
        url: '/api/account/api-keys',
        headers: { 'content-type': 'application/json', authorization: `Bearer ${token}` },
        payload: bytes('{"description":"price widget ', bad, '","plan":"free"}'),
      });
      expect([r.statusCode, (r.json() as { error: { code: string } }).error.code]).toEqual([
        400,
        'INVALID_JSON',
      ]);
      expect((r.json() as { error: { message: string } }).error.message).toMatch(/must be valid UTF-8/);
    }
    expect((await h.db.query('SELECT id FROM api_keys')).rows.length).toBe(keysBefore);
    // Valid UTF-8 beyond ASCII is kept exactly.
    const ok = await h.app.inject({
      method: 'POST',
      url: '/api/account/api-keys',
      headers: { 'content-type': 'application/json', authorization: `Bearer ${token}` },
      payload: bytes('{"description":"café 🚀 ', [0xe2, 0x82, 0xac], '","plan":"free"}'),
    });
    expect(ok.statusCode).toBe(201);
    expect((ok.json() as { description: string }).description).toBe('café 🚀 €');
  });

  it.each(WRITES)('%s: a body over 16 KiB → 413 PAYLOAD_TOO_LARGE', async (url, body, auth) => {
    const r = await call(h, 'POST', url, { ...tokenFor(auth), body: { ...body, pad: 'x'.repeat(17_000) } });
    expect([r.status, r.code]).toEqual([413, 'PAYLOAD_TOO_LARGE']);
    expect((r.body.error as { message: string }).message).toContain('16 KiB');
  });

  it('wrong types and lengths → 400 INVALID_BODY naming the field', async () => {
    const cases: [Record<string, unknown>, string][] = [
      [{ description: 5, plan: 'free' }, 'description'],
      [{ description: 'd', plan: 'gold' }, 'plan'],
      [{ description: 'd', plan: ['free'] }, 'plan'],
      [{ plan: 'free' }, 'description'],
      [{ description: '   ', plan: 'free' }, 'description'],
      [{ description: 'x'.repeat(501), plan: 'free' }, 'description'],
      [{ description: 'nul \u0000 inside', plan: 'free' }, 'description'],
      [{ description: { $gt: '' }, plan: 'free' }, 'description'],
    ];
    for (const [body, field] of cases) {
      const r = await call(h, 'POST', '/api/account/api-keys', { token, body });
      expect([r.status, r.code, (r.body.error as { message: string }).message.split(' ')[0]]).toEqual([
        400,
        'INVALID_BODY',
        field,
      ]);
    }
    const limit = await call(h, 'POST', '/api/admin/api-keys', {
      token: ADMIN_TOKEN,
      body: { plan: 'enterprise', limitPerMinute: '100' },
    });
    expect([limit.status, limit.code]).toEqual([400, 'INVALID_BODY']);
    const approve = await call(h, 'POST', '/api/admin/api-keys', {
      token: ADMIN_TOKEN,
      body: { plan: 'free', approve: 'yes' },
    });
    expect([approve.status, approve.code]).toEqual([400, 'INVALID_BODY']);
  });

  it('a body that is not JSON → 415; a prototype-poisoning key → 400', async () => {
    const text = await call(h, 'POST', '/api/account/api-keys', {
      token,
      payload: 'description=d&plan=free',
      contentType: 'application/x-www-form-urlencoded',
    });
    expect(text.status).toBe(415);
    const proto = await call(h, 'POST', '/api/account/api-keys', {
      token,
      payload: '{"description":"d","plan":"free","__proto__":{"role":"admin"}}',
    });
    expect(proto.status).toBe(400);
  });

  it('stores and returns injection strings verbatim', async () => {
    const nasty = [
      "'; DROP TABLE api_keys; --",
      '<script>alert(document.cookie)</script>',
      '{{7*7}} ${process.env.ADMIN_TOKEN} %s%n',
      'Robert"); DELETE FROM accounts WHERE ("1"="1',
      '💥 multi\nline\ttext',
    ];
    for (const description of nasty) {
      const created = await call(h, 'POST', '/api/account/api-keys', {
        token,
        body: { description, plan: 'free' },
      });
      expect(created.status).toBe(201);
      expect(created.body.description).toBe(description);
      const got = await call(h, 'GET', `/api/account/api-keys/${created.body.id as string}`, { token });
      expect(got.body.description).toBe(description);
      const reason = `${description} (rejected)`;
      await call(h, 'POST', `/api/admin/api-keys/${created.body.id as string}/reject`, {
        token: ADMIN_TOKEN,
        body: { reason },
      });
      const list = await call(h, 'GET', '/api/account/api-keys', { token });
      const row = (list.body as unknown as { id: string; rejectionReason: string }[]).find(
        (k) => k.id === created.body.id,
      );
      expect(row?.rejectionReason).toBe(reason);
    }
    // The tables are all still there.
    expect((await h.db.query('SELECT count(*) FROM accounts')).rows).toHaveLength(1);
    expect((await call(h, 'GET', '/api/account/me', { token })).status).toBe(200);
  });

  it('endpoints without fields accept an empty body', async () => {
    const id = (
      await call(h, 'POST', '/api/admin/api-keys', {
        token: ADMIN_TOKEN,
        body: { plan: 'free', approve: true },
      })
    ).body.id as string;
    const r = await h.app.inject({
      method: 'POST',
      url: `/api/admin/api-keys/${id}/revoke`,
      headers: { authorization: `Bearer ${ADMIN_TOKEN}` },
    });
    expect(r.statusCode).toBe(200);
  });
});
