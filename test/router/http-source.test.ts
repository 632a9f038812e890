/**
 * `HttpSource` (scale-out mode) against a real `node:http` server: keep-alive reuse, a kept-alive connection closed
 * by the server just as it is reused (a query is sent again on a fresh connection, a mutation is not), timeouts,
 * bodies that are not GraphQL, and in-flight deduplication of identical query fetches.
 */
import { createServer } from 'node:http';
import type { IncomingMessage, Server, ServerResponse } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { HttpSource } from '../../router/sources/http.ts';

type Behaviour = 'ok' | 'drop-reused' | 'hang' | 'stall-body' | 'html';
let behaviour: Behaviour = 'ok';
const requestsPerSocket = new Map<Socket, number>();
const received: {
  body: string;
  authorization: string | undefined;
  requestId?: string | string[] | undefined;
}[] = [];
let server: Server;
let url: string;

beforeAll(async () => {
  server = createServer((req: IncomingMessage, res: ServerResponse) => {
    const n = (requestsPerSocket.get(req.socket) ?? 0) + 1;
    requestsPerSocket.set(req.socket, n);
    let body = '';
    req.on('data', (c: Buffer) => (body += c.toString('utf8')));
    req.on('end', () => {
      // A kept-alive connection the server closes as the client reuses it: nothing is answered on it.
      if (behaviour === 'drop-reused' && n > 1) return void req.socket.destroy();
      received.push({
        body,
        authorization: req.headers.authorization,
        requestId: req.headers['x-request-id'],
      });
      if (behaviour === 'hang') return;
      if (behaviour === 'stall-body') {
        res.writeHead(200, { 'content-type': 'application/json' });
        return void res.write('{"data":');
      }
      if (behaviour === 'html')
        return void res.writeHead(502, { 'content-type': 'text/html' }).end('<html/>');
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end(JSON.stringify({ data: { echo: JSON.parse(body) as unknown } }));
    });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/graphql`;
});
afterAll(async () => {
  server.closeAllConnections();
  await new Promise((r) => server.close(r));
});

const warnings: string[] = [];
const source = (timeoutMs = 2_000) =>
  new HttpSource('markets', url, timeoutMs, { warn: (m) => warnings.push(m) });

const call = (s: HttpSource, query: string, headers: Record<string, string> = {}) =>
  s.process({ query, variables: { a: 1 } }, { headers, subgraphContexts: new Map() });

describe('HttpSource', () => {
  it('posts the operation, forwards authorization only, and keeps the connection alive', async () => {
    behaviour = 'ok';
    requestsPerSocket.clear();
    received.length = 0;
    const s = source();
    try {
      for (let i = 0; i < 3; i++) {
        const r = await call(s, 'query Q { x }', { authorization: 'Bearer t', cookie: 'c=1' });
        expect(r).toEqual({ data: { echo: { query: 'query Q { x }', variables: { a: 1 } } } });
      }
      expect(received.map((x) => x.authorization)).toEqual(['Bearer t', 'Bearer t', 'Bearer t']);
      // One connection carried all three.
      expect([...requestsPerSocket.values()]).toEqual([3]);
    } finally {
      s.close();
    }
  });

  it('a query on a connection the server dropped is sent again on a fresh one; a mutation is not', async () => {
    const s = source();
    try {
      behaviour = 'ok';
      expect((await call(s, 'query Q { x }')).errors).toBeUndefined();
      behaviour = 'drop-reused';
      received.length = 0;
      const q = await call(s, 'query Q { y }');
      expect(q.errors).toBeUndefined();
      expect(received).toHaveLength(1);

      behaviour = 'ok';
      expect((await call(s, 'query Q { x }')).errors).toBeUndefined(); // the fresh connection, now reused
      behaviour = 'drop-reused';
      received.length = 0;
      const m = await call(s, 'mutation M { z }');
      expect(m.errors?.map((e) => e.extensions?.['code'])).toEqual(['SUBGRAPH_UNAVAILABLE']);
      expect(received).toHaveLength(0);
    } finally {
      s.close();
    }
  });

  it('a subgraph that does not answer (or finish answering) in time is SUBGRAPH_TIMEOUT; HTML is SUBGRAPH_UNAVAILABLE', async () => {
    const s = source(150);
    try {
      behaviour = 'hang';
      const t0 = Date.now();
      const r = await call(s, 'query Q { x }');
      expect(Date.now() - t0).toBeLessThan(1_500);
      expect(r.errors).toEqual([
        {
          message:
            'the markets service did not answer within 150 ms: its fields are null in this response; retry later',
          extensions: { code: 'SUBGRAPH_TIMEOUT', subgraph: 'markets' },
        },
      ]);
      // Headers and part of the body, then nothing: still a timeout, not a cut-off answer.
      behaviour = 'stall-body';
      const stalled = await call(s, 'query Q { x }');
      expect(stalled.errors?.map((e) => e.extensions?.['code'])).toEqual(['SUBGRAPH_TIMEOUT']);
      behaviour = 'html';
      const h = await call(s, 'query Q { x }');
      expect(h.errors?.map((e) => e.extensions?.['code'])).toEqual(['SUBGRAPH_UNAVAILABLE']);
      expect(JSON.stringify(h)).not.toMatch(/html|127\.0\.0\.1/);
    } finally {
      s.close();
    }
  });

  it('identical query fetches in flight are sent once; other credentials, other bodies and mutations are not shared', async () => {
    behaviour = 'ok';
    received.length = 0;
    const s = source();
    try {
      const answers = await Promise.all([
        call(s, 'query Q { x }', { authorization: 'Bearer a' }),
        call(s, 'query Q { x }', { authorization: 'Bearer a', cookie: 'not forwarded, not in the key' }),
        call(s, 'query Q { x }', { authorization: 'Bearer a' }),
        call(s, 'query Q { x }', { authorization: 'Bearer b' }),
        call(s, 'query Q { y }', { authorization: 'Bearer a' }),
        call(s, 'mutation M { z }', { authorization: 'Bearer a' }),
        call(s, 'mutation M { z }', { authorization: 'Bearer a' }),
      ]);
      expect(answers.map((a) => a.errors)).toEqual(answers.map(() => undefined));
      // Each caller gets an object of its own (the gateway writes into results).
      expect(answers[0]).toEqual(answers[1]);
      expect(answers[0]).not.toBe(answers[1]);
      const sent = received.map(
        (r) => `${r.authorization} ${(JSON.parse(r.body) as { query: string }).query}`,
      );
      expect(sent.sort()).toEqual([
        'Bearer a mutation M { z }',
        'Bearer a mutation M { z }',
        'Bearer a query Q { x }',
        'Bearer a query Q { y }',
        'Bearer b query Q { x }',
      ]);
      // Once the first has answered, the same query is sent afresh.
      received.length = 0;
      await call(s, 'query Q { x }', { authorization: 'Bearer a' });
      expect(received).toHaveLength(1);
    } finally {
      s.close();
    }
  });

  it('forwards x-request-id to join the logs, without splitting a fetch shared by identical requests', async () => {
    behaviour = 'ok';
    received.length = 0;
    const s = source();
    try {
      await Promise.all([
        call(s, 'query R { x }', { authorization: 'Bearer a', 'x-request-id': 'first' }),
        call(s, 'query R { x }', { authorization: 'Bearer a', 'x-request-id': 'second' }),
      ]);
      expect(received.map((r) => r.requestId)).toEqual(['first']);
      await call(s, 'query R { x }', { 'x-request-id': 'third' });
      expect(received.map((r) => r.requestId)).toEqual(['first', 'third']);
    } finally {
      s.close();
    }
  });

  it('deduplication off: every fetch is sent', async () => {
    behaviour = 'ok';
    received.length = 0;
    const s = new HttpSource('markets', url, 2_000, { warn: (m) => warnings.push(m) }, false);
    try {
      await Promise.all([1, 2, 3].map(() => call(s, 'query Q { x }')));
      expect(received).toHaveLength(3);
    } finally {
      s.close();
    }
  });
});
