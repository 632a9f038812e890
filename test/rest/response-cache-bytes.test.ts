import { randomBytes } from 'node:crypto';
import Fastify from 'fastify';
import { afterEach, describe, expect, it } from 'vitest';
import { ResponseCache } from '../../src/rest/cache.ts';

/**
 * The price API's answer cache holds a bounded number of bytes, not only of entries: varied chart requests (coins ×
 * currencies × days) each leave an answer of ~100 KB, and 5,000 of them held half a gigabyte (the soak benchmark,
 * bench/README.md). Each answer here is incompressible, so its compressed variants weigh as much as its body.
 */
function app(cache: ResponseCache, builds: string[]) {
  const f = Fastify();
  f.get<{ Params: { id: string }; Querystring: { kb?: string } }>('/e/:id', (req, reply) =>
    cache.send(req, reply, `e:${req.params.id}`, 1, 60, () => {
      builds.push(req.params.id);
      return { id: req.params.id, blob: randomBytes(Number(req.query.kb ?? 100) * 768).toString('base64') };
    }),
  );
  return f;
}

describe('ResponseCache byte bound', () => {
  let f: ReturnType<typeof app> | null = null;
  afterEach(async () => {
    await f?.close();
    f = null;
  });

  it('lets go of the least recently used answers past its bytes, well before its entry cap', async () => {
    const builds: string[] = [];
    f = app(new ResponseCache(5_000, undefined, 4 * 1024 * 1024), builds);
    for (let i = 0; i < 100; i++) expect((await f.inject(`/e/${i}`)).statusCode).toBe(200); // ~10 MB of answers
    expect(builds).toHaveLength(100);
    await f.inject('/e/99'); // the latest: still held
    expect(builds).toHaveLength(100);
    await f.inject('/e/0'); // the first: let go, built again
    expect(builds).toHaveLength(101);
  });

  it('counts the compressed variants made after an answer was kept', async () => {
    const builds: string[] = [];
    f = app(new ResponseCache(5_000, undefined, 4 * 1024 * 1024), builds);
    // 30 answers of ~100 KB: 3 MB of bodies fit; with a brotli and a gzip variant each (incompressible), 9 MB do not.
    for (let i = 0; i < 30; i++) {
      await f.inject({ url: `/e/${i}`, headers: { 'accept-encoding': 'br' } });
      const gz = await f.inject({ url: `/e/${i}`, headers: { 'accept-encoding': 'gzip' } });
      expect(gz.headers['content-encoding']).toBe('gzip');
    }
    expect(builds).toHaveLength(30);
    await f.inject('/e/0');
    expect(builds).toHaveLength(31);
  });

  it('serves an answer larger than an eighth of the bound without keeping it, and keeps the others', async () => {
    const builds: string[] = [];
    f = app(new ResponseCache(5_000, undefined, 4 * 1024 * 1024), builds);
    await f.inject('/e/small?kb=10');
    const big = await f.inject('/e/big?kb=700');
    expect(big.statusCode).toBe(200);
    expect(big.body.length).toBeGreaterThan(512 * 1024);
    await f.inject('/e/big?kb=700');
    await f.inject('/e/small?kb=10');
    expect(builds).toEqual(['small', 'big', 'big']);
  });
});
