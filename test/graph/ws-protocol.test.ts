/**
 * GraphQL over WebSocket: what a client sends wrong is the client's error. A raw `ws` socket over real loopback
 * against the embedded router: each message a client may not send, each malformed or oversized frame closes with
 * graphql-ws's 44xx code and a reason that says what was expected, and leaves one log line with the code (no stack,
 * nothing on the console). A key in `connectionParams` that differs from the upgrade request's is
 * `API_KEY_CONFLICT` (4403), as two keys are on HTTP.
 */
import Fastify from 'fastify';
import type { FastifyBaseLogger, FastifyInstance } from 'fastify';
import { pino } from 'pino';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import WebSocket from 'ws';
import { mountRouter } from '../../router/http.ts';
import { MAX_MESSAGE_BYTES } from '../../router/ws-server.ts';
import { ADMIN_TOKEN, call } from '../accounts/harness.ts';
import { graphHarness } from './router-harness.ts';
import type { GraphHarness } from './router-harness.ts';

let g: GraphHarness;
let app: FastifyInstance;
let wsUrl: string;
/** The JSON lines the router's host logged (warn and above). */
const lines: Record<string, unknown>[] = [];
let consoleError: ReturnType<typeof vi.spyOn>;

const PRICES = 'subscription { prices(ids: ["litecoin"], currency: "usd") { id price } }';

beforeAll(async () => {
  g = await graphHarness();
  // The harness's router on a host that logs, as the product's does (Fastify's logger at warn).
  app = Fastify({
    loggerInstance: pino(
      { level: 'warn' },
      { write: (s: string) => void lines.push(JSON.parse(s) as Record<string, unknown>) },
    ) as FastifyBaseLogger,
  });
  await mountRouter(app, g.router);
  const base = await app.listen({ port: 0, host: '127.0.0.1' });
  wsUrl = `${base.replace('http', 'ws')}/graphql`;
}, 180_000);
afterAll(async () => {
  await app?.close();
  await g?.close();
});
afterEach(() => {
  consoleError?.mockRestore();
});

interface Raw {
  socket: WebSocket;
  /** Messages received, parsed. */
  got: { type: string; id?: string; payload?: unknown }[];
  closed: Promise<{ code: number; reason: string }>;
  /** Resolves with the next message (or rejects when the socket closes first). */
  next(): Promise<{ type: string; id?: string; payload?: unknown }>;
}

/** A raw socket speaking graphql-transport-ws, opened (not yet initialised). */
async function raw(url = wsUrl, headers: Record<string, string> = {}): Promise<Raw> {
  const socket = new WebSocket(url, 'graphql-transport-ws', { headers });
  const got: Raw['got'] = [];
  let waiter: (() => void) | null = null;
  socket.on('message', (d) => {
    got.push(JSON.parse(String(d)) as Raw['got'][number]);
    waiter?.();
  });
  const closed = new Promise<{ code: number; reason: string }>((resolve) =>
    socket.on('close', (code, reason) => resolve({ code, reason: reason.toString() })),
  );
  await new Promise<void>((resolve, reject) => {
    socket.once('open', () => resolve());
    socket.once('error', reject);
  });
  let read = 0;
  const next = async () => {
    while (got.length <= read) {
      const arrived = new Promise<void>((r) => (waiter = r));
      const ended = closed.then((c) => {
        throw new Error(`closed ${c.code} ${c.reason} before a message`);
      });
      await Promise.race([arrived, ended, timeout(5_000, 'a message')]);
    }
    return got[read++] as Raw['got'][number];
  };
  return { socket, got, closed, next };
}

const timeout = (ms: number, what: string) =>
  new Promise<never>((_, reject) =>
    setTimeout(() => reject(new Error(`no ${what} within ${ms} ms`)), ms).unref(),
  );

/** An initialised socket (acknowledged). */
async function acked(params: Record<string, unknown> = {}, url?: string, headers?: Record<string, string>) {
  const r = await raw(url, headers);
  r.socket.send(JSON.stringify({ type: 'connection_init', payload: params }));
  expect((await r.next()).type).toBe('connection_ack');
  return r;
}

/** Watches the log and the console across `act`; returns the close and the lines logged meanwhile. */
async function closeOf(
  r: Raw,
  act: () => void,
): Promise<{ code: number; reason: string; logged: typeof lines }> {
  consoleError = vi.spyOn(console, 'error');
  const from = lines.length;
  act();
  const c = await Promise.race([r.closed, timeout(5_000, 'close')]);
  // The server logs before its close frame leaves: the lines are there once the client has it.
  expect(consoleError).not.toHaveBeenCalled();
  return { ...c, logged: lines.slice(from) };
}

/** The one line a protocol close leaves: warn, the code and reason, no stack. */
function expectOneLine(logged: typeof lines, code: number, reason: string): void {
  expect(logged).toHaveLength(1);
  expect(logged[0]).toMatchObject({ level: 40, code, reason, msg: 'graphql-ws connection closed' });
  expect(JSON.stringify(logged[0])).not.toMatch(/stack|\\n\s+at /);
}

describe('messages a client may not send close with 4400 and say what was expected', () => {
  const TYPES = 'a client sends messages of type connection_init, ping, pong, subscribe or complete';
  const cases: [string, string | Buffer, string][] = [
    ['next', JSON.stringify({ id: '1', type: 'next', payload: { data: {} } }), `${TYPES}; got "next"`],
    ['connection_ack', JSON.stringify({ type: 'connection_ack' }), `${TYPES}; got "connection_ack"`],
    [
      'error',
      JSON.stringify({ id: '1', type: 'error', payload: [{ message: 'x' }] }),
      `${TYPES}; got "error"`,
    ],
    ['an unknown type', JSON.stringify({ type: 'start', id: '1' }), `${TYPES}; got "start"`],
    ['no type', JSON.stringify({ id: '1' }), `${TYPES}; got undefined`],
    [
      'malformed JSON',
      '{"type":"ping"',
      'a message must be a JSON object with a "type", such as {"type":"ping"}: the message is not JSON',
    ],
    ['an array', '[]', 'a message must be a JSON object with a "type", such as {"type":"ping"}'],
    ['a string', '"ping"', 'a message must be a JSON object with a "type", such as {"type":"ping"}'],
    [
      'a subscribe without an id',
      JSON.stringify({ type: 'subscribe', payload: { query: PRICES } }),
      `"subscribe" message expects the 'id' property to be a string, but got undefined`,
    ],
    [
      'a subscribe without a query',
      JSON.stringify({ type: 'subscribe', id: '1', payload: {} }),
      `"subscribe" message payload expects the 'query' property to be a string, but got undefined`,
    ],
  ];
  for (const [what, message, reason] of cases) {
    it(`${what}`, async () => {
      const r = await acked();
      const c = await closeOf(r, () => r.socket.send(message));
      expect([c.code, c.reason]).toEqual([4400, reason]);
      expectOneLine(c.logged, 4400, reason);
    });
  }

  it('before connection_init too (a next is never the client’s)', async () => {
    const r = await raw();
    const c = await closeOf(r, () => r.socket.send(JSON.stringify({ type: 'next', id: '1', payload: {} })));
    expect(c.code).toBe(4400);
  });
});

describe('frames', () => {
  it(`a message over ${MAX_MESSAGE_BYTES} bytes closes with 4400; one of exactly that size is read`, async () => {
    const r = await acked();
    // A ping whose payload pads it to the limit, to the byte: answered with its pong.
    const head = '{"type":"ping","payload":{"pad":"';
    const tail = '"}}';
    const fits = head + 'x'.repeat(MAX_MESSAGE_BYTES - head.length - tail.length) + tail;
    expect(Buffer.byteLength(fits)).toBe(MAX_MESSAGE_BYTES);
    r.socket.send(fits);
    expect((await r.next()).type).toBe('pong');
    const c = await closeOf(r, () => r.socket.send(`${fits} `));
    expect([c.code, c.reason]).toEqual([4400, 'a message must be at most 1 MiB']);
    expectOneLine(c.logged, 4400, 'a message must be at most 1 MiB');
  });

  it('text that is not UTF-8 closes with 4400', async () => {
    const r = await acked();
    const c = await closeOf(r, () => r.socket.send(Buffer.from([0x7b, 0xff, 0x7d]), { binary: false }));
    expect([c.code, c.reason]).toEqual([4400, 'messages must be UTF-8 text']);
    expectOneLine(c.logged, 4400, 'messages must be UTF-8 text');
  });
});

describe('the protocol’s own closes, one log line each', () => {
  it('a second connection_init: 4429', async () => {
    const r = await acked();
    const c = await closeOf(r, () => r.socket.send(JSON.stringify({ type: 'connection_init' })));
    expect([c.code, c.reason]).toEqual([4429, 'Too many initialisation requests']);
    expectOneLine(c.logged, 4429, 'Too many initialisation requests');
  });

  it('a subscribe before the ack: 4401', async () => {
    const r = await raw();
    const c = await closeOf(r, () =>
      r.socket.send(JSON.stringify({ type: 'subscribe', id: '1', payload: { query: PRICES } })),
    );
    expect([c.code, c.reason]).toEqual([4401, 'Unauthorized']);
    expectOneLine(c.logged, 4401, 'Unauthorized');
  });

  it('a subscriber id in use: 4409 (a long id is cut to fit the close frame, not a 4500)', async () => {
    const r = await acked();
    const id = 'i'.repeat(200);
    r.socket.send(JSON.stringify({ type: 'subscribe', id, payload: { query: PRICES } }));
    expect(await r.next()).toMatchObject({ type: 'next', id });
    const c = await closeOf(r, () =>
      r.socket.send(JSON.stringify({ type: 'subscribe', id, payload: { query: PRICES } })),
    );
    expect(c.code).toBe(4409);
    expect(c.reason).toMatch(/^Subscriber for i+…$/);
    expect(Buffer.byteLength(c.reason)).toBeLessThanOrEqual(123);
    expect(c.logged).toHaveLength(1);
    expect(c.logged[0]).toMatchObject({ code: 4409 });
  });

  it('a complete for an id that is not running is ignored (PROTOCOL.md): the socket stays', async () => {
    const r = await acked();
    r.socket.send(JSON.stringify({ type: 'complete', id: 'never-subscribed' }));
    r.socket.send(JSON.stringify({ type: 'ping' }));
    expect(await r.next()).toEqual({ type: 'pong' });
    r.socket.close(1000);
    expect((await r.closed).code).toBe(1000);
  });

  it('no connection_init within 3 s: 4408', async () => {
    const r = await raw();
    const c = await closeOf(r, () => undefined);
    expect([c.code, c.reason]).toEqual([4408, 'Connection initialisation timeout']);
    expectOneLine(c.logged, 4408, 'Connection initialisation timeout');
  });
});

describe('a key in connectionParams and another in the upgrade request', () => {
  let a: { key: string; id: string };
  let b: { key: string; id: string };
  beforeAll(async () => {
    [a, b] = await Promise.all([g.makeKey('free'), g.makeKey('pro')]);
  });

  const init = async (params: Record<string, unknown>, url?: string, headers?: Record<string, string>) => {
    const r = await raw(url, headers);
    const c = await closeOf(r, () =>
      r.socket.send(JSON.stringify({ type: 'connection_init', payload: params })),
    );
    return c;
  };

  it('is API_KEY_CONFLICT, 4403, whether the request has it in a header or the query', async () => {
    const header = await init({ 'x-sp-api-key': b.key }, wsUrl, { 'x-sp-api-key': a.key });
    expect([header.code, header.reason]).toEqual([4403, 'API_KEY_CONFLICT']);
    expectOneLine(header.logged, 4403, 'API_KEY_CONFLICT');
    const alias = await init({ 'x-cg-pro-api-key': b.key }, wsUrl, { 'x-sp-api-key': a.key });
    expect([alias.code, alias.reason]).toEqual([4403, 'API_KEY_CONFLICT']);
    const query = await init({ 'X-SP-API-KEY': b.key }, `${wsUrl}?x_sp_api_key=${a.key}`);
    expect([query.code, query.reason]).toEqual([4403, 'API_KEY_CONFLICT']);
    // Two keys among the params alone: the access layer's conflict.
    const params = await init({ 'x-sp-api-key': a.key, 'x-cg-demo-api-key': b.key });
    expect([params.code, params.reason]).toEqual([4403, 'API_KEY_CONFLICT']);
  });

  it('a revoked key in the header is not replaced by a good one in the params', async () => {
    const revoked = await g.makeKey('free');
    const r = await call(g.rest, 'POST', `/api/admin/api-keys/${revoked.id}/revoke`, { token: ADMIN_TOKEN });
    expect(r.status).toBe(200);
    const c = await init({ 'x-sp-api-key': a.key }, wsUrl, { 'x-sp-api-key': revoked.key });
    expect([c.code, c.reason]).toEqual([4403, 'API_KEY_CONFLICT']);
  });

  it('the same key in both places, or in one, is acknowledged', async () => {
    const both = await acked({ 'x-sp-api-key': a.key }, wsUrl, { 'x-sp-api-key': a.key });
    const paramsOnly = await acked({ 'x-sp-api-key': a.key });
    const headerOnly = await acked({}, wsUrl, { 'x-sp-api-key': a.key });
    // Non-key params are no concern of the key check.
    const other = await acked({ 'x-sp-api-key': ` ${a.key} `, locale: 'en' }, wsUrl, {
      'x-sp-api-key': a.key,
    });
    for (const r of [both, paramsOnly, headerOnly, other]) r.socket.close(1000);
  });
});
