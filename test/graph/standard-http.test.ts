/**
 * The router's `/graphql` as third-party software sees it, over real HTTP on loopback (the embedded graph listening
 * on a port): graphql-http's full server audit as it ships (`auditServer`: every request at once, keyless; every
 * MUST and SHOULD passes, and the MAYs we chose, docs/graph.md "GraphQL over HTTP"). The clients developers use, each
 * on its defaults with no fetch wrapper: `clients.test.ts` (Node) and `test/browser/clients.e2e.ts` (Chromium).
 *
 * And, on the same listening graph (issue 33, item 2): a POST's body is parsed once and never serialised again on its
 * way to the runtime (every `JSON.parse`/`JSON.stringify` watched while one request is answered, those holding a
 * marker only its query text holds counted), and the request's head is read once across `refuseEarly` and `handle`.
 */
import { auditServer } from 'graphql-http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { GraphHarness } from './router-harness.ts';
import { listeningGraph } from './support/router-http.ts';

let g: GraphHarness;
let url: string;

beforeAll(async () => {
  ({ g, url } = await listeningGraph());
}, 120_000);

afterAll(async () => {
  await g?.close();
});

describe('graphql-http audit of /graphql', () => {
  it('passes every MUST, SHOULD and MAY audit, run as it ships (all at once, keyless)', async () => {
    // graphql-http's own runner: every audit's request at once (61), from one address without a key. Over the
    // caller's places in flight, the rest wait their turn (CONCURRENCY_QUEUE) instead of being refused.
    const results = await auditServer({ url });
    const level = (l: string) => results.filter((r) => r.name.startsWith(`${l} `));
    // The whole audit ran (graphql-http 1.23: 13 MUST, 23 SHOULD, 25 MAY).
    expect([level('MUST').length, level('SHOULD').length, level('MAY').length]).toEqual([13, 23, 25]);
    expect(results.filter((r) => r.status !== 'ok').map((r) => `${r.name}: ${r.reason}`)).toEqual([]);
  }, 60_000);
});

/** Sends `body` and counts the parses and serialisations of any text holding `marker` while it is answered. */
async function counted(body: string, marker: string, headers: Record<string, string> = {}) {
  const { parse, stringify } = JSON;
  const seen = { parsed: 0, serialised: 0 };
  JSON.parse = ((text: string, reviver?: Parameters<typeof parse>[1]) => {
    if (typeof text === 'string' && text.includes(marker)) seen.parsed++;
    return parse(text, reviver);
  }) as typeof JSON.parse;
  JSON.stringify = ((...args: Parameters<typeof stringify>) => {
    const out = stringify(...args);
    if (typeof out === 'string' && out.includes(marker)) seen.serialised++;
    return out;
  }) as typeof JSON.stringify;
  let res: Response;
  let text: string;
  try {
    res = await fetch(url, {
      method: 'POST',
      headers: { 'content-type': 'application/json', ...headers },
      body,
    });
    text = await res.text();
  } finally {
    JSON.parse = parse;
    JSON.stringify = stringify;
  }
  return { status: res.status, text, ...seen };
}

describe('a POST body on its way through the router', () => {
  it('is parsed once and not serialised again (a query that is not deduplicated)', async () => {
    // A mutation never joins another execution, so nothing builds an in-flight key from it.
    const marker = 'bodyOnceMarkerMutation';
    const body = JSON.stringify({
      query: `mutation ${marker} { requestSignInChallenge(address: "not an address") { nonce } }`,
    });
    const r = await counted(body, marker);
    expect(r.status).toBeLessThan(500);
    expect(r.parsed).toBe(1);
    expect(r.serialised).toBe(0);
  });

  it('is parsed once; a query is written once more, as its in-flight deduplication key', async () => {
    const marker = 'bodyOnceMarkerQuery';
    const body = JSON.stringify({
      query: `query ${marker}($id: ID!) { coin(id: $id) { id } }`,
      variables: { id: 'bitcoin' },
    });
    const r = await counted(body, marker);
    expect(r.status).toBe(200);
    expect(JSON.parse(r.text)).toMatchObject({ data: { coin: { id: 'bitcoin' } } });
    expect(r.parsed).toBe(1);
    expect(r.serialised).toBe(1);
  });
});

describe("a request's head", () => {
  it('is read once across refuseEarly and handle, as the HTTP transport calls them', async () => {
    let reads = 0;
    const headers = new Proxy<Record<string, string>>(
      { 'content-type': 'application/json', accept: 'application/json' },
      {
        ownKeys(target) {
          reads++;
          return Reflect.ownKeys(target);
        },
      },
    );
    const req = { method: 'POST', headers, search: '', socketIp: '127.0.0.9' };
    const early = await g.router.refuseEarly(req);
    if (!('caller' in early)) throw new Error(`refused: ${early.refused.body}`);
    const res = await g.router.handle({
      ...req,
      body: { query: '{ coin(id: "bitcoin") { id } }' },
      caller: early.caller,
      head: early.head,
    });
    expect(JSON.parse(res.body)).toMatchObject({ data: { coin: { id: 'bitcoin' } } });
    expect(reads).toBe(1);
  });
});
