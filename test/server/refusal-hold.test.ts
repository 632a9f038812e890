/**
 * A 429 to a caller who keeps asking before its `Retry-After` is held before it is sent (`src/server/every-response.ts`
 * over `src/access/refusal-pace.ts`): the grace's refusals go at once, later ones wait, other callers and other
 * answers never do, and closing the server sends what is held at once.
 */
import Fastify from 'fastify';
import type { FastifyInstance } from 'fastify';
import { afterEach, describe, expect, it } from 'vitest';
import { RefusalPace } from '../../src/access/refusal-pace.ts';
import { noteRequest } from '../../src/core/request-notes.ts';
import { everyResponse } from '../../src/server/every-response.ts';

let app: FastifyInstance | null = null;
afterEach(async () => {
  await app?.close();
  app = null;
});

async function appWith(pace: RefusalPace): Promise<FastifyInstance> {
  app = Fastify();
  everyResponse(app, pace);
  app.get('/limited', async (req, reply) => {
    const key = req.headers['x-key'];
    if (typeof key === 'string') noteRequest(req.raw, { keyId: key, refusal: 'RATE_LIMITED' });
    return reply
      .code(429)
      .header('retry-after', '60')
      .send({ error: { code: 'RATE_LIMITED' } });
  });
  app.get('/ok', async () => ({ ok: true }));
  return app;
}

/** A request's status and how long its answer took, ms. */
async function timed(a: FastifyInstance, url: string, headers: Record<string, string> = {}) {
  const t0 = performance.now();
  const res = await a.inject({ url, headers: { 'x-forwarded-for': '203.0.113.9', ...headers } });
  return {
    status: res.statusCode,
    ms: performance.now() - t0,
    nosniff: res.headers['x-content-type-options'],
  };
}

describe('held refusals', () => {
  it('past the grace, a caller’s refusals are held; other callers and other answers are not', async () => {
    const a = await appWith(new RefusalPace({ grace: 2, holdMs: 400 }));
    const first = [await timed(a, '/limited'), await timed(a, '/limited')];
    expect(first.map((r) => r.status)).toEqual([429, 429]);
    expect(Math.max(...first.map((r) => r.ms))).toBeLessThan(200);
    const third = await timed(a, '/limited');
    expect(third).toMatchObject({ status: 429, nosniff: 'nosniff' });
    expect(third.ms).toBeGreaterThanOrEqual(380);
    // A key is a caller of its own (the inject's socket address is the same for all).
    expect((await timed(a, '/limited', { 'x-key': 'k1' })).ms).toBeLessThan(200);
    // Answers other than 429 are never held.
    expect((await timed(a, '/ok')).ms).toBeLessThan(200);
  });

  it('closing the server sends the held refusals at once', async () => {
    const pace = new RefusalPace({ grace: 0, holdMs: 30_000 });
    const a = await appWith(pace);
    const held = timed(a, '/limited');
    await new Promise((r) => setTimeout(r, 50));
    expect(pace.holding()).toBe(1);
    const t0 = performance.now();
    await a.close();
    app = null;
    expect((await held).status).toBe(429);
    expect(performance.now() - t0).toBeLessThan(1_000);
    expect(pace.holding()).toBe(0);
  });
});
