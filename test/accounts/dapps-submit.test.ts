import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  as,
  auditRows,
  code,
  dappBody,
  dappFixture,
  get,
  HOUR,
  message,
  post,
  submitted,
  T0,
} from './dapps-fixture.ts';
import type { Fixture } from './dapps-fixture.ts';

let f: Fixture;
beforeAll(async () => {
  f = await dappFixture();
});
afterAll(async () => {
  await f.close();
});

const DAY = 24 * HOUR;

describe('POST /api/account/dapps: validation', () => {
  const long = (n: number) => 'x'.repeat(n);
  const cases: [string, Record<string, unknown>, string, RegExp][] = [
    ['name missing', { name: undefined }, 'INVALID_NAME', /^name is required/],
    ['name blank', { name: '   ' }, 'INVALID_NAME', /^name is required/],
    ['name not a string', { name: 7 }, 'INVALID_NAME', /^name /],
    ['name of 81 characters', { name: long(81) }, 'INVALID_NAME', /^name must be at most 80/],
    ['name with a line break', { name: 'a\nb' }, 'INVALID_NAME', /^name must not contain control/],
    ['site missing', { site: undefined }, 'INVALID_SITE', /^site is required/],
    ['site over http', { site: 'http://dapp.example/' }, 'INVALID_SITE', /^site must be an https:\/\//],
    ['site not a URL', { site: 'dapp.example' }, 'INVALID_SITE', /^site must be an https:\/\//],
    ['site javascript:', { site: 'javascript:alert(1)' }, 'INVALID_SITE', /^site must be an https:\/\//],
    [
      'site without slashes',
      { site: 'https:dapp.example' },
      'INVALID_SITE',
      /^site must be written as a URL parser writes it .*: https:\/\/dapp\.example\/$/,
    ],
    [
      'site with credentials',
      { site: 'https://u:p@dapp.example/' },
      'INVALID_SITE',
      /^site must not contain a user/,
    ],
    [
      'site with a space',
      { site: 'https://dapp.example/a b' },
      'INVALID_SITE',
      /^site must not contain quotes, spaces/,
    ],
    [
      'site too long',
      { site: `https://dapp.example/${long(2040)}` },
      'INVALID_SITE',
      /^site must be at most 2048/,
    ],
    ['icon missing', { icon: undefined }, 'INVALID_ICON', /^icon is required/],
    ['icon data URI', { icon: 'data:image/png;base64,AAAA' }, 'INVALID_ICON', /^icon must be an https:\/\//],
    ['icon over ftp', { icon: 'ftp://dapp.example/i.png' }, 'INVALID_ICON', /^icon must be an https:\/\//],
    ['description missing', { description: undefined }, 'INVALID_DESCRIPTION', /^description is required/],
    [
      'description of 2001',
      { description: long(2001) },
      'INVALID_DESCRIPTION',
      /^description must be at most 2000/,
    ],
    [
      'description with NUL',
      { description: 'a\u0000b' },
      'INVALID_DESCRIPTION',
      /^description must not contain/,
    ],
    [
      'description lone surrogate',
      { description: 'a\ud800b' },
      'INVALID_DESCRIPTION',
      /^description must not/,
    ],
    [
      'contactEmail missing',
      { contactEmail: undefined },
      'INVALID_CONTACT_EMAIL',
      /^contactEmail is required/,
    ],
    [
      'contactEmail without @',
      { contactEmail: 'team.example.com' },
      'INVALID_CONTACT_EMAIL',
      /^contactEmail must/,
    ],
    [
      'contactEmail without dot',
      { contactEmail: 'team@localhost' },
      'INVALID_CONTACT_EMAIL',
      /^contactEmail must/,
    ],
    [
      'contactEmail with space',
      { contactEmail: 'a b@example.com' },
      'INVALID_CONTACT_EMAIL',
      /^contactEmail must/,
    ],
    // A mailto: query smuggled in front of a real-looking address, and every character that means something in a URL.
    ...[
      '?cc=victim%40x.example&body=hi@evil.example',
      'team%40x.example@evil.example',
      'a&b@example.com',
      'a#b@example.com',
      'a/b@example.com',
      'a=b@example.com',
      'a?b@example.com',
      'a..b@example.com',
      '.ab@example.com',
      'ab.@example.com',
      `${'a'.repeat(65)}@example.com`,
    ].map((contactEmail): [string, Record<string, unknown>, string, RegExp] => [
      `contactEmail ${contactEmail.slice(0, 30)}`,
      { contactEmail },
      'INVALID_CONTACT_EMAIL',
      /^contactEmail must be an e-mail address such as dev@example.com \(letters, digits/,
    ]),
    ['chains missing', { chains: undefined }, 'INVALID_CHAINS', /^chains is required/],
    ['chains empty', { chains: [] }, 'INVALID_CHAINS', /^chains is required: a non-empty array/],
    ['chains a string', { chains: 'LTC' }, 'INVALID_CHAINS', /^chains is required/],
    ['chains unsupported', { chains: ['LTC', 'ETH'] }, 'INVALID_CHAINS', /^chains\[1\] must be .*got "ETH"/],
    ['chains lowercase', { chains: ['ltc'] }, 'INVALID_CHAINS', /^chains\[0\] must be an uppercase ticker/],
    ['chains repeated', { chains: ['LTC', 'SOL', 'LTC'] }, 'INVALID_CHAINS', /^chains\[2\] repeats LTC/],
    ['chains not strings', { chains: [1] }, 'INVALID_CHAINS', /^chains\[0\] must be/],
    ['an unknown field', { website: 'https://x.example' }, 'UNKNOWN_FIELD', /^unknown field "website"/],
  ];

  it.each(cases)('%s → 400 naming the field', async (_label, over, expectedCode, expectedMessage) => {
    const a = await f.account();
    const r = await post(f.app, '/api/account/dapps', dappBody('v', over), as(a));
    expect(r.statusCode).toBe(400);
    expect(code(r)).toBe(expectedCode);
    expect(message(r)).toMatch(expectedMessage);
    expect((await get(f.app, '/api/account/dapps', as(a))).json()).toEqual([]);
  });

  it('refuses a body that is not a JSON object, and one over 16 KiB', async () => {
    const a = await f.account();
    const arr = await post(f.app, '/api/account/dapps', [dappBody(1)], as(a));
    expect([arr.statusCode, code(arr)]).toEqual([400, 'INVALID_BODY']);
    const text = await f.app.inject({
      method: 'POST',
      url: '/api/account/dapps',
      headers: { ...as(a), 'content-type': 'text/plain' },
      payload: 'name=x',
    });
    // Fastify reads text/plain as a string: not a JSON object either.
    expect([text.statusCode, code(text)]).toEqual([400, 'INVALID_BODY']);
    const big = await post(
      f.app,
      '/api/account/dapps',
      dappBody(1, { description: 'x'.repeat(17_000) }),
      as(a),
    );
    expect([big.statusCode, code(big)]).toEqual([413, 'PAYLOAD_TOO_LARGE']);
    expect(message(big)).toMatch(/16 KiB/);
  });

  it('asks for a session before reading the body', async () => {
    const r = await f.app.inject({
      method: 'POST',
      url: '/api/account/dapps',
      headers: { 'content-type': 'application/json' },
      payload: '{not json',
    });
    expect([r.statusCode, code(r)]).toEqual([401, 'AUTH_REQUIRED']);
    expect((await get(f.app, '/api/account/dapps')).statusCode).toBe(401);
  });

  it('accepts every supported chain, SOL included, and counts characters, not UTF-16 units', async () => {
    const a = await f.account();
    const all = ['LTC', 'DOGE', 'SOL'];
    const r = await post(
      f.app,
      '/api/account/dapps',
      dappBody('ok', { chains: all, name: '🚀'.repeat(80) }),
      as(a),
    );
    expect(r.statusCode).toBe(201);
    expect(r.json()).toMatchObject({ chains: all, name: '🚀'.repeat(80), status: 'submitted' });
  });

  it('writes no audit row for a refused request', async () => {
    const before = (await auditRows(f.db)).length;
    const a = await f.account();
    await post(f.app, '/api/account/dapps', dappBody('bad', { chains: [] }), as(a));
    expect(await auditRows(f.db)).toHaveLength(before);
  });
});

describe('POST /api/account/dapps: created', () => {
  it('returns the request as submitted, audits it, and lists it for its owner only', async () => {
    f.clock.now = T0;
    const [a, b] = [await f.account(), await f.account()];
    const r = await post(f.app, '/api/account/dapps', dappBody(1, { chains: ['SOL', 'LTC'] }), as(a));
    expect(r.statusCode).toBe(201);
    const d = r.json() as Record<string, unknown>;
    expect(d).toEqual({
      id: expect.stringMatching(/^[0-9a-f-]{36}$/),
      accountId: a.id,
      name: 'Dapp 1',
      site: 'https://dapp1.example/',
      origin: 'https://dapp1.example',
      icon: 'https://dapp1.example/icon.png',
      description: 'Dapp number 1',
      contactEmail: 'team1@example.com',
      chains: ['SOL', 'LTC'],
      status: 'submitted',
      reviewNotes: null,
      createdAt: T0,
      reviewedAt: null,
    });
    expect(await auditRows(f.db, d.id as string)).toEqual([
      {
        actor: `account:${a.id}`,
        action: 'dapp.submit',
        entity: 'dapp',
        entity_id: d.id,
        from_state: null,
        to_state: 'submitted',
        reason: null,
        at: T0,
      },
    ]);
    expect((await get(f.app, '/api/account/dapps', as(a))).json()).toEqual([d]);
    expect((await get(f.app, '/api/account/dapps', as(b))).json()).toEqual([]);
  });

  it('keeps every text field verbatim, injection strings included', async () => {
    const a = await f.account();
    const body = {
      name: `Robert'); DROP TABLE dapps;-- $1 \\' "x" <b>`,
      // URLs as the parser writes them (a quote or `<` in a URL is refused: test/accounts/dapp-input.test.ts).
      site: `https://inj.example/?q=%27;DROP%20TABLE%20dapps;--&x=%3Cscript%3E`,
      icon: `https://inj.example/i.png?$1=%27)--`,
      description: `<script>alert(1)</script>\n'; DELETE FROM dapps; --\t$$ \\x00 {"a":1} ${'%'}s`,
      contactEmail: `o'brien+--$1@example.com`,
      chains: ['LTC'],
    };
    const id = await submitted(f, a, body);
    const [mine] = (await get(f.app, '/api/account/dapps', as(a))).json() as Record<string, unknown>[];
    expect(mine).toMatchObject({ id, ...body, origin: 'https://inj.example' });
    // The table and the other requests are still there.
    const n = await f.db.query<{ n: number }>('SELECT count(*)::int AS n FROM dapps');
    expect(n.rows[0]?.n).toBeGreaterThan(1);
  });
});

describe('three requests per account per rolling 24 hours', () => {
  it('refuses the fourth with 429, Retry-After and the time of the next, and allows one once the oldest leaves', async () => {
    const a = await f.account();
    const other = await f.account();
    for (const [i, at] of [T0, T0 + HOUR, T0 + 2 * HOUR].entries()) {
      f.clock.now = at;
      await submitted(f, a, dappBody(`w${i}`));
    }
    f.clock.now = T0 + 3 * HOUR;
    const audits = (await auditRows(f.db)).length;
    const fourth = await post(f.app, '/api/account/dapps', dappBody('w3'), as(a));
    expect([fourth.statusCode, code(fourth)]).toEqual([429, 'DAPP_LIMIT_REACHED']);
    expect(fourth.headers['retry-after']).toBe(String(21 * 3600));
    expect(message(fourth)).toContain(new Date(T0 + DAY).toISOString());
    expect(await auditRows(f.db)).toHaveLength(audits);
    expect((await get(f.app, '/api/account/dapps', as(a))).json()).toHaveLength(3);

    // Another account is not limited by this one.
    expect((await post(f.app, '/api/account/dapps', dappBody('o1'), as(other))).statusCode).toBe(201);

    // One millisecond before the oldest leaves: still refused, Retry-After rounds up to 1.
    f.clock.now = T0 + DAY - 1;
    const early = await post(f.app, '/api/account/dapps', dappBody('w4'), as(a));
    expect([early.statusCode, early.headers['retry-after']]).toEqual([429, '1']);

    // The oldest has left the window: one more is allowed, then the next waits for the second oldest.
    f.clock.now = T0 + DAY;
    expect((await post(f.app, '/api/account/dapps', dappBody('w5'), as(a))).statusCode).toBe(201);
    const again = await post(f.app, '/api/account/dapps', dappBody('w6'), as(a));
    expect(again.statusCode).toBe(429);
    expect(again.headers['retry-after']).toBe(String(3600));
    expect(message(again)).toContain(new Date(T0 + HOUR + DAY).toISOString());
  });

  it('lets exactly three of six concurrent submissions through', async () => {
    f.clock.now = T0 + 10 * DAY;
    const a = await f.account();
    const rs = await Promise.all(
      Array.from({ length: 6 }, (_, i) => post(f.app, '/api/account/dapps', dappBody(`c${i}`), as(a))),
    );
    expect(rs.map((r) => r.statusCode).sort()).toEqual([201, 201, 201, 429, 429, 429]);
    expect((await get(f.app, '/api/account/dapps', as(a))).json()).toHaveLength(3);
  });
});
