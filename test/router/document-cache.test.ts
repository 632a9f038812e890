/**
 * The runtime's parsed documents are kept within a bound of bytes (`router/engines/document-cache.ts`), in place of
 * graphql-yoga's own cache (1,024 documents for an hour, by count only): in a real Yoga, as Hive Gateway's runtime
 * makes one, and through the router, whose runtime must have had Yoga's cache removed.
 */
import type { DocumentNode } from 'graphql';
import { createSchema, createYoga } from 'graphql-yoga';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { documentCache } from '../../router/engines/document-cache.ts';
import { freshIp, startRouterGraph } from '../graph/support/router.ts';
import type { RouterGraph } from '../graph/support/router.ts';

const schema = createSchema({ typeDefs: 'type Query { hello(n: Int): String }', resolvers: {} });

/** A Yoga with the cache, and the documents each execution ran (to tell a kept document from a new parse). */
function yogaWith(maxBytes: number) {
  const cache = documentCache(maxBytes);
  const executed: DocumentNode[] = [];
  const spy = {
    onExecute: ({ args }: { args: { document: DocumentNode } }) => void executed.push(args.document),
  };
  const yoga = createYoga({ schema, plugins: [cache.plugin as never, spy as never], logging: false });
  const ask = async (query: string) => {
    const r = await yoga.fetch('http://yoga/graphql', {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ query }),
    });
    return (await r.json()) as { data?: unknown; errors?: { message: string }[] };
  };
  return { cache, executed, ask };
}

describe('parsed documents', () => {
  it('replace Yoga’s cache: one parse per text, validation errors as Yoga gives them', async () => {
    const { cache, executed, ask } = yogaWith(1024 * 1024);
    expect(cache.stats().replacedYoga).toBe(true);
    await ask('{ hello(n: 1) }');
    await ask('{ hello(n: 1) }');
    expect(executed).toHaveLength(2);
    expect(executed[0]).toBe(executed[1]);
    const bad = await ask('{ nope }');
    expect(bad.errors?.[0]?.message).toBe('Cannot query field "nope" on type "Query".');
    expect((await ask('{ nope }')).errors).toEqual(bad.errors);
    expect(cache.stats().documents).toBe(2);
  });

  it('stay within their bound of bytes, however many distinct documents come', async () => {
    const maxBytes = 40 * 1024;
    const { cache, ask } = yogaWith(maxBytes);
    const padding = ' '.repeat(60);
    for (let i = 0; i < 200; i++) await ask(`{ hello(n: ${i}) ${padding} }`);
    const { documents, bytes } = cache.stats();
    expect(bytes).toBeLessThanOrEqual(maxBytes);
    expect(documents).toBeGreaterThan(0);
    expect(documents).toBeLessThan(200);
  });
});

describe('the router’s runtime', () => {
  let t: RouterGraph;
  beforeAll(async () => {
    t = await startRouterGraph();
  }, 120_000);
  afterAll(async () => {
    await t?.close();
  });

  it('keeps its documents in the bounded cache, not in Yoga’s', async () => {
    const before = t.g.router.parsedDocuments().documents;
    const r = await t.g.gql('{ coin(id: "litecoin") { id } }', { ip: freshIp() });
    expect(r.body.data).toEqual({ coin: { id: 'litecoin' } });
    const after = t.g.router.parsedDocuments();
    expect(after.replacedYoga).toBe(true);
    expect(after.documents).toBe(before + 1);
    expect(after.bytes).toBeGreaterThan(0);
  });
});
