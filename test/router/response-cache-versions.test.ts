import { describe, expect, it } from 'vitest';
import { createResponseCache } from '../../router/response-cache.ts';
import type { SourceContext } from '../../router/sources/source.ts';
import type { Subgraph } from '../../subgraphs/shared/subgraph.ts';

/**
 * The embedded router's response cache keeps the entries of the current snapshot only: a stale entry is never
 * served, and kept until newer entries pushed it out it held the cache's bytes long after the burst of large answers
 * that made it (issue 32, the soak benchmark: bench/README.md).
 */

/** A subgraph whose answers are all versioned by `version.now` (the markets subgraph's facet, reduced). */
function markets(version: { now: object }): Subgraph<unknown> {
  return {
    name: 'markets',
    responseCache: { current: () => version.now, readBy: () => version.now },
  } as unknown as Subgraph<unknown>;
}

/** What the engine hands `store` after a request that read the markets subgraph only. */
const readMarkets = (): SourceContext =>
  ({ subgraphContexts: new Map([['markets', Promise.resolve({})]]) }) as unknown as SourceContext;

describe('response cache across versions', () => {
  it('drops the entries of a past snapshot at the first lookup after it is replaced', async () => {
    const version = { now: {} };
    const cache = createResponseCache([markets(version)]);
    for (let i = 0; i < 10; i++) await cache.store(`q${i}`, { i }, readMarkets(), 1_000);
    expect(cache.stats()).toMatchObject({ entries: 10, size: 10 * (1_000 + 2) });
    expect(cache.lookup('q3')).toEqual({ i: 3 });

    version.now = {};
    expect(cache.lookup('other')).toBeNull();
    expect(cache.stats()).toMatchObject({ entries: 0, size: 0 });
    expect(cache.lookup('q3')).toBeNull();
  });

  it('does not keep an answer whose snapshot was replaced while it ran', async () => {
    const version = { now: {} };
    const readAt = version.now; // what the request read
    const sg = {
      name: 'markets',
      responseCache: { current: () => version.now, readBy: () => readAt },
    } as unknown as Subgraph<unknown>;
    const cache = createResponseCache([sg]);
    version.now = {}; // a tick, between the request's read and the engine's store of its answer
    await cache.store('q', { late: true }, readMarkets(), 100);
    expect(cache.stats()).toMatchObject({ entries: 0, stored: 0 });
  });
});
