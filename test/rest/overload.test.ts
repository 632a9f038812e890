/**
 * The price API under load shedding: while the process is overloaded, an answer that would have to be built is 503
 * OVERLOADED; answers already built for the current snapshot are served as before.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { overloaded } from '../../src/access/overload.ts';
import { createTestMarket } from '../support/price-app.ts';
import type { TestMarket } from '../support/price-app.ts';

let t: TestMarket;
let overloadedNow = false;
let built = 0;

beforeAll(async () => {
  t = await createTestMarket({
    days: 3,
    server: { shedder: { begin: () => (overloadedNow ? overloaded(2) : (built++, () => undefined)) } },
  });
}, 120_000);
afterAll(async () => {
  await t?.close();
});

describe('price API load shedding', () => {
  it('serves what it has built, refuses to build more until the load passes', async () => {
    const price = '/v1/agg/simple/price?ids=litecoin&vs_currencies=usd';
    expect((await t.app.inject({ url: price })).statusCode).toBe(200);
    expect(built).toBe(1);
    overloadedNow = true;
    const again = await t.app.inject({ url: price });
    expect(again.statusCode).toBe(200);
    const other = await t.app.inject({ url: '/v1/agg/simple/price?ids=dogecoin&vs_currencies=usd' });
    expect(other.statusCode).toBe(503);
    expect(other.headers['retry-after']).toBe('2');
    expect(other.json()).toMatchObject({ error: { code: 'OVERLOADED' } });
    expect((await t.app.inject({ url: '/healthz' })).statusCode).not.toBe(503);
    overloadedNow = false;
    expect(
      (await t.app.inject({ url: '/v1/agg/simple/price?ids=dogecoin&vs_currencies=usd' })).statusCode,
    ).toBe(200);
  });
});
