import Fastify from 'fastify';
import { afterEach, describe, expect, it } from 'vitest';
import { ResponseCache } from '../../src/rest/cache.ts';

/**
 * The price API's answer cache keeps the answers of the newest snapshot only: an answer is served for its own
 * snapshot's version, so those of older ones are dead weight, and kept until pushed out one by one they held the
 * cache's bytes long after the traffic that made them (issue 32, the soak benchmark: bench/README.md).
 */
/** Answers `/e/:id?v=N` at snapshot version N; the build of `slow` at version 1 waits for `hold` (and calls `started`). */
function app(cache: ResponseCache, builds: string[], hold?: { gate: Promise<void>; started: () => void }) {
  const f = Fastify();
  f.get<{ Params: { id: string }; Querystring: { v: string } }>('/e/:id', (req, reply) =>
    cache.send(req, reply, `e:${req.params.id}`, Number(req.query.v), 60, async () => {
      builds.push(`${req.params.id}@${req.query.v}`);
      if (hold && req.params.id === 'slow' && req.query.v === '1') {
        hold.started();
        await hold.gate;
      }
      return { id: req.params.id, v: req.query.v, blob: 'x'.repeat(10_000) };
    }),
  );
  return f;
}

describe('ResponseCache across snapshots', () => {
  let f: ReturnType<typeof app> | null = null;
  afterEach(async () => {
    await f?.close();
    f = null;
  });

  it('drops the answers of older snapshots at the first request for a newer one, and keeps those of none', async () => {
    const cache = new ResponseCache();
    const builds: string[] = [];
    f = app(cache, builds);
    await f.inject('/e/list?v=0');
    for (let i = 0; i < 20; i++) await f.inject(`/e/${i}?v=1`);
    expect(cache.held().entries).toBe(21);
    const full = cache.held().bytes;

    await f.inject('/e/0?v=2');
    expect(cache.held().entries).toBe(2); // the new answer and the one of no snapshot
    expect(cache.held().bytes).toBeLessThan(full / 5);
    await f.inject('/e/list?v=0');
    expect(builds.filter((b) => b === 'list@0')).toHaveLength(1);
  });

  it('does not keep an answer finished for a snapshot a newer one replaced while it was built', async () => {
    const cache = new ResponseCache();
    const builds: string[] = [];
    let open = () => {};
    let started = () => {};
    const building = new Promise<void>((r) => (started = r));
    f = app(cache, builds, { gate: new Promise<void>((r) => (open = r)), started });
    const old = f.inject('/e/slow?v=1');
    await building;
    // Meanwhile the next snapshot's answer is built and kept; then the older build ends.
    expect((await f.inject('/e/slow?v=2')).json()).toMatchObject({ v: '2' });
    open();
    expect((await old).json()).toMatchObject({ v: '1' });

    // The newer answer is the one kept: asked again it is not built again.
    expect((await f.inject('/e/slow?v=2')).json()).toMatchObject({ v: '2' });
    expect(builds).toEqual(['slow@1', 'slow@2']);
    expect(cache.held().entries).toBe(1);
  });
});
