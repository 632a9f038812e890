/**
 * The REST side's content negotiation over real HTTP on loopback, by the rules `/graphql` follows too
 * (src/core/negotiate.ts): the landing page's HTML or JSON by `Accept` (q-values, specificity, order, parameters,
 * any case; 406 as JSON when neither is accepted), and the price API's compression by `Accept-Encoding` q-values.
 */
import { request } from 'node:http';
import type { AddressInfo } from 'node:net';
import { gunzipSync, brotliDecompressSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestMarket } from '../support/price-app.ts';
import type { TestMarket } from '../support/price-app.ts';

let tm: TestMarket;
let port: number;
beforeAll(async () => {
  tm = await createTestMarket({ days: 5 });
  await tm.app.listen({ port: 0, host: '127.0.0.1' });
  port = (tm.app.server.address() as AddressInfo).port;
}, 60_000);
afterAll(async () => tm?.close());

/** A GET with exactly these headers (node:http adds neither Accept nor Accept-Encoding, nor decodes). */
function get(path: string, headers: Record<string, string>) {
  return new Promise<{ status: number; headers: Record<string, unknown>; body: Buffer }>(
    (resolve, reject) => {
      request({ host: '127.0.0.1', port, path, headers }, (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => chunks.push(c));
        res.on('end', () =>
          resolve({ status: res.statusCode ?? 0, headers: res.headers, body: Buffer.concat(chunks) }),
        );
      })
        .on('error', reject)
        .end();
    },
  );
}

describe('the landing page: HTML or JSON', () => {
  it('by q-value, then specificity, then order; parameters and case as HTTP says', async () => {
    const cases: [string, string | 406][] = [
      ['*/*', 'text/html'],
      ['application/json', 'application/json'],
      ['APPLICATION/JSON; CHARSET=UTF-8', 'application/json'],
      ['text/html;q=0.5, application/json', 'application/json'],
      ['*/*, application/json', 'application/json'],
      ['text/*, application/json', 'application/json'],
      ['application/json;q=0, */*', 'text/html'],
      ['text/html;charset=iso-8859-1, application/json;q=0.1', 'application/json'],
      ['text/html;level=1, application/json;q=0.1', 'application/json'],
      ['image/png', 406],
    ];
    for (const [accept, want] of cases) {
      const r = await get('/', { accept });
      if (want === 406) {
        expect({ accept, status: r.status, type: r.headers['content-type'] }).toEqual({
          accept,
          status: 406,
          type: 'application/json; charset=utf-8',
        });
        expect((JSON.parse(r.body.toString()) as { error: { code: string } }).error.code).toBe(
          'NOT_ACCEPTABLE',
        );
      } else
        expect({ accept, status: r.status, type: r.headers['content-type'] }).toEqual({
          accept,
          status: 200,
          type: `${want}; charset=utf-8`,
        });
      expect(r.headers['vary']).toMatch(/Accept/);
    }
  });
});

describe('the price API’s compression', () => {
  const BIG = '/v1/agg/coins/markets?vs_currency=usd&per_page=100';

  it('by Accept-Encoding q-values: a refused coding is never sent', async () => {
    const plain = await get(BIG, {});
    expect(plain.headers['content-encoding']).toBeUndefined();
    expect(plain.body.length).toBeGreaterThan(1024);
    const cases: [string, string | undefined][] = [
      ['gzip, deflate, br', 'br'],
      ['gzip', 'gzip'],
      ['br;q=0, gzip', 'gzip'],
      ['br;q=0.2, gzip;q=0.8', 'gzip'],
      ['*', 'br'],
      ['*, br;q=0', 'gzip'],
      ['gzip;q=0', undefined],
      ['*;q=0, identity', undefined],
      ['identity', undefined],
    ];
    for (const [acceptEncoding, want] of cases) {
      const r = await get(BIG, { 'accept-encoding': acceptEncoding });
      expect({ acceptEncoding, coding: r.headers['content-encoding'] }).toEqual({
        acceptEncoding,
        coding: want,
      });
      const body =
        want === 'br' ? brotliDecompressSync(r.body) : want === 'gzip' ? gunzipSync(r.body) : r.body;
      expect(body.equals(plain.body)).toBe(true);
      expect(r.headers['vary']).toBe('accept-encoding');
    }
  });
});
