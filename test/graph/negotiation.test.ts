/**
 * `/graphql` over real HTTP on loopback, by the rules of HTTP (router/negotiation.ts, docs/graph.md "GraphQL over
 * HTTP"): the answer's type by q-values, then specificity, then order; a stream only when preferred or for a
 * subscription; 406 when nothing served is accepted; content types in any case; and the method rule on every
 * transport — a mutation sent by GET is refused (405) whether plain, asking for an event stream (fetch, and
 * Chromium's EventSource: the graphql-sse protocol's GET), or asking for multipart, and nothing runs.
 */
import { request as httpRequest } from 'node:http';
import { cacheExchange, createClient, fetchExchange } from '@urql/core';
import { chromium } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { signIn, wallet } from '../accounts/harness.ts';
import { listeningGraph } from './support/router-http.ts';
import type { GqlBody, GraphHarness } from './router-harness.ts';

let g: GraphHarness;
let url: string;

beforeAll(async () => {
  ({ g, url } = await listeningGraph());
}, 60_000);
afterAll(async () => g?.close());

const Q = '{ coin(id: "bitcoin") { id } }';
const SUB = 'subscription { prices(ids: ["litecoin"], currency: "usd") { id } }';
/** What urql sends by default. */
const URQL_ACCEPT =
  'application/graphql-response+json, application/graphql+json, application/json, text/event-stream, multipart/mixed';

interface Answer {
  status: number;
  type: string;
  headers: Headers;
  text: string;
  json: GqlBody | undefined;
}

async function request(init: {
  method?: string;
  search?: string;
  body?: unknown;
  headers?: Record<string, string>;
}) {
  const ac = new AbortController();
  const r = await fetch(`${url}${init.search ?? ''}`, {
    method: init.method ?? (init.body === undefined ? 'GET' : 'POST'),
    headers: { ...(init.body === undefined ? {} : { 'content-type': 'application/json' }), ...init.headers },
    ...(init.body === undefined
      ? {}
      : { body: typeof init.body === 'string' ? init.body : JSON.stringify(init.body) }),
    signal: ac.signal,
  });
  const type = r.headers.get('content-type') ?? '';
  // A stream: its first event is enough.
  const text = type.startsWith('text/event-stream') ? await firstEvent(r) : await r.text();
  ac.abort();
  let json: GqlBody | undefined;
  try {
    json = JSON.parse(text) as GqlBody;
  } catch {
    json = undefined;
  }
  return { status: r.status, type, headers: r.headers, text, json } satisfies Answer;
}

async function firstEvent(r: Response): Promise<string> {
  const reader = (r.body as ReadableStream<Uint8Array>).getReader();
  const decoder = new TextDecoder();
  let text = '';
  while (!/event: next\ndata: .*\n/.test(text)) {
    const { done, value } = await reader.read();
    if (done) break;
    text += decoder.decode(value, { stream: true });
  }
  await reader.cancel().catch(() => undefined);
  return text;
}

const post = (body: unknown, headers: Record<string, string> = {}) => request({ body, headers });
const get = (query: string, headers: Record<string, string> = {}) =>
  request({ search: `?query=${encodeURIComponent(query)}`, headers });
const code = (a: Answer) => a.json?.errors?.[0]?.extensions?.['code'];

describe('the answer’s media type', () => {
  it('by q-value, then the more specific range, then the client’s order', async () => {
    const cases: [string | undefined, string][] = [
      [undefined, 'application/json'],
      ['*/*', 'application/json'],
      ['application/*', 'application/json'],
      ['application/graphql-response+json', 'application/graphql-response+json'],
      ['application/json', 'application/json'],
      ['application/json, application/graphql-response+json', 'application/json'],
      ['application/graphql-response+json, application/json', 'application/graphql-response+json'],
      ['application/graphql-response+json;q=0.5, application/json', 'application/json'],
      ['application/json;q=0.9, */*', 'application/graphql-response+json'], // JSON's own range says 0.9
      ['*/*;q=0.5, application/graphql-response+json;q=0.6', 'application/graphql-response+json'],
      ['application/json;q=0, */*', 'application/graphql-response+json'],
      ['APPLICATION/GRAPHQL-RESPONSE+JSON; CHARSET=UTF-8', 'application/graphql-response+json'],
      [URQL_ACCEPT, 'application/graphql-response+json'],
      // Preferring a stream it could have, for a query, is not preferring JSON less: JSON still wins where it leads.
      ['application/json;q=1, text/event-stream;q=0.5', 'application/json'],
      ['multipart/mixed, application/json;q=0.5', 'application/json'],
    ];
    for (const [accept, type] of cases) {
      for (const send of [
        () => post({ query: Q }, accept ? { accept } : {}),
        () => get(Q, accept ? { accept } : {}),
      ]) {
        const r = await send();
        expect({ accept, status: r.status, type: r.type }).toEqual({
          accept,
          status: 200,
          type: `${type}; charset=utf-8`,
        });
        expect(r.json?.data).toEqual({ coin: { id: 'bitcoin' } });
        expect(r.headers.get('vary')).toMatch(/\bAccept\b/);
      }
    }
  });

  it('a query or mutation is streamed only when the client prefers text/event-stream', async () => {
    for (const accept of [
      'text/event-stream',
      'text/event-stream, application/json;q=0.5',
      '*/*, text/event-stream',
    ]) {
      const r = await post({ query: Q }, { accept });
      expect(r.type).toBe('text/event-stream; charset=utf-8');
      expect(r.text).toContain('"coin":{"id":"bitcoin"}');
      expect(r.headers.get('vary')).toMatch(/\bAccept\b/);
    }
  });

  it('a subscription is streamed when the client accepts a stream at all (urql’s header lists it last)', async () => {
    for (const accept of [URQL_ACCEPT, '*/*', 'application/json, text/event-stream;q=0.1']) {
      const r = await post({ query: SUB }, { accept });
      expect({ accept, type: r.type }).toEqual({ accept, type: 'text/event-stream; charset=utf-8' });
      expect(r.text).toContain('"prices":[{"id":"litecoin"}]');
    }
    // Not accepting text/event-stream, a stream is needed.
    for (const accept of ['application/json', '*/*, text/event-stream;q=0']) {
      const r = await post({ query: SUB }, { accept });
      expect({ accept, status: r.status }).toEqual({ accept, status: 400 });
      expect(code(r)).toBe('SUBSCRIPTION_NEEDS_STREAM');
    }
    // No Accept header at all (fetch always sends one) is application/json, as GraphQL over HTTP says.
    const bare = await withoutAccept(JSON.stringify({ query: SUB }));
    expect(bare.status).toBe(400);
    expect((JSON.parse(bare.text) as GqlBody).errors?.[0]?.extensions?.['code']).toBe(
      'SUBSCRIPTION_NEEDS_STREAM',
    );
    const query = await withoutAccept(JSON.stringify({ query: Q }));
    expect(query).toMatchObject({ status: 200, type: 'application/json; charset=utf-8' });
    await until(() => g.router.subscriptions.stats().streams === 0);
  });

  it('accepting nothing served: 406 NOT_ACCEPTABLE as JSON, and nothing runs', async () => {
    for (const accept of [
      'image/png',
      'multipart/mixed',
      'application/json;charset=iso-8859-1',
      'application/json;q=0',
    ]) {
      g.resetCounts();
      for (const r of [await post({ query: Q }, { accept }), await get(Q, { accept })]) {
        expect({ accept, status: r.status, type: r.type }).toEqual({
          accept,
          status: 406,
          type: 'application/json; charset=utf-8',
        });
        expect(code(r)).toBe('NOT_ACCEPTABLE');
        expect(r.json?.errors?.[0]?.message).toMatch(
          /application\/graphql-response\+json or application\/json/,
        );
      }
      expect(g.counts.contexts.markets).toBe(0);
    }
  });

  it('urql in Node on its defaults: a query by GET and a mutation by POST answer JSON; nothing is left unhandled', async () => {
    const client = createClient({ url, exchanges: [cacheExchange, fetchExchange] });
    const q = await client.query(Q, {}).toPromise();
    expect(q.error).toBeUndefined();
    expect(q.data).toEqual({ coin: { __typename: 'Coin', id: 'bitcoin' } });
    const m = await client
      .mutation('mutation ($a: String!) { requestSignInChallenge(address: $a) { nonce } }', { a: 'nope' })
      .toPromise();
    expect(m.error?.graphQLErrors[0]?.extensions['code']).toBe('INVALID_ADDRESS');
    // urql aborts each request once it has its result: give an abort a turn to surface as an unhandled rejection.
    await new Promise((r) => setTimeout(r, 50));
  });
});

describe('content types compare case-insensitively', () => {
  it('POST with APPLICATION/JSON (any case, with parameters) works like application/json', async () => {
    for (const type of [
      'APPLICATION/JSON',
      'Application/Json; Charset=UTF-8',
      'application/JSON;charset="utf-8"',
    ]) {
      const r = await post({ query: Q }, { 'content-type': type });
      expect({ type, status: r.status }).toEqual({ type, status: 200 });
      expect(r.json?.data).toEqual({ coin: { id: 'bitcoin' } });
      const sse = await post({ query: Q }, { 'content-type': type, accept: 'text/event-stream' });
      expect(sse.text).toContain('"coin":{"id":"bitcoin"}');
    }
  });

  it('a body of another type is a coded client error, never an empty one', async () => {
    for (const type of [
      'text/plain',
      'application/xml',
      'application/graphql',
      'application/graphql-response+json',
      'application/x-www-form-urlencoded',
      'multipart/form-data; boundary=x',
    ]) {
      const r = await post(JSON.stringify({ query: Q }), {
        'content-type': type,
        'apollo-require-preflight': 'true',
      });
      expect({ type, ok: r.status >= 400 && r.status < 500 }).toEqual({ type, ok: true });
      expect(typeof code(r)).toBe('string');
      if (r.status === 415) expect(code(r)).toBe('UNSUPPORTED_MEDIA_TYPE');
    }
  });
});

describe('a mutation is never executed from a GET, on any transport', () => {
  const REQUEST_KEY = 'mutation { requestApiKey(plan: FREE, description: "by GET") { apiKey { id } } }';
  let token: string;

  beforeAll(async () => {
    token = await signIn(g.rest, wallet());
  });

  async function keysOf(t: string): Promise<unknown[]> {
    const r = await post({ query: '{ me { apiKeys { id } } }' }, { authorization: `Bearer ${t}` });
    return (r.json?.data as { me: { apiKeys: unknown[] } }).me.apiKeys;
  }

  /** The transport, its Accept header, and the JSON type of the refusal (the client's choice, else JSON). */
  const transports: [string, Record<string, string>, string][] = [
    ['plain GET', {}, 'application/json'],
    [
      'plain GET preferring graphql-response+json',
      { accept: 'application/graphql-response+json' },
      'application/graphql-response+json',
    ],
    ['GET asking for an event stream', { accept: 'text/event-stream' }, 'application/json'],
    ['GET accepting a stream as urql does', { accept: URQL_ACCEPT }, 'application/graphql-response+json'],
    ['GET asking for multipart', { accept: 'multipart/mixed' }, 'application/json'],
    [
      'GET asking for multipart with @defer',
      { accept: 'multipart/mixed;deferSpec=20220824' },
      'application/json',
    ],
    ['GET accepting nothing served', { accept: 'image/png' }, 'application/json'],
  ];
  for (const [name, headers, type] of transports)
    it(`${name}: 405 with Allow: POST, the same code and message, and no key made`, async () => {
      g.resetCounts();
      const r = await get(REQUEST_KEY, { ...headers, authorization: `Bearer ${token}` });
      expect(r.status).toBe(405);
      expect(r.headers.get('allow')).toBe('POST');
      expect(r.type).toBe(`${type}; charset=utf-8`);
      expect(r.json).toEqual({
        errors: [
          {
            message: 'GET requests only support query operations, not mutation operations',
            extensions: { code: 'BAD_REQUEST' },
          },
        ],
      });
      expect(g.counts.contexts.accounts).toBe(0);
      expect(await keysOf(token)).toEqual([]);
    });

  it('POST still runs the mutation, over plain HTTP and over an event stream', async () => {
    const plain = await post({ query: REQUEST_KEY }, { authorization: `Bearer ${token}` });
    expect(plain.status).toBe(200);
    const sse = await post(
      { query: REQUEST_KEY },
      { authorization: `Bearer ${token}`, accept: 'text/event-stream' },
    );
    expect(sse.type).toBe('text/event-stream; charset=utf-8');
    expect(sse.text).toContain('"requestApiKey"');
    expect(await keysOf(token)).toHaveLength(2);
  });

  it('Chromium’s EventSource (the graphql-sse protocol over GET): a query streams, a mutation is refused', async () => {
    const browser = await chromium.launch({
      executablePath: '/usr/bin/chromium',
      args: ['--no-sandbox', '--headless', '--disable-gpu', '--disable-dev-shm-usage'],
    });
    try {
      const page = await browser.newPage();
      await page.goto(`${url}/health`);
      const open = (query: string) =>
        page.evaluate(
          (src) =>
            new Promise<{ event: string; data?: string; state?: number }>((resolve) => {
              const es = new EventSource(src);
              es.addEventListener('next', (e) => {
                es.close();
                resolve({ event: 'next', data: (e as MessageEvent<string>).data });
              });
              es.onerror = () => {
                const state = es.readyState;
                es.close();
                resolve({ event: 'error', state });
              };
            }),
          `/graphql?query=${encodeURIComponent(query)}`,
        );
      const q = await open(Q);
      expect(q.event).toBe('next');
      expect(JSON.parse(q.data ?? '{}')).toMatchObject({ data: { coin: { id: 'bitcoin' } } });
      g.resetCounts();
      const m = await open('mutation { requestSignInChallenge(address: "ltc1qexample") { nonce } }');
      // A response that is not 200 text/event-stream fails the connection: closed, not retried.
      expect(m).toEqual({ event: 'error', state: 2 });
      expect(g.counts.contexts.accounts).toBe(0);
    } finally {
      await browser.close();
    }
  });
});

/** A POST with no `Accept` header at all (node:http sends none unless told). */
function withoutAccept(body: string): Promise<{ status: number; type: string; text: string }> {
  return new Promise((resolve, reject) => {
    const req = httpRequest(
      url,
      { method: 'POST', headers: { 'content-type': 'application/json' } },
      (res) => {
        let text = '';
        res.setEncoding('utf8');
        res.on('data', (c: string) => (text += c));
        res.on('end', () =>
          resolve({ status: res.statusCode ?? 0, type: res.headers['content-type'] ?? '', text }),
        );
      },
    );
    req.on('error', reject);
    req.end(body);
  });
}

async function until(ok: () => boolean): Promise<void> {
  const deadline = Date.now() + 5_000;
  while (!ok()) {
    if (Date.now() > deadline) throw new Error('condition not met within 5 s');
    await new Promise((r) => setTimeout(r, 20));
  }
}
