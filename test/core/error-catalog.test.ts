/**
 * `errorCatalog` (`src/core/errors.ts`): one constructor of `ApiError` per entry, its parts fixed or made from the
 * constructor's arguments; `catalogEntries` describes a catalog for the code table. And the access module's refusal,
 * which is an `ApiError` carrying whom it counts against.
 */
import { describe, expect, it } from 'vitest';
import { AccessRefusal, accessErrors } from '../../src/access/errors.ts';
import { ApiError, catalogEntries, errorCatalog } from '../../src/core/errors.ts';

const sample = errorCatalog('sample', {
  fixed: {
    status: 404,
    code: 'THING_NOT_FOUND',
    message: 'no such thing',
    headers: { 'cache-control': 'no-cache' },
  },
  made: {
    status: 400,
    code: 'BAD_THING',
    message: (name: string, n: number) => `${name} has ${n} parts: at most 3 are allowed`,
    graphMessage: (name: string) => `${name} in the graph's terms`,
    headers: (_name: string, n: number) => ({ 'x-parts': String(n) }),
    extensions: (_name: string, n: number) => ({ parts: n }),
  },
});

describe('errorCatalog', () => {
  it('makes an ApiError per entry, from fixed parts', () => {
    const e = sample.fixed();
    expect(e).toBeInstanceOf(ApiError);
    expect([e.status, e.code, e.message, e.headers, e.graphMessage]).toEqual([
      404,
      'THING_NOT_FOUND',
      'no such thing',
      { 'cache-control': 'no-cache' },
      undefined,
    ]);
    expect(e.toBody()).toEqual({ error: { code: 'THING_NOT_FOUND', message: 'no such thing' } });
    expect(e.extensions).toEqual({});
  });

  it('makes each part from the constructor arguments', () => {
    const e = sample.made('wheel', 5);
    expect(e.message).toBe('wheel has 5 parts: at most 3 are allowed');
    expect(e.headers).toEqual({ 'x-parts': '5' });
    expect(e.toGraphQL()).toEqual({
      message: "wheel in the graph's terms",
      extensions: { code: 'BAD_THING', parts: 5, http: { status: 400, headers: { 'x-parts': '5' } } },
    });
    // A new error each time: one answer's headers are never another's.
    expect(sample.made('a', 1)).not.toBe(sample.made('a', 1));
  });

  it('describes its entries in order, with their area; other objects have none', () => {
    expect(catalogEntries(sample).map((e) => [e.area, e.name, e.status, e.code])).toEqual([
      ['sample', 'fixed', 404, 'THING_NOT_FOUND'],
      ['sample', 'made', 400, 'BAD_THING'],
    ]);
    expect(catalogEntries({ fixed: () => new ApiError(400, 'X', 'x') })).toEqual([]);
    // The constructors are the catalog's only enumerable members (catalog sweeps call each).
    expect(Object.keys(sample)).toEqual(['fixed', 'made']);
  });
});

describe('AccessRefusal', () => {
  it('is an ApiError with the catalog entry, its own headers, and the plan and key it counts against', () => {
    const headers = { 'retry-after': '7', 'x-ratelimit-limit': '30' };
    const r = new AccessRefusal(accessErrors.rateLimited(30, 'free', 7), {
      headers,
      plan: 'free',
      keyId: 'k1',
    });
    expect(r).toBeInstanceOf(ApiError);
    expect(r).toMatchObject({
      ok: false,
      status: 429,
      code: 'RATE_LIMITED',
      headers,
      plan: 'free',
      keyId: 'k1',
    });
    expect(r.message).toBe(
      'rate limit of 30 requests per minute reached for this API key (free plan): retry after 7 s',
    );
    expect(r.toBody()).toEqual({ error: { code: 'RATE_LIMITED', message: r.message } });
    expect(r.toGraphQL().extensions).toEqual({ code: 'RATE_LIMITED', http: { status: 429, headers } });
  });

  it("keeps the entry's headers when given none, and counts as keyless when given no plan", () => {
    const r = new AccessRefusal(accessErrors.tooManySubscriptions('keyless', 2));
    expect(r.headers).toEqual({ 'retry-after': '1' });
    expect([r.plan, r.keyId]).toEqual([undefined, undefined]);
    expect(r.message).toBe(
      '2 open subscriptions at once is the most for requests without an API key from this address: end one before opening another',
    );
  });
});
