/**
 * The router's `/graphql` as third-party software sees it, over real HTTP on loopback (the embedded graph listening
 * on a port): graphql-http's full server audit as it ships (`auditServer`: every request at once, keyless; every
 * MUST and SHOULD passes, and the MAYs we chose, docs/graph.md "GraphQL over HTTP"). The clients developers use, each
 * on its defaults with no fetch wrapper: `clients.test.ts` (Node) and `test/browser/clients.e2e.ts` (Chromium).
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
