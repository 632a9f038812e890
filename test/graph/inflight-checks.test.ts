/**
 * In-flight deduplication joins a request only after that caller's own checks (issue 33): while an identical query
 * executes, a request with an unusable key, a spent request budget or an operation its app's safelist refuses gets
 * its own refusal, not the shared answer; a request that passes them joins. The markets subgraph is held at a gate
 * until every request has arrived, so the overlap is certain. The apps' policy is given in memory (the store behind
 * it is test/accounts/app-policy.test.ts's).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createAccess } from '../../src/access/access.ts';
import { createMemoryLimiter } from '../../src/access/limiter.ts';
import type { AppPolicies, KeyPolicy } from '../../src/accounts/app-policy.ts';
import { createRouter } from '../../router/index.ts';
import type { Router } from '../../router/index.ts';
import type { Subgraph } from '../../subgraphs/shared/subgraph.ts';
import { graphHarness } from './router-harness.ts';
import type { GqlBody, GraphHarness } from './router-harness.ts';

let g: GraphHarness;
let router: Router;
let release: () => void = () => {};
let gate: Promise<void> = Promise.resolve();
/** Markets contexts made: one per execution that reached the subgraph. */
let executions = 0;
/** The key whose app accepts only its trusted documents (none of which is the query sent here). */
let trustedOnly: { key: string; id: string };

const QUERY = `{ coin(id: "bitcoin") { id price } }`;

beforeAll(async () => {
  g = await graphHarness();
  trustedOnly = await g.makeKey('enterprise');
  const policy: KeyPolicy = {
    app: 'dapp',
    appId: '00000000-0000-4000-8000-00000000a991',
    documents: 'trusted-only',
    origins: new Set(),
    byHash: new Map(),
    bodies: new Set(),
    versionOf: new Map(),
    hashOfBody: new Map(),
  };
  const apps: AppPolicies = { forKey: async (id) => (id === trustedOnly.id ? policy : null) };
  const subgraphs = g.subgraphs.map((sg): Subgraph<unknown> => ({
    ...sg,
    contextFor: async (req) => {
      if (sg.name === 'markets') {
        executions++;
        await gate;
      }
      return sg.contextFor(req);
    },
  }));
  router = await createRouter({
    access: createAccess({ keys: g.rest.keys, limiter: createMemoryLimiter() }),
    apps,
    subgraphs: { kind: 'in-process', subgraphs },
    responseCache: false,
    dedupe: true,
  });
}, 120_000);
afterAll(async () => {
  await router?.stop();
  await g?.close();
});

async function ask(headers: Record<string, string>) {
  const res = await router.handle({
    method: 'POST',
    headers: { 'content-type': 'application/json', ...headers },
    search: '',
    body: { query: QUERY },
    socketIp: '10.92.0.1',
  });
  const json = JSON.parse(res.body) as GqlBody;
  return { status: res.status, code: json.errors?.[0]?.extensions?.['code'], json };
}

describe('in-flight deduplication after the caller’s own checks', () => {
  it('a bad key, a spent budget and a refused document are refused while the identical query executes', async () => {
    const first = await g.makeKey('enterprise');
    const joiner = await g.makeKey('enterprise');
    const spent = await g.makeKey('enterprise', { limitPerMinute: 1 });
    expect((await ask({ 'x-sp-api-key': spent.key })).status).toBe(200); // its one request of the minute
    executions = 0;
    const shared0 = router.dedupedOperations();
    gate = new Promise((resolve) => (release = resolve));
    const running = ask({ 'x-sp-api-key': first.key });
    // The first request has reached the markets subgraph: its execution is in flight.
    while (executions === 0) await new Promise((resolve) => setImmediate(resolve));
    const [unknown, overBudget, notTrusted] = await Promise.all([
      ask({ 'x-sp-api-key': `${first.key.slice(0, -4)}zzzz` }),
      ask({ 'x-sp-api-key': spent.key }),
      ask({ 'x-sp-api-key': trustedOnly.key }),
    ]);
    const joined = ask({ 'x-sp-api-key': joiner.key });
    await new Promise((resolve) => setTimeout(resolve, 50));
    release();
    const [a, b] = await Promise.all([running, joined]);
    expect([unknown.status, unknown.code]).toEqual([401, 'API_KEY_UNKNOWN']);
    expect([overBudget.status, overBudget.code]).toEqual([429, 'RATE_LIMITED']);
    expect([notTrusted.status, notTrusted.code]).toEqual([400, 'PERSISTED_QUERY_NOT_IN_LIST']);
    for (const r of [unknown, overBudget, notTrusted]) expect(r.json.data).toBeUndefined();
    // A caller that passes its checks joins: one execution for the two answers.
    expect([a.status, b.status]).toEqual([200, 200]);
    expect(b.json.data).toEqual(a.json.data);
    expect(executions).toBe(1);
    expect(router.dedupedOperations() - shared0).toBe(1);
  });
});
