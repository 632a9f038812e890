/**
 * The router's usage per document (router/index.ts, docs/apps.md "Usage per document"): how each request for a
 * document of the key's app is counted (`UsageRecorder.operation`: ok, error, refused, its measured cost), on the
 * embedded graph (router-harness.ts) with a key's app policy given as the store would answer it. The whole path, store
 * and reads included, is test/apps/usage.test.ts.
 */
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import type { AppPolicies, KeyPolicy } from '../../src/accounts/app-policy.ts';
import { documentHash } from '../../src/accounts/app-manifest.ts';
import type { OperationOutcome, OperationRef } from '../../src/access/usage.ts';
import { ADMIN_TOKEN, signIn, wallet } from '../accounts/harness.ts';
import { graphHarness } from '../graph/router-harness.ts';
import type { GraphHarness } from '../graph/router-harness.ts';

const LISTED = 'query Global($currency: String! = "usd") { global { totalMarketCap(currency: $currency) } }';
const HASH = documentHash(LISTED);
const APP_ID = '00000000-0000-4000-8000-00000000a991';
const policy: KeyPolicy = {
  app: 'dapp',
  appId: APP_ID,
  documents: 'any',
  origins: new Set(['https://dapp.example']),
  byHash: new Map([[HASH, LISTED]]),
  bodies: new Set([LISTED]),
  versionOf: new Map([[HASH, '1.0.0']]),
  hashOfBody: new Map([[LISTED, HASH]]),
};
const DOC: OperationRef = { kind: 'document', hash: HASH, appId: APP_ID, version: '1.0.0' };

let g: GraphHarness;
let key: string;
let keyId: string;
let owner: string;
const counted: [string, OperationRef, OperationOutcome, number][] = [];

/** A POST to the graph with the key; the counts it added. */
async function send(body: object, headers: Record<string, string> = {}) {
  counted.length = 0;
  const r = await g.app.inject({
    method: 'POST',
    url: '/graphql',
    headers: { 'content-type': 'application/json', 'x-sp-api-key': key, ...headers },
    payload: JSON.stringify(body),
  });
  return { status: r.statusCode, body: JSON.parse(r.body) as { errors?: unknown[] }, counted: [...counted] };
}

beforeAll(async () => {
  const apps: AppPolicies = { forKey: async (id) => (id === keyId ? policy : null) };
  g = await graphHarness({ usage: { flushIntervalMs: 3_600_000 }, apps });
  owner = await signIn(g.rest, wallet());
  const req = await g.gql(
    'mutation { requestApiKey(plan: ENTERPRISE, description: "usage per document") { key apiKey { id } } }',
    {
      headers: { authorization: `Bearer ${owner}` },
    },
  );
  const created = req.body.data?.['requestApiKey'] as { key: string; apiKey: { id: string } };
  key = created.key;
  keyId = created.apiKey.id;
  const approved = await g.gql(`mutation { approveApiKey(id: "${keyId}", limitPerMinute: 8) { status } }`, {
    headers: { authorization: `Bearer ${ADMIN_TOKEN}` },
  });
  expect(approved.body.errors, JSON.stringify(approved.body.errors)).toBeUndefined();
  const usage = g.usage;
  if (!usage) throw new Error('the harness records usage');
  const operation = usage.operation.bind(usage);
  vi.spyOn(usage, 'operation').mockImplementation((...args) => {
    counted.push(args);
    operation(...args);
  });
}, 180_000);

afterAll(async () => {
  await g?.close();
});

describe('usage per document at the router', () => {
  it('an answer is ok with its measured cost, by documentId and by identical body', async () => {
    const byId = await send({ documentId: `sha256:${HASH}` });
    expect(byId.status).toBe(200);
    expect(byId.counted).toEqual([[keyId, DOC, 'ok', expect.any(Number)]]);
    expect(byId.counted[0]?.[3]).toBeGreaterThan(0);
    expect((await send({ query: LISTED })).counted).toEqual([[keyId, DOC, 'ok', expect.any(Number)]]);
  });

  it('GraphQL errors beside the answer, or a 4xx after admission, are errors', async () => {
    const badVariable = await send({ documentId: HASH, variables: { currency: 7 } });
    expect(badVariable.body.errors).toBeDefined();
    expect(badVariable.counted).toEqual([[keyId, DOC, 'error', 0]]);
    const unknownName = await send({ documentId: HASH, operationName: 'NotThere' });
    expect(unknownName.status).toBeGreaterThanOrEqual(400);
    expect(unknownName.counted).toEqual([[keyId, DOC, 'error', 0]]);
  });

  it('an operation that is not a document of the app is not counted', async () => {
    const r = await send({ query: '{ __typename }' });
    expect(r.status).toBe(200);
    expect(r.counted).toEqual([]);
  });

  it("refusals by the app's origin and by the key's rate limit are refusals, at no cost", async () => {
    const origin = await send({ documentId: HASH }, { origin: 'https://evil.example' });
    expect(origin.status).toBe(403);
    expect(origin.counted).toEqual([[keyId, DOC, 'refused', 0]]);
    let limited: Awaited<ReturnType<typeof send>> | undefined;
    for (let i = 0; i < 10 && limited?.status !== 429; i++) limited = await send({ documentId: HASH });
    expect(limited?.status).toBe(429);
    expect(limited?.counted).toEqual([[keyId, DOC, 'refused', 0]]);
  });

  it("a revoked key's request is refused before its body is read: not counted under the document", async () => {
    const revoked = await g.gql(`mutation { revokeApiKey(id: "${keyId}") { status } }`, {
      headers: { authorization: `Bearer ${owner}` },
    });
    expect(revoked.body.errors).toBeUndefined();
    const r = await send({ documentId: HASH });
    expect(r.status).toBe(401);
    expect(r.counted).toEqual([]);
  });
});
