/**
 * A client that sends half a POST body and then drops its connection (a real socket): `POST /graphql` (the router's
 * mount, `router/http.ts`) and a REST route (`src/server/host/render.ts`) log it at debug and answer nothing — no error
 * with a stack in the log, no 500, and the router is never called. (The router here is a stand-in that counts its
 * calls: the body never reaches it.)
 */
import { connect } from 'node:net';
import { Writable } from 'node:stream';
import Fastify from 'fastify';
import type { FastifyBaseLogger, FastifyInstance } from 'fastify';
import pino from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mountRouter } from '../../router/http.ts';
import type { Router } from '../../router/index.ts';
import { registerErrorHandling } from '../../src/server/host/render.ts';

const lines: Array<{ level: number; msg: string; err?: { stack?: string } }> = [];
const statuses: number[] = [];
let handled = 0;
let app: FastifyInstance;
let port: number;

beforeAll(async () => {
  const sink = new Writable({
    write(chunk: Buffer, _enc, done) {
      for (const l of chunk.toString().split('\n'))
        if (l) lines.push(JSON.parse(l) as (typeof lines)[number]);
      done();
    },
  });
  app = Fastify({ loggerInstance: pino({ level: 'debug' }, sink) as FastifyBaseLogger });
  registerErrorHandling(app);
  const router = {
    respond: async () => {
      handled++;
      return { status: 200, headers: { 'content-type': 'application/json' }, body: '{"data":{}}' };
    },
    refuseEarly: async () => ({ caller: null }),
    health: () => ({ status: 'UP' as const }),
  } as unknown as Router;
  await mountRouter(app, router);
  app.post('/api/echo', async (req) => req.body);
  app.addHook('onResponse', async (_req, reply) => void statuses.push(reply.statusCode));
  await app.listen({ port: 0, host: '127.0.0.1' });
  port = (app.server.address() as { port: number }).port;
});
afterAll(async () => {
  await app?.close();
});

/** Sends the headers and half the announced body, then destroys the socket. */
function halfABody(path: string): Promise<void> {
  return new Promise((resolve, reject) => {
    const s = connect(port, '127.0.0.1', () => {
      s.write(
        `POST ${path} HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: 200\r\n\r\n` +
          '{"query":"{ currencies }", "variables": {"a": "',
      );
      setTimeout(() => {
        s.destroy();
        resolve();
      }, 100);
    });
    s.on('error', reject);
  });
}

async function until(cond: () => boolean): Promise<void> {
  for (let i = 0; i < 100 && !cond(); i++) await new Promise((r) => setTimeout(r, 20));
}

describe('a POST body the client aborts', () => {
  it.each(['/graphql', '/api/echo'])(
    '%s: logged at debug, never answered, no error in the log',
    async (path) => {
      const before = lines.length;
      await halfABody(path);
      await until(() => lines.slice(before).some((l) => l.msg === 'request body aborted by the client'));
      const mine = lines.slice(before);
      expect(mine.filter((l) => l.msg === 'request body aborted by the client').map((l) => l.level)).toEqual([
        20,
      ]);
      expect(mine.filter((l) => l.level >= 40 || l.err?.stack)).toEqual([]);
      expect(statuses).toEqual([]);
      expect(handled).toBe(0);
    },
  );

  it('the server goes on answering complete requests', async () => {
    const res = await fetch(`http://127.0.0.1:${port}/graphql`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ query: '{ currencies }' }),
    });
    expect(res.status).toBe(200);
    expect(handled).toBe(1);
  });
});
