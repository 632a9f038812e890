/**
 * The kit's `subscribePrices` against the real router over loopback (GraphQL over SSE, the persisted
 * `KitLivePrices` document under a safelist of the kit's documents), fed by the test market's ticks: the first
 * event, a tick's change merged into the picture, reconnection with backoff after the server cut every connection,
 * a refused key stopping it for good, unsubscribe ending the server's stream. And the pure parts: the event-stream
 * parser across chunk boundaries, the backoff's bounds, the arguments refused before any call.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createSDK, KitError } from '../../src/kit/index.ts';
import type { LivePrices } from '../../src/kit/index.ts';
import { backoffMs, sseEvents } from '../../src/kit/live.ts';
import { KIT_PERSISTED_DOCUMENTS_PATH } from '../../src/server/browser/kit-manifest.ts';
import { TEST_NOW } from '../support/price-app.ts';
import { movePrice } from '../support/price-move.ts';
import { graphHarness } from '../graph/router-harness.ts';
import type { GraphHarness } from '../graph/router-harness.ts';

let clock = TEST_NOW;
let g: GraphHarness;
let base: string;

async function until(cond: () => boolean, what: string, ms = 10_000): Promise<void> {
  const end = Date.now() + ms;
  while (!cond()) {
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 20));
  }
}

beforeAll(async () => {
  g = await graphHarness({
    now: () => clock,
    liveSubscriptions: true,
    persisted: { manifest: KIT_PERSISTED_DOCUMENTS_PATH, mode: 'safelist' },
  });
  base = await g.app.listen({ port: 0, host: '127.0.0.1' });
}, 180_000);
afterAll(async () => {
  g?.app.server.closeAllConnections();
  await g?.close();
});

describe('subscribePrices against the router', () => {
  it('delivers every coin first, then the moved coin merged into the picture; reconnects after a cut', async () => {
    const sdk = createSDK({ baseUrl: base });
    const updates: LivePrices<'litecoin' | 'dogecoin' | 'no-such-coin'>[] = [];
    const retries: number[] = [];
    const errors: KitError[] = [];
    const off = sdk.subscribePrices(['litecoin', 'dogecoin', 'no-such-coin'], 'USD', (u) => updates.push(u), {
      onRetry: (ms) => retries.push(ms),
      onError: (e) => errors.push(e),
      minRetryMs: 50,
    });
    try {
      await until(() => updates.length === 1, 'the first event');
      const first = updates[0] as LivePrices<string>;
      expect(first.currency).toBe('usd');
      expect(first.changed.sort()).toEqual(['dogecoin', 'litecoin']);
      expect(Object.keys(first.prices).sort()).toEqual(['dogecoin', 'litecoin']);
      const ltc = first.prices['litecoin'];
      expect(ltc?.price).toBeGreaterThan(0);
      expect(ltc?.updatedAt).toMatch(/^\d{4}-\d\d-\d\dT/);

      clock += 60_000;
      await movePrice(g.tm.market, 'litecoin', 1.05);
      await g.router.subscriptions.tick();
      await until(() => updates.some((u) => u.changed.includes('litecoin') && u !== first), 'the move');
      const moved = updates.find((u) => u !== first && u.changed.includes('litecoin')) as LivePrices<string>;
      expect((moved.prices['litecoin']?.price as number) / (ltc?.price as number)).toBeCloseTo(1.05, 3);
      // Every event holds the whole picture: each coin as the latest event that changed it left it.
      expect(Object.keys(moved.prices).sort()).toEqual(['dogecoin', 'litecoin']);
      const at = updates.indexOf(moved as (typeof updates)[number]);
      for (const id of ['dogecoin', 'litecoin'] as const) {
        const last = updates.slice(0, at + 1).findLast((u) => u.changed.includes(id));
        expect(moved.prices[id]).toBe(last?.prices[id]);
      }

      // The server cuts every connection (a router restart): the kit reconnects and gets every coin again.
      const before = updates.length;
      g.app.server.closeAllConnections();
      await until(() => updates.length > before, 'the first event after reconnecting');
      expect(retries.length).toBeGreaterThanOrEqual(1);
      expect(retries[0]).toBeLessThanOrEqual(50);
      expect((updates.at(-1) as LivePrices<string>).changed.sort()).toEqual(['dogecoin', 'litecoin']);
      expect(errors).toEqual([]);
    } finally {
      off();
    }
    await until(() => g.router.subscriptions.stats().streams === 0, 'unsubscribe to end the stream');
  });

  it('stops for good on a refused key, with the API code, and does not retry', async () => {
    const sdk = createSDK({ baseUrl: base, apiKey: 'cw_live_doesnotexist' });
    const retries: number[] = [];
    const error = await new Promise<KitError>((resolve) => {
      sdk.subscribePrices(['litecoin'], 'usd', () => undefined, {
        onError: resolve,
        onRetry: (ms) => retries.push(ms),
      });
    });
    expect(error).toBeInstanceOf(KitError);
    expect([error.source, error.code, error.status]).toEqual(['api', 'API_KEY_UNKNOWN', 401]);
    expect(retries).toEqual([]);
  });

  it('refuses bad arguments before any call', () => {
    const sdk = createSDK({ baseUrl: base });
    const codeOf = (f: () => unknown) => {
      try {
        f();
      } catch (e) {
        return (e as KitError).code;
      }
      return null;
    };
    const ids = Array.from({ length: 101 }, (_, i) => `c${i}`);
    expect(codeOf(() => sdk.subscribePrices(ids, 'usd', () => undefined))).toBe('INVALID_ARGUMENT');
    expect(codeOf(() => sdk.subscribePrices([], 'usd', () => undefined))).toBe('INVALID_ARGUMENT');
    expect(codeOf(() => sdk.subscribePrices(['litecoin'], 'us d', () => undefined))).toBe('INVALID_ARGUMENT');
  });
});

describe('the pure parts', () => {
  it('parses events split anywhere, skipping comments', async () => {
    const text = ':\n\nevent: next\ndata: {"data":{"a":1}}\n\n: keep-alive\n\nevent: complete\ndata:\n\n';
    const bytes = new TextEncoder().encode(text);
    const body = new ReadableStream<Uint8Array>({
      start(c) {
        for (let i = 0; i < bytes.length; i += 7) c.enqueue(bytes.slice(i, i + 7));
        c.close();
      },
    });
    const events = [];
    for await (const e of sseEvents(body)) events.push(e);
    expect(events).toEqual([
      { event: 'next', data: '{"data":{"a":1}}' },
      { event: 'complete', data: '' },
    ]);
  });

  it('backs off 1, 2, 4 … seconds with jitter in the upper half, capped', () => {
    expect(backoffMs(0, 1_000, 30_000, () => 0)).toBe(500);
    expect(backoffMs(0, 1_000, 30_000, () => 1)).toBe(1_000);
    expect(backoffMs(2, 1_000, 30_000, () => 1)).toBe(4_000);
    expect(backoffMs(10, 1_000, 30_000, () => 1)).toBe(30_000);
    expect(backoffMs(10, 1_000, 30_000, () => 0)).toBe(15_000);
  });
});
