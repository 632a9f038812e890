/**
 * One host (`src/server/host.ts`) for every process: the embedded product, a scale-out router part, a subgraph part
 * and the dapp-browser emulator, each started as start-up starts it, answer what no route serves the same way — the
 * request id echoed, our error body for an unknown path, a missing Host and a `CONNECT` — byte for byte.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../../src/config.ts';
import { startDappBrowser } from '../../src/dapp-browser/server.ts';
import { startGraphPart } from '../../src/start/part.ts';
import { startProduct } from '../../src/start/product.ts';
import { rawRequest } from '../server/raw-http.ts';

interface Running {
  url: string;
  close(): Promise<void>;
}

const running: Record<string, Running> = {};
const dirs: string[] = [];

const env = async (extra: Record<string, string> = {}) => {
  const dir = await mkdtemp(join(tmpdir(), 'cw-one-host-'));
  dirs.push(dir);
  // Load shedding off: a busy machine's event-loop lag right after start-up must not make a request a 503.
  return loadConfig({
    PORT: '0',
    HOST: '127.0.0.1',
    DATA_DIR: dir,
    LOG_LEVEL: 'silent',
    SHED_LAG_MS: '0',
    ...extra,
  });
};

beforeAll(async () => {
  const product = await startProduct(await env({ DEMO_DAYS: '3' }), {});
  running['product'] = product;
  const identity = await startGraphPart(await env(), { kind: 'subgraph', name: 'identity' }, {});
  running['subgraph:identity'] = identity;
  // The router is only asked what no route serves: every subgraph URL may name the one subgraph started.
  const graphql = `${identity.url}/graphql`;
  running['router'] = await startGraphPart(
    await env({
      SUBGRAPH_URLS: `markets=${graphql},identity=${graphql},bridge=${graphql},accounts=${graphql}`,
    }),
    { kind: 'router' },
    {},
  );
  const emulator = await startDappBrowser({ dappUrl: 'http://localhost:5173/', port: 0, api: product.url });
  running['emulator'] = emulator;
  await product.ready;
}, 120_000);

afterAll(async () => {
  for (const r of Object.values(running).reverse()) await r.close();
  for (const d of dirs) await rm(d, { recursive: true, force: true });
}, 60_000);

const PROCESSES = ['product', 'router', 'subgraph:identity', 'emulator'];
const portOf = (name: string): number => Number(new URL((running[name] as Running).url).port);

describe('every process answers through the one host', () => {
  it('an unknown path: 404 NOT_FOUND in our body, the request id echoed, nosniff', async () => {
    const answers = await Promise.all(
      PROCESSES.map(async (name) => {
        const r = await fetch(`${(running[name] as Running).url}/no/such/route?x=1`, {
          headers: { 'x-request-id': `one-host.${name.replace(':', '-')}` },
        });
        return {
          name,
          status: r.status,
          id: r.headers.get('x-request-id'),
          nosniff: r.headers.get('x-content-type-options'),
          type: r.headers.get('content-type'),
          body: await r.text(),
        };
      }),
    );
    for (const a of answers)
      expect(a).toEqual({
        name: a.name,
        status: 404,
        id: `one-host.${a.name.replace(':', '-')}`,
        nosniff: 'nosniff',
        type: 'application/json; charset=utf-8',
        body: JSON.stringify({
          error: {
            code: 'NOT_FOUND',
            message: 'no endpoint GET /no/such/route: see the OpenAPI document for the paths served',
          },
        }),
      });
  });

  it('a request without Host and a CONNECT: the same coded answers, byte for byte', async () => {
    const bodies = new Set<string>();
    for (const name of PROCESSES) {
      const noHost = await rawRequest(portOf(name), 'GET /livez HTTP/1.1\r\n\r\n');
      expect([name, noHost.status, JSON.parse(noHost.body)]).toMatchObject([
        name,
        400,
        { error: { code: 'HOST_REQUIRED' } },
      ]);
      const connect = await rawRequest(
        portOf(name),
        'CONNECT a.example:443 HTTP/1.1\r\nHost: a.example:443\r\n\r\n',
      );
      expect([name, connect.status, connect.closed, JSON.parse(connect.body)]).toMatchObject([
        name,
        405,
        true,
        { error: { code: 'METHOD_NOT_ALLOWED' } },
      ]);
      const garbage = await rawRequest(portOf(name), 'GET /livez HTTP/1.1\r\nHost: x\r\nX: a\0b\r\n\r\n');
      expect([name, garbage.status]).toEqual([name, 400]);
      bodies.add(noHost.body).add(connect.body).add(garbage.body);
    }
    expect(bodies.size).toBe(3);
  });
});
