/**
 * Trusted-documents manifests as published for an app version (src/accounts/app-manifest.ts) and the check of each
 * document against the API schema and the cost model (router/trusted/check.ts): both shapes, the limits, the hash
 * rule, and the committed client's own documents as a real manifest.
 */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { MANIFEST_MAX_BYTES, MANIFEST_MAX_DOCUMENTS } from '../../src/accounts/app-errors.ts';
import { documentHash, hashOfId, parseTrustedManifest } from '../../src/accounts/app-manifest.ts';
import { ApiError } from '../../src/core/errors.ts';
import { documentCheck } from '../../router/trusted/check.ts';

const CLIENT_MANIFEST = readFileSync('clients/graph/generated/persisted-documents.json', 'utf8');
const Q1 = 'query Top { coins(first: 3) { edges { node { id name } } } }';
const Q2 = 'query Global { global { totalMarketCap(currency: "usd") } }';

function refusal(f: () => unknown): { status: number; code: string; message: string } {
  try {
    f();
  } catch (e) {
    if (e instanceof ApiError) return { status: e.status, code: e.code, message: e.message };
    throw e;
  }
  throw new Error('expected a refusal');
}

describe('parseTrustedManifest', () => {
  it("reads the client preset's persisted-documents.json: every id is sha256:<hex of its body>", () => {
    const want = JSON.parse(CLIENT_MANIFEST) as Record<string, string>;
    const docs = parseTrustedManifest(CLIENT_MANIFEST);
    expect(docs.length).toBe(Object.keys(want).length);
    for (const d of docs) {
      expect(want[d.id]).toBe(d.body);
      expect(d.id).toBe(`sha256:${d.hash}`);
      expect(d.hash).toBe(documentHash(d.body));
    }
  });

  it("reads Apollo's manifest (bare hex ids, names kept), as text or as parsed JSON", () => {
    const apollo = {
      format: 'apollo-persisted-query-manifest',
      version: 1,
      operations: [
        { id: documentHash(Q1), name: 'Top', type: 'query', body: Q1 },
        { id: documentHash(Q2), name: 'Global', type: 'query', body: Q2 },
      ],
    };
    const docs = parseTrustedManifest(apollo);
    expect(docs.map((d) => [d.name, d.hash])).toEqual([
      ['Top', documentHash(Q1)],
      ['Global', documentHash(Q2)],
    ]);
    expect(parseTrustedManifest(JSON.stringify(apollo))).toEqual(docs);
  });

  it('a body listed twice is one document', () => {
    const m = { [`sha256:${documentHash(Q1)}`]: Q1, [documentHash(Q1)]: Q1 };
    expect(parseTrustedManifest(m)).toHaveLength(1);
  });

  it('refuses text that is not JSON: 400 INVALID_JSON', () => {
    expect(refusal(() => parseTrustedManifest('{"sha256:ab": '))).toMatchObject({
      status: 400,
      code: 'INVALID_JSON',
    });
  });

  it('refuses more than 1 MiB of JSON: 413 MANIFEST_TOO_LARGE (text and object alike)', () => {
    const big = 'query Big { global { totalMarketCap(currency: "usd") } }' + ' '.repeat(MANIFEST_MAX_BYTES);
    const m = { [`sha256:${documentHash(big)}`]: big };
    expect(refusal(() => parseTrustedManifest(JSON.stringify(m)))).toMatchObject({
      status: 413,
      code: 'MANIFEST_TOO_LARGE',
    });
    expect(refusal(() => parseTrustedManifest(m))).toMatchObject({ status: 413, code: 'MANIFEST_TOO_LARGE' });
  });

  it(`refuses more than ${MANIFEST_MAX_DOCUMENTS} documents: 400 TOO_MANY_DOCUMENTS`, () => {
    const m: Record<string, string> = {};
    for (let i = 0; i <= MANIFEST_MAX_DOCUMENTS; i++) {
      const body = `query Q${i} { __typename }`;
      m[`sha256:${documentHash(body)}`] = body;
    }
    const r = refusal(() => parseTrustedManifest(m));
    expect(r).toMatchObject({ status: 400, code: 'TOO_MANY_DOCUMENTS' });
    expect(r.message).toContain(String(MANIFEST_MAX_DOCUMENTS + 1));
  });

  it('refuses an id that is not the hash of its body, naming it: 400 DOCUMENT_HASH_MISMATCH', () => {
    const wrong = `sha256:${documentHash(Q2)}`;
    const r = refusal(() => parseTrustedManifest({ [`sha256:${documentHash(Q1)}`]: Q1, [wrong]: Q1 }));
    expect(r).toMatchObject({ status: 400, code: 'DOCUMENT_HASH_MISMATCH' });
    expect(r.message).toContain(wrong);
    expect(r.message).toContain(documentHash(Q1));
    // An id of another form (a name, an md5) is no hash of the body either.
    expect(refusal(() => parseTrustedManifest({ Top: Q1 })).code).toBe('DOCUMENT_HASH_MISMATCH');
  });

  it('refuses other shapes and empty manifests: 400 INVALID_MANIFEST saying what was expected', () => {
    for (const bad of [
      [],
      'null',
      { a: 1 },
      {},
      { format: 'apollo-persisted-query-manifest', version: 2, operations: [] },
    ])
      expect(refusal(() => parseTrustedManifest(bad))).toMatchObject({
        status: 400,
        code: 'INVALID_MANIFEST',
      });
    expect(
      refusal(() =>
        parseTrustedManifest({
          format: 'apollo-persisted-query-manifest',
          version: 1,
          operations: [{ id: 'x' }],
        }),
      ).message,
    ).toContain('operations[0] needs string "id" and "body"');
  });

  it('hashOfId: sha256:<hex> and bare hex name a hash; anything else does not', () => {
    const h = documentHash(Q1);
    expect(hashOfId(`sha256:${h}`)).toBe(h);
    expect(hashOfId(h)).toBe(h);
    expect(hashOfId(h.toUpperCase())).toBeNull();
    expect(hashOfId('sha1:abc')).toBeNull();
  });
});

describe('documentCheck (the API schema and the cost model)', () => {
  const check = documentCheck();

  it("passes every document of the committed client, with the router's estimate", () => {
    for (const d of parseTrustedManifest(CLIENT_MANIFEST)) {
      const r = check(d.body);
      expect(r, d.id).toMatchObject({ ok: true });
      expect((r as { cost: number }).cost).toBeGreaterThanOrEqual(0);
    }
  });

  it('prices a list by its slicing argument: 250 coins cost more than 3', () => {
    const small = check(Q1);
    const large = check(Q1.replace('first: 3', 'first: 250'));
    expect(small.ok && large.ok).toBe(true);
    if (small.ok && large.ok) expect(large.cost).toBeGreaterThan(small.cost * 50);
  });

  it('refuses a document that does not parse or does not validate, with the reason', () => {
    expect(check('{ coins { id ')).toMatchObject({
      ok: false,
      reason: expect.stringContaining('Syntax Error'),
    });
    expect(check('{ nope }')).toMatchObject({
      ok: false,
      reason: expect.stringContaining('Cannot query field "nope"'),
    });
  });
});
