/**
 * In-flight deduplication (`router/inflight.ts`): identical queries arriving while one executes share its answer;
 * each request still passes its own key and budget checks and carries its own budget headers. Mutations, other
 * sessions and other plans never share. The markets subgraph is held at a gate until every request of a test has
 * arrived, so the overlap is certain.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createAccess } from '../../src/access/access.ts';
import { createMemoryLimiter } from '../../src/access/limiter.ts';
import { createRouter } from '../../router/index.ts';
import type { Router } from '../../router/index.ts';
import type { Subgraph } from '../../subgraphs/shared/subgraph.ts';
import { signIn, wallet } from '../accounts/harness.ts';
import { graphHarness } from './router-harness.ts';
import type { GqlBody, GraphHarness } from './router-harness.ts';

let g: GraphHarness;
/** Subgraph contexts made per subgraph (one per executed router request that reached it). */
const made: Record<string, number> = {};
/** Resolves the markets subgraph's pending contexts. */
let release: () => void = () => {};
let gate: Promise<void> = Promise.resolve();
const hold = () => {
  gate = new Promise((resolve) => (release = resolve));
};

const routers: Router[] = [];
async function routerWith(dedupe: boolean): Promise<Router> {
  const subgraphs = g.subgraphs.map((sg): Subgraph<unknown> => ({
    ...sg,
    contextFor: async (req) => {
      made[sg.name] = (made[sg.name] ?? 0) + 1;
      if (sg.name === 'markets') await gate;
      return sg.contextFor(req);
    },
  }));
  const r = await createRouter({
    access: createAccess({ keys: g.rest.keys, limiter: createMemoryLimiter() }),
    subgraphs: { kind: 'in-process', subgraphs },
    responseCache: false,
    dedupe,
  });
  routers.push(r);
  return r;
}

beforeAll(async () => {
  g = await graphHarness();
}, 120_000);
afterAll(async () => {
  for (const r of routers) await r.stop();
  await g?.close();
});

let ip = 0;
async function ask(r: Router, query: string, headers: Record<string, string> = {}) {
  const res = await r.handle({
    method: 'POST',
    headers: { 'content-type': 'application/json', ...headers },
    search: '',
    body: { query },
    socketIp: `10.91.0.${++ip}`,
  });
  return { status: res.status, headers: res.headers, body: res.body, json: JSON.parse(res.body) as GqlBody };
}

/** Sends all at once behind the gate, opens it once all have been handed to the router, waits for the answers. */
async function together<T>(sends: (() => Promise<T>)[]): Promise<T[]> {
  hold();
  const all = Promise.all(sends.map((s) => s()));
  await new Promise((resolve) => setTimeout(resolve, 150));
  release();
  return all;
}

const NESTED = `{ coin(id: "bitcoin") { id price } bridge { coins { ticker coin { id price } } } }`;

describe('in-flight deduplication', () => {
  it('identical queries execute once; every caller gets the answer, its own budget headers and its own count', async () => {
    const r = await routerWith(true);
    const keys = await Promise.all([1, 2, 3, 4, 5, 6].map(() => g.makeKey('pro')));
    for (const k of Object.keys(made)) made[k] = 0;
    const shared0 = r.dedupedOperations();
    const answers = await together(keys.map((k) => () => ask(r, NESTED, { 'x-sp-api-key': k.key })));
    expect(answers.map((a) => a.status)).toEqual(keys.map(() => 200));
    expect(new Set(answers.map((a) => a.body)).size).toBe(1);
    expect(answers[0]?.json.data?.['coin']).toMatchObject({ id: 'bitcoin' });
    expect(made['markets']).toBe(1);
    expect(r.dedupedOperations() - shared0).toBe(keys.length - 1);
    // Each key was admitted on its own budget: one request used of the pro plan's 3,000 a minute.
    expect(answers.map((a) => a.headers['x-ratelimit-remaining'])).toEqual(keys.map(() => '2999'));
    expect(answers.map((a) => a.headers['x-api-plan'])).toEqual(keys.map(() => 'pro'));
  });

  it('off: every request executes', async () => {
    const r = await routerWith(false);
    for (const k of Object.keys(made)) made[k] = 0;
    const answers = await together([1, 2, 3, 4].map(() => () => ask(r, NESTED)));
    expect(new Set(answers.map((a) => a.body)).size).toBe(1);
    expect(made['markets']).toBe(4);
    expect(r.dedupedOperations()).toBe(0);
  });

  it('never shares across plans (the cost ceiling and extensions.cost differ) nor across sessions', async () => {
    const r = await routerWith(true);
    const enterprise = await g.makeKey('enterprise');
    const [a, b] = await Promise.all([signIn(g.rest, wallet()), signIn(g.rest, wallet())]);
    const q = `{ me { id address } coin(id: "litecoin") { id } }`;
    const shared0 = r.dedupedOperations();
    const answers = await together([
      () => ask(r, NESTED),
      () => ask(r, NESTED, { 'x-sp-api-key': enterprise.key }),
      () => ask(r, q, { authorization: `Bearer ${a}` }),
      () => ask(r, q, { authorization: `Bearer ${b}` }),
    ]);
    expect(r.dedupedOperations()).toBe(shared0);
    expect(answers.map((x) => (x.json.extensions?.['cost'] as { plan: string }).plan)).toEqual([
      'keyless',
      'enterprise',
      'keyless',
      'keyless',
    ]);
    const me = answers.slice(2).map((x) => (x.json.data?.['me'] as { id: string }).id);
    expect(new Set(me).size).toBe(2);
  });

  it('never shares a mutation: each gets its own sign-in challenge', async () => {
    const r = await routerWith(true);
    const w = wallet();
    const m = `mutation { requestSignInChallenge(address: "${w.address}") { nonce } markets: __typename }`;
    const shared0 = r.dedupedOperations();
    const answers = await Promise.all([1, 2, 3].map(() => ask(r, m)));
    expect(r.dedupedOperations()).toBe(shared0);
    const nonces = answers.map((x) => (x.json.data?.['requestSignInChallenge'] as { nonce: string }).nonce);
    expect(new Set(nonces).size).toBe(3);
  });
});
