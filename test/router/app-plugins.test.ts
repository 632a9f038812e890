/**
 * The apps' router plugins on their own (router/plugins/trusted-documents.ts, app-origin.ts), each given a key's
 * policy as the store would answer it: how operations are rewritten, passed on or refused, and when. The store and
 * the real router are covered by test/apps/trusted-only.test.ts.
 */
import { describe, expect, it } from 'vitest';
import type { AppPolicies, KeyPolicy } from '../../src/accounts/app-policy.ts';
import { documentHash } from '../../src/accounts/app-manifest.ts';
import type { Caller } from '../../src/access/access.ts';
import type { ApiKeyRecord } from '../../src/access/key-repo.ts';
import { ApiError } from '../../src/core/errors.ts';
import { appOriginPlugin } from '../../router/plugins/app-origin.ts';
import { trustedDocumentsPlugin } from '../../router/plugins/trusted-documents.ts';
import type { HttpRequestInfo, RawOperation, RequestState, RouterPlugin } from '../../router/plugin.ts';

const LISTED = 'query Global { global { totalMarketCap(currency: "usd") } }';
const HASH = documentHash(LISTED);
const KEY_ID = '7d3c1f0e-1b2a-4c5d-8e9f-0a1b2c3d4e5f';

const policyOf = (documents: KeyPolicy['documents'], origins: string[] = []): KeyPolicy => ({
  app: 'dapp',
  appId: '00000000-0000-4000-8000-00000000a990',
  documents,
  origins: new Set(origins),
  byHash: new Map([[HASH, LISTED]]),
  bodies: new Set([LISTED]),
  versionOf: new Map([[HASH, '1.0.0']]),
  hashOfBody: new Map([[LISTED, HASH]]),
});
const policies = (p: KeyPolicy | null): AppPolicies & { asked: string[] } => {
  const asked: string[] = [];
  return { asked, forKey: async (id) => (asked.push(id), p) };
};

const stateFor = (keyId: string | null): RequestState => ({
  caller: {
    plan: keyId ? 'free' : 'keyless',
    identity: keyId ? `key:${keyId}` : 'ip:127.0.0.1',
    key: keyId ? ({ id: keyId } as ApiKeyRecord) : null,
    limitPerMinute: 600,
  } satisfies Caller,
  headers: {},
});

async function run(
  plugin: RouterPlugin,
  ops: RawOperation[],
  o: { keyId?: string | null; origin?: string } = {},
) {
  const req: HttpRequestInfo = {
    method: 'POST',
    headers: o.origin ? { origin: o.origin } : {},
    query: {},
    socketIp: '127.0.0.1',
    operations: ops,
    batched: ops.length > 1,
  };
  try {
    await plugin.onHttpRequest?.(req, stateFor(o.keyId === undefined ? KEY_ID : o.keyId));
    return { ops: req.operations, error: null };
  } catch (e) {
    if (!(e instanceof ApiError)) throw e;
    return { ops: req.operations, error: { status: e.status, code: e.code } };
  }
}

describe('trusted-documents', () => {
  it('runs an active document by documentId (sha256:<hex> or hex) or APQ hash, for any key of the app', async () => {
    for (const documents of ['any', 'trusted-only'] as const) {
      const plugin = trustedDocumentsPlugin(policies(policyOf(documents)));
      const r = await run(plugin, [
        { documentId: `sha256:${HASH}`, variables: { a: 1 } },
        { documentId: HASH },
        { extensions: { persistedQuery: { version: 1, sha256Hash: HASH }, other: true } },
      ]);
      expect(r.error).toBeNull();
      expect(r.ops).toEqual([
        { query: LISTED, variables: { a: 1 } },
        { query: LISTED },
        { query: LISTED, extensions: { other: true } },
      ]);
    }
  });

  it('trusted-only: an identical body runs; anything else is 400 PERSISTED_QUERY_NOT_IN_LIST', async () => {
    const plugin = trustedDocumentsPlugin(policies(policyOf('trusted-only')));
    expect((await run(plugin, [{ query: LISTED }])).error).toBeNull();
    for (const op of [
      { query: '{ __typename }' },
      { query: `${LISTED}\n` },
      { documentId: `sha256:${'0'.repeat(64)}` },
      { documentId: 'not-a-hash' },
      {},
    ])
      expect((await run(plugin, [op])).error, JSON.stringify(op)).toEqual({
        status: 400,
        code: 'PERSISTED_QUERY_NOT_IN_LIST',
      });
    // A batch is refused whole when one of its operations is not trusted.
    expect((await run(plugin, [{ documentId: HASH }, { query: '{ __typename }' }])).error?.code).toBe(
      'PERSISTED_QUERY_NOT_IN_LIST',
    );
  });

  it('trusted-only, APQ: an unknown hash alone is PERSISTED_QUERY_NOT_FOUND (the client resends the body)', async () => {
    const plugin = trustedDocumentsPlugin(policies(policyOf('trusted-only')));
    const pq = (sha256Hash: string) => ({ extensions: { persistedQuery: { version: 1, sha256Hash } } });
    expect((await run(plugin, [pq('f'.repeat(64))])).error).toEqual({
      status: 400,
      code: 'PERSISTED_QUERY_NOT_FOUND',
    });
    expect(
      (await run(plugin, [{ query: '{ __typename }', ...pq(documentHash('{ __typename }')) }])).error?.code,
    ).toBe('PERSISTED_QUERY_NOT_IN_LIST');
  });

  it('a key that is not trusted-only passes other operations on unchanged (to the operator manifest, the engine)', async () => {
    const plugin = trustedDocumentsPlugin(policies(policyOf('any')));
    const ops = [{ query: '{ __typename }' }, { documentId: `sha256:${'0'.repeat(64)}` }];
    expect(await run(plugin, structuredClone(ops))).toEqual({ ops, error: null });
  });

  it('a key in no app, and a keyless caller, are not looked at further', async () => {
    const none = policies(null);
    expect((await run(trustedDocumentsPlugin(none), [{ query: '{ __typename }' }])).error).toBeNull();
    const some = policies(policyOf('trusted-only'));
    expect(
      (await run(trustedDocumentsPlugin(some), [{ query: '{ __typename }' }], { keyId: null })).error,
    ).toBeNull();
    expect(some.asked).toEqual([]);
  });
});

describe('app-origin', () => {
  const plugin = appOriginPlugin(policies(policyOf('any', ['https://dapp.example'])));

  it('a listed Origin and no Origin pass; another Origin is 403 ORIGIN_NOT_ALLOWED', async () => {
    expect(
      (await run(plugin, [{ query: '{ __typename }' }], { origin: 'https://dapp.example' })).error,
    ).toBeNull();
    expect((await run(plugin, [{ query: '{ __typename }' }])).error).toBeNull();
    for (const origin of ['https://evil.example', 'https://dapp.example:8443', 'http://dapp.example', 'null'])
      expect((await run(plugin, [{ query: '{ __typename }' }], { origin })).error, origin).toEqual({
        status: 403,
        code: 'ORIGIN_NOT_ALLOWED',
      });
  });

  it('an app without origins allows any; a keyless caller is not an app', async () => {
    const open = appOriginPlugin(policies(policyOf('trusted-only')));
    expect((await run(open, [{}], { origin: 'https://anywhere.example' })).error).toBeNull();
    expect((await run(plugin, [{}], { origin: 'https://evil.example', keyId: null })).error).toBeNull();
  });
});
