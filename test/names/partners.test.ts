import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createApiLimiter } from '../../src/access/api-limits.ts';
import { createMemoryLimiter } from '../../src/access/limiter.ts';
import { partnerKeyHash, signPartnerRequest } from '../../src/names/partner-auth.ts';
import {
  ADMIN_TOKEN,
  audit,
  call,
  createPartner,
  harness,
  partnerCall,
  register,
  signIn,
  wallet,
} from './harness.ts';
import type { Harness, PartnerCred } from './harness.ts';

let h: Harness;
let p: PartnerCred;
let q: PartnerCred;
beforeAll(async () => {
  h = await harness();
  p = await createPartner(h, 'Exchange P');
  q = await createPartner(h, 'Exchange Q');
});
afterAll(async () => {
  await h.close();
});

const now = () => Math.floor(h.clock.now / 1000);

describe('partner credentials', () => {
  it('an admin creates one: 201 {id, secret}; only SHA-256 of the secret is stored; audited', async () => {
    const r = await call(h, 'POST', '/api/admin/partners', {
      token: ADMIN_TOKEN,
      body: { name: 'Exchange R' },
    });
    expect(r.status).toBe(201);
    expect(r.body).toMatchObject({ name: 'Exchange R', id: expect.any(String) });
    expect(r.body.secret).toMatch(/^cwp_[A-Za-z0-9_-]{43}$/);
    const rows = await h.db.query<Record<string, unknown>>('SELECT * FROM partners WHERE id = $1', [
      r.body.id,
    ]);
    expect(rows.rows[0]?.key_hash).toBe(partnerKeyHash(r.body.secret as string));
    expect(JSON.stringify(rows.rows)).not.toContain(r.body.secret as string);
    expect(await audit(h.db, r.body.id as string)).toEqual([
      expect.objectContaining({
        action: 'partner.create',
        actor: 'operator',
        entity: 'partner',
        reason: 'Exchange R',
      }),
    ]);
  });

  it('anonymous → 401, a signed-in non-admin → 403, unknown field → 400; nothing created', async () => {
    const before = (await h.db.query('SELECT id FROM partners')).rows.length;
    const anon = await call(h, 'POST', '/api/admin/partners', { body: { name: 'x' } });
    expect([anon.status, anon.code]).toEqual([401, 'AUTH_REQUIRED']);
    const user = await signIn(h);
    const r = await call(h, 'POST', '/api/admin/partners', { token: user.token, body: { name: 'x' } });
    expect([r.status, r.code]).toEqual([403, 'FORBIDDEN']);
    const extra = await call(h, 'POST', '/api/admin/partners', {
      token: ADMIN_TOKEN,
      body: { name: 'x', secret: 's' },
    });
    expect([extra.status, extra.code]).toEqual([400, 'UNKNOWN_FIELD']);
    expect((await h.db.query('SELECT id FROM partners')).rows.length).toBe(before);
  });
});

describe('signed partner requests', () => {
  it('a valid signature registers, links without proof, hides and unlinks; each audited as the partner', async () => {
    const reg = await partnerCall(h, p, 'POST', '/api/partner/names', { name: 'Pat.coin', owner: 'user-42' });
    expect(reg.status).toBe(201);
    expect(reg.body.holder).toEqual({ type: 'partner', partnerId: p.id, ownerRef: 'user-42' });
    const w = wallet('DOGE', 'p2pkh');
    const put = await partnerCall(h, p, 'PUT', '/api/partner/names/pat.coin/addresses/DOGE', {
      address: w.address,
    });
    expect(put.status).toBe(200);
    expect((await call(h, 'GET', '/api/resolve/pat.coin?asset=DOGE')).body.address).toBe(w.address);
    const priv = await partnerCall(h, p, 'PATCH', '/api/partner/names/pat.coin', { private: true });
    expect([priv.status, priv.body.private]).toEqual([200, true]);
    expect((await call(h, 'GET', '/api/resolve/pat.coin?asset=DOGE')).code).toBe('NAME_NOT_FOUND');
    const del = await partnerCall(h, p, 'DELETE', '/api/partner/names/pat.coin/addresses/DOGE');
    expect(del.status).toBe(200);
    expect((await audit(h.db, 'pat')).map((a) => [a.action, a.actor])).toEqual([
      ['name.register', `partner:${p.id}`],
      ['name.link', `partner:${p.id}`],
      ['name.privacy', `partner:${p.id}`],
      ['name.unlink', `partner:${p.id}`],
    ]);
  });

  it('addresses are still validated: wrong network → 400 WRONG_NETWORK', async () => {
    await partnerCall(h, p, 'POST', '/api/partner/names', { name: 'netcheck.coin', owner: 'u' });
    const r = await partnerCall(h, p, 'PUT', '/api/partner/names/netcheck.coin/addresses/LTC', {
      address: wallet('LTC', 'p2wpkh', 'testnet').address,
    });
    expect([r.status, r.code]).toEqual([400, 'WRONG_NETWORK']);
  });

  it('rejections → 401 with their code, and nothing is written', async () => {
    const before = await audit(h.db);
    const body = { name: 'refused.coin', owner: 'u' };
    const path = '/api/partner/names';
    const cases: [string, Promise<Awaited<ReturnType<typeof call>>>, number, string][] = [
      ['no headers', call(h, 'POST', path, { body }), 401, 'PARTNER_AUTH_REQUIRED'],
      [
        'unknown partner',
        partnerCall(h, { id: '00000000-0000-4000-8000-000000000000', secret: p.secret }, 'POST', path, body),
        401,
        'PARTNER_UNKNOWN',
      ],
      ['wrong secret', partnerCall(h, p, 'POST', path, body, { secret: q.secret }), 401, 'PARTNER_SIGNATURE'],
      [
        'body tampered',
        partnerCall(h, p, 'POST', path, body, { signedBody: JSON.stringify({ ...body, owner: 'v' }) }),
        401,
        'PARTNER_SIGNATURE',
      ],
      [
        'path tampered',
        partnerCall(h, p, 'POST', path, body, { signedPath: `${path}?x=1` }),
        401,
        'PARTNER_SIGNATURE',
      ],
      [
        'stale timestamp',
        partnerCall(h, p, 'POST', path, body, { timestamp: now() - 301 }),
        401,
        'PARTNER_TIMESTAMP',
      ],
      [
        'future timestamp',
        partnerCall(h, p, 'POST', path, body, { timestamp: now() + 301 }),
        401,
        'PARTNER_TIMESTAMP',
      ],
      ['malformed nonce', partnerCall(h, p, 'POST', path, body, { nonce: 'short' }), 401, 'PARTNER_NONCE'],
    ];
    for (const [what, res, status, code] of cases) {
      const r = await res;
      expect([what, r.status, r.code]).toEqual([what, status, code]);
    }
    expect(await audit(h.db)).toEqual(before);
    expect((await h.db.query("SELECT 1 FROM names WHERE label = 'refused'")).rows).toEqual([]);
  });

  it('a timestamp at the edge of the window is accepted', async () => {
    const r = await partnerCall(
      h,
      p,
      'POST',
      '/api/partner/names',
      { name: 'edge.coin', owner: 'u' },
      { timestamp: now() - 299 },
    );
    expect(r.status).toBe(201);
  });

  it('a replayed nonce → 401 PARTNER_REPLAY, even for a new, validly signed body; other partners may use it', async () => {
    const nonce = 'replay-nonce-0001';
    const first = await partnerCall(
      h,
      p,
      'POST',
      '/api/partner/names',
      { name: 'once.coin', owner: 'u' },
      { nonce },
    );
    expect(first.status).toBe(201);
    const again = await partnerCall(
      h,
      p,
      'POST',
      '/api/partner/names',
      { name: 'once.coin', owner: 'u' },
      { nonce },
    );
    expect([again.status, again.code]).toEqual([401, 'PARTNER_REPLAY']);
    h.clock.now += 200_000;
    const other = await partnerCall(
      h,
      p,
      'POST',
      '/api/partner/names',
      { name: 'twice.coin', owner: 'u' },
      { nonce },
    );
    expect(other.code).toBe('PARTNER_REPLAY');
    const q1 = await partnerCall(
      h,
      q,
      'POST',
      '/api/partner/names',
      { name: 'qname.coin', owner: 'u' },
      { nonce },
    );
    expect(q1.status).toBe(201);
    expect(await audit(h.db, 'twice')).toEqual([]);
  });

  it("a partner touches only its own names: another partner's or an account's → 403 NAME_NOT_YOURS", async () => {
    await partnerCall(h, p, 'POST', '/api/partner/names', { name: 'ponly.coin', owner: 'u' });
    const acct = await signIn(h);
    await register(h, acct.token, 'acctname.coin');
    const w = wallet('LTC');
    for (const nm of ['ponly.coin', 'acctname.coin']) {
      const put = await partnerCall(h, q, 'PUT', `/api/partner/names/${nm}/addresses/LTC`, {
        address: w.address,
      });
      expect([nm, put.status, put.code]).toEqual([nm, 403, 'NAME_NOT_YOURS']);
      const patch = await partnerCall(h, q, 'PATCH', `/api/partner/names/${nm}`, { private: true });
      expect(patch.code).toBe('NAME_NOT_YOURS');
      const del = await partnerCall(h, q, 'DELETE', `/api/partner/names/${nm}/addresses/LTC`);
      expect(del.code).toBe('NAME_NOT_YOURS');
    }
    // …and an account cannot touch a partner's name.
    const r = await call(h, 'PATCH', '/api/names/ponly.coin', { token: acct.token, body: { private: true } });
    expect([r.status, r.code]).toEqual([403, 'NAME_NOT_YOURS']);
    const taken = await partnerCall(h, q, 'POST', '/api/partner/names', {
      name: 'acctname.coin',
      owner: 'u',
    });
    expect([taken.status, taken.code]).toEqual([409, 'NAME_TAKEN']);
    expect((await audit(h.db, 'ponly')).map((a) => a.action)).toEqual(['name.register']);
  });

  it('bodies are strict and small; other content types are refused', async () => {
    const extra = await partnerCall(h, p, 'POST', '/api/partner/names', {
      name: 'strict.coin',
      owner: 'u',
      private: true,
    });
    expect([extra.status, extra.code]).toEqual([400, 'UNKNOWN_FIELD']);
    const noOwner = await partnerCall(h, p, 'POST', '/api/partner/names', { name: 'strict.coin' });
    expect([noOwner.status, noOwner.code]).toEqual([400, 'INVALID_BODY']);
    const big = await partnerCall(h, p, 'POST', '/api/partner/names', {
      name: 'strict.coin',
      owner: 'x'.repeat(17_000),
    });
    expect([big.status, big.code]).toEqual([413, 'PAYLOAD_TOO_LARGE']);
    // Signed, but not JSON: refused, so no body the signature does not cover can reach a handler.
    const headers = signPartnerRequest({
      partnerId: p.id,
      secret: p.secret,
      method: 'POST',
      path: '/api/partner/names',
      body: 'name=x',
      timestamp: now(),
      nonce: 'text-plain-nonce-1',
    });
    const text = await call(h, 'POST', '/api/partner/names', {
      payload: 'name=x',
      headers: { ...headers, 'content-type': 'text/plain' },
    });
    expect([text.status, text.code]).toEqual([415, 'UNSUPPORTED_MEDIA_TYPE']);
  });
});

describe('partner request bodies', () => {
  it('invalid UTF-8 → 400 INVALID_JSON (checked on the bytes received), nothing registered', async () => {
    const payload = Buffer.concat([
      Buffer.from('{"name":"utf'),
      Buffer.from([0xc3, 0x28]),
      Buffer.from('.coin","owner":"u"}'),
    ]);
    const headers = signPartnerRequest({
      partnerId: p.id,
      secret: p.secret,
      method: 'POST',
      path: '/api/partner/names',
      timestamp: now(),
      nonce: 'utf8-nonce-0123456789',
      body: payload.toString('latin1'),
    });
    const r = await h.app.inject({
      method: 'POST',
      url: '/api/partner/names',
      headers: { ...headers, 'content-type': 'application/json' },
      payload,
    });
    expect([r.statusCode, (r.json() as { error: { code: string } }).error.code]).toEqual([
      400,
      'INVALID_JSON',
    ]);
    expect((await h.db.query("SELECT 1 FROM names WHERE label LIKE 'utf%'")).rows).toEqual([]);
  });
});

describe('partner rate limits (API_RATE_LIMITS partner, sign-in)', () => {
  it('signed requests count per partner; refused ones in the IP’s sign-in bucket (429 once used up)', async () => {
    const limited = await harness({
      limits: {
        limiter: createApiLimiter(createMemoryLimiter(), { partner: 3, 'sign-in': 2 }),
        trustedProxies: [],
      },
    });
    try {
      const a = await createPartner(limited, 'Limited A');
      const b = await createPartner(limited, 'Limited B');
      for (let i = 0; i < 3; i++)
        expect(
          (await partnerCall(limited, a, 'POST', '/api/partner/names', { name: `lim${i}.coin`, owner: 'u' }))
            .status,
        ).toBe(201);
      const over = await partnerCall(limited, a, 'POST', '/api/partner/names', {
        name: 'lim9.coin',
        owner: 'u',
      });
      expect([over.status, over.code]).toEqual([429, 'RATE_LIMITED']);
      expect(over.raw.headers['retry-after']).toMatch(/^\d+$/);
      // Nothing was registered for the refused request; the other partner has its own budget.
      expect((await call(limited, 'GET', '/api/resolve/lim9.coin?asset=LTC')).code).toBe('NAME_NOT_FOUND');
      expect(
        (await partnerCall(limited, b, 'POST', '/api/partner/names', { name: 'limb.coin', owner: 'u' }))
          .status,
      ).toBe(201);
      // Bad signatures: 401 twice, then 429 for this client address.
      const forged = () =>
        partnerCall(
          limited,
          b,
          'POST',
          '/api/partner/names',
          { name: 'forged.coin', owner: 'u' },
          { secret: 'wrong' },
        );
      expect((await forged()).code).toBe('PARTNER_SIGNATURE');
      expect((await forged()).code).toBe('PARTNER_SIGNATURE');
      expect((await forged()).code).toBe('RATE_LIMITED');
    } finally {
      await limited.close();
    }
  });
});
