/**
 * GraphQL over SSE: what a client sends wrong is the client's error. Raw HTTP over real loopback (`node:http`, one
 * connection per request) against the product's own server (`createServer`, instrumented as a process is: its
 * Fastify log at warn and one access line per request) with the embedded router: each malformed or disallowed
 * request that asks for an event stream is a 4xx with `{ "errors": [{ "message", "extensions": { "code" } }] }` and a
 * message saying what was expected — never a 5xx, never a 200 stream — and leaves exactly one log line, the access
 * line (its status; `refused`, the code of a refusal of the router's own: key, budget, body, method, caps), no stack. A
 * client that goes away mid-stream is cleaned up (the hub's and the stream gate's counts go back down) and logs
 * nothing.
 */
import { request } from 'node:http';
import type { IncomingHttpHeaders } from 'node:http';
import type { FastifyBaseLogger, FastifyInstance } from 'fastify';
import { pino } from 'pino';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import type { Logger } from '../../src/core/log.ts';
import { createServer } from '../../src/start/server.ts';
import { ProcessRun } from '../../src/start/process.ts';
import { engineConfig } from '../../src/start/wiring.ts';
import { ADMIN_TOKEN, call } from '../accounts/harness.ts';
import { graphHarness } from './router-harness.ts';
import type { GraphHarness } from './router-harness.ts';

let g: GraphHarness;
let app: FastifyInstance;
let base: string;
/** Every line the server logged: Fastify's (warn and above) and the access lines (info, `msg: "request"`). */
const lines: Record<string, unknown>[] = [];

const PRICES = 'subscription { prices(ids: ["litecoin"], currency: "usd") { id price } }';
const STREAM = { accept: 'text/event-stream', 'content-type': 'application/json' };
const NOT_AN_OBJECT =
  'a POST to /graphql must be a JSON object such as {"query":"subscription { … }"}, sent with Content-Type: application/json';

beforeAll(async () => {
  g = await graphHarness({ keylessPerMinute: 100_000 });
  const log =
    (level: number): Logger['info'] =>
    (msg, data) =>
      void lines.push({ level, msg, ...data });
  const run = new ProcessRun(
    { logLevel: 'silent', host: '127.0.0.1', port: 0 },
    { log: { info: log(30), warn: log(40), error: log(50) } },
    'product',
  );
  app = await createServer({
    market: g.tm.market,
    engine: engineConfig({ staleAfterMs: 900_000 }),
    dataset: () => ({ kind: 'demo', notice: null }),
    graph: g.router,
    fastifyOptions: {
      ...run.fastifyOptions,
      loggerInstance: pino(
        { level: 'warn' },
        { write: (s: string) => void lines.push(JSON.parse(s) as Record<string, unknown>) },
      ) as FastifyBaseLogger,
    },
  });
  run.instrument(app);
  base = await app.listen({ port: 0, host: '127.0.0.1' });
}, 180_000);
afterAll(async () => {
  await app?.close();
  await g?.close();
});

interface Answer {
  status: number;
  headers: IncomingHttpHeaders;
  text: string;
}

/** One request on its own connection; resolves with the whole answer (a refusal, or a stream that ended). */
function send(
  method: string,
  path: string,
  headers: Record<string, string>,
  body?: string | Buffer,
): Promise<Answer> {
  return new Promise((resolve, reject) => {
    const length = body === undefined ? {} : { 'content-length': String(Buffer.byteLength(body)) };
    const req = request(
      `${base}${path}`,
      { method, headers: { ...length, ...headers }, agent: false },
      (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => chunks.push(c));
        res.on('end', () =>
          resolve({
            status: res.statusCode ?? 0,
            headers: res.headers,
            text: Buffer.concat(chunks).toString('utf8'),
          }),
        );
        res.on('error', reject);
      },
    );
    req.on('error', reject);
    req.end(body);
  });
}

/** An open event stream: its first bytes arrived; `events` grows as `next` events come. */
interface Open {
  status: number;
  events: string[];
  close(): void;
}

/** A stream the client opens: a POST of `body`, or a GET of `path` when there is none. */
function open(body: string | null, path = '/graphql'): Promise<Open> {
  return new Promise((resolve, reject) => {
    const headers = body === null ? { accept: 'text/event-stream' } : STREAM;
    const req = request(
      `${base}${path}`,
      { method: body === null ? 'GET' : 'POST', headers, agent: false },
      (res) => {
        const events: string[] = [];
        let buffered = '';
        let resolved = false;
        res.on('data', (c: Buffer) => {
          buffered += c.toString('utf8');
          const parts = buffered.split('\n\n');
          buffered = parts.pop() ?? '';
          for (const p of parts) if (p.startsWith('event: next')) events.push(p);
          if (!resolved && events.length > 0) {
            resolved = true;
            resolve({ status: res.statusCode ?? 0, events, close: () => req.destroy() });
          }
        });
        res.on('error', () => undefined); // the client's own destroy
        res.on('end', () => {
          if (!resolved) reject(new Error(`stream ended before an event: ${res.statusCode} ${buffered}`));
        });
      },
    );
    req.on('error', (e) => reject(e));
    req.end(body ?? undefined);
  });
}

/** The lines logged from `from` on, once the request's access line is written (after its answer is sent). */
async function loggedSince(from: number): Promise<Record<string, unknown>[]> {
  await vi.waitFor(() => expect(lines.slice(from).some((l) => l['msg'] === 'request')).toBe(true), {
    timeout: 5_000,
  });
  await new Promise((r) => setTimeout(r, 20)); // anything logged just after the answer
  return lines.slice(from);
}

interface Refusal {
  status: number;
  code: string;
  message: RegExp | string;
  /** The access line's `refused`: the router's own refusals (not graphql-js's request errors, as on plain HTTP). */
  refused?: string | undefined;
  headers?: Record<string, string>;
}

/** Sends a request and checks its refusal and the one line it leaves. */
async function expectRefusal(r: () => Promise<Answer>, want: Refusal): Promise<void> {
  const from = lines.length;
  const a = await r();
  expect(a.headers['content-type']).toBe('application/json; charset=utf-8');
  const body = JSON.parse(a.text) as { errors: { message: string; extensions: { code: string } }[] };
  expect({ status: a.status, code: body.errors[0]?.extensions.code }).toEqual({
    status: want.status,
    code: want.code,
  });
  expect(body.errors).toHaveLength(1);
  expect(body.errors[0]?.message).toMatch(want.message);
  expect(Object.keys(body)).toEqual(['errors']);
  for (const [k, v] of Object.entries(want.headers ?? {})) expect(a.headers[k]).toBe(v);
  const logged = await loggedSince(from);
  expect(logged).toHaveLength(1);
  expect(logged[0]).toMatchObject({ level: 30, msg: 'request', status: want.status });
  expect(logged[0]?.['refused']).toBe(want.refused);
  expect(JSON.stringify(logged)).not.toMatch(/stack|\\n\s+at /);
}

const post =
  (body: string | Buffer, headers: Record<string, string> = {}, path = '/graphql') =>
  () =>
    send('POST', path, { ...STREAM, ...headers }, body);
const json = (v: unknown) => JSON.stringify(v);

describe('a body that is not one GraphQL request', () => {
  it.each([
    ['malformed JSON', '{"query":'],
    ['an empty body', ''],
  ])('%s: 400 INVALID_JSON', (_, body) =>
    expectRefusal(post(body), {
      status: 400,
      code: 'INVALID_JSON',
      message: 'request body must be a valid JSON document',
      refused: 'INVALID_JSON',
    }),
  );
  it('JSON that is not UTF-8: 400 INVALID_JSON', () =>
    expectRefusal(post(Buffer.from([0x7b, 0x22, 0xff, 0x22, 0x3a, 0x31, 0x7d])), {
      status: 400,
      code: 'INVALID_JSON',
      message: /UTF-8/,
      refused: 'INVALID_JSON',
    }));
  it('a batch (a JSON array): 400, an event stream carries one operation', () =>
    expectRefusal(post(json([{ query: PRICES }])), {
      status: 400,
      code: 'BAD_REQUEST',
      message: 'an event stream carries one operation: send a JSON object, not a batch',
      refused: 'BAD_REQUEST',
    }));
  for (const [what, body] of [
    ['a number', '42'],
    ['a string', '"subscription { x }"'],
    ['null', 'null'],
  ] as const)
    it(`${what}: 400, a JSON object is expected`, () =>
      expectRefusal(post(body), {
        status: 400,
        code: 'BAD_REQUEST',
        message: NOT_AN_OBJECT,
        refused: 'BAD_REQUEST',
      }));
  it('no query: 400 BAD_REQUEST', () =>
    expectRefusal(post(json({ variables: {} })), {
      status: 400,
      code: 'BAD_REQUEST',
      message: 'a GraphQL request needs a query (or a persisted documentId)',
    }));
  // In the engine's words for the same mistake in a plain request.
  for (const [param, value, expected] of [
    ['query', 42, 'a string'],
    ['operationName', 7, 'a string'],
    ['variables', 'ids', 'an object'],
    ['variables', ['litecoin'], 'an object'],
    ['extensions', 'x', 'an object'],
  ] as const)
    it(`${param} of the wrong JSON type (${JSON.stringify(value)}): 400 naming the parameter`, () =>
      expectRefusal(post(json({ query: PRICES, [param]: value })), {
        status: 400,
        code: 'BAD_REQUEST',
        message: `\`${param}\` in a POST body must be ${expected} if provided.`,
        refused: 'BAD_REQUEST',
      }));
});

describe('a document the router cannot run', () => {
  it('a syntax error: 400 GRAPHQL_PARSE_FAILED saying what was expected', () =>
    expectRefusal(post(json({ query: 'subscription { prices(' })), {
      status: 400,
      code: 'GRAPHQL_PARSE_FAILED',
      message: /^Syntax Error: Expected .+, found <EOF>\.$/,
    }));
  it('a field that does not exist: 400 GRAPHQL_VALIDATION_FAILED', () =>
    expectRefusal(post(json({ query: 'subscription { nope }' })), {
      status: 400,
      code: 'GRAPHQL_VALIDATION_FAILED',
      message: 'Cannot query field "nope" on type "Subscription".',
    }));
  it('an unknown operationName: 400 OPERATION_RESOLUTION_FAILURE', () =>
    expectRefusal(post(json({ query: `subscription Live ${PRICES.slice(13)}`, operationName: 'Other' })), {
      status: 400,
      code: 'OPERATION_RESOLUTION_FAILURE',
      message: 'Unknown operation named "Other".',
    }));
  it('variables that do not coerce: 400 BAD_USER_INPUT', () =>
    expectRefusal(
      post(
        json({
          query: 'subscription ($ids: [ID!]!) { prices(ids: $ids, currency: "usd") { id } }',
          variables: { ids: { id: 'litecoin' } },
        }),
      ),
      { status: 400, code: 'BAD_USER_INPUT', message: /\$ids/ },
    ));
  it('a required variable missing: 400 BAD_USER_INPUT', () =>
    expectRefusal(
      post(json({ query: 'subscription ($ids: [ID!]!) { prices(ids: $ids, currency: "usd") { id } }' })),
      { status: 400, code: 'BAD_USER_INPUT', message: /\$ids.+was not provided/ },
    ));
});

describe('over the caps', () => {
  it('a document over 32,768 characters: MAX_QUERY_LENGTH_EXCEEDED', () =>
    expectRefusal(post(json({ query: `${PRICES} #${'x'.repeat(33_000)}` })), {
      status: 400,
      code: 'MAX_QUERY_LENGTH_EXCEEDED',
      message: /at most 32768 are allowed/,
      refused: 'MAX_QUERY_LENGTH_EXCEEDED',
    }));
  it('too many aliases: MAX_ALIASES_EXCEEDED', () =>
    expectRefusal(
      post(
        json({
          query: `subscription { prices(ids: ["litecoin"], currency: "usd") { ${Array.from({ length: 31 }, (_, i) => `a${i}: id`).join(' ')} } }`,
        }),
      ),
      {
        status: 400,
        code: 'MAX_ALIASES_EXCEEDED',
        message: 'the operation uses 31 aliases: at most 30 are allowed',
        refused: 'MAX_ALIASES_EXCEEDED',
      },
    ));
  it('too deep (a query over the stream): MAX_DEPTH_EXCEEDED', () => {
    let q = 'id';
    for (let level = 15; level >= 2; level--) q = `${level % 2 === 0 ? 'apiKeys' : 'owner'} { ${q} }`;
    return expectRefusal(post(json({ query: `{ me { ${q} } }` })), {
      status: 400,
      code: 'MAX_DEPTH_EXCEEDED',
      message: 'the operation nests fields 16 deep: at most 15 levels are allowed',
      refused: 'MAX_DEPTH_EXCEEDED',
    });
  });
  it('over the cost ceiling (a query over the stream): COST_ESTIMATED_TOO_EXPENSIVE', () =>
    expectRefusal(
      post(
        json({
          query: '{ coins(first: 250) { edges { node { id chart(days: 30) { points { price } } } } } }',
        }),
      ),
      {
        status: 400,
        code: 'COST_ESTIMATED_TOO_EXPENSIVE',
        message: /exceeds the keyless plan's limit of 2500/,
        refused: 'COST_ESTIMATED_TOO_EXPENSIVE',
      },
    ));
  it('too many coins in one subscription: TOO_MANY_SUBSCRIPTION_IDS', () =>
    expectRefusal(post(json({ query: 'subscription { markets(first: 1000, currency: "usd") { id } }' })), {
      status: 400,
      code: 'TOO_MANY_SUBSCRIPTION_IDS',
      message: /asks for 1000 coins \(first\): at most \d+ per subscription on the keyless plan/,
      refused: 'TOO_MANY_SUBSCRIPTION_IDS',
    }));
  it('a body over the keyless 64 KiB: 413 PAYLOAD_TOO_LARGE', () =>
    expectRefusal(post(json({ query: PRICES, extensions: { pad: 'x'.repeat(70_000) } })), {
      status: 413,
      code: 'PAYLOAD_TOO_LARGE',
      message: 'request body must be at most 64 KiB',
      refused: 'PAYLOAD_TOO_LARGE',
    }));
  it('a body over 1 MiB: 413 PAYLOAD_TOO_LARGE', () =>
    expectRefusal(post(json({ query: PRICES, extensions: { pad: 'x'.repeat(1_100_000) } })), {
      status: 413,
      code: 'PAYLOAD_TOO_LARGE',
      message: /request body must be at most (64 KiB|1 MiB)/,
      refused: 'PAYLOAD_TOO_LARGE',
    }));
});

describe('methods and media types', () => {
  it('a mutation over GET: 405 with Allow: POST', () =>
    expectRefusal(
      () =>
        send(
          'GET',
          `/graphql?query=${encodeURIComponent('mutation { requestSignInChallenge(address: "x") { nonce } }')}`,
          { accept: 'text/event-stream' },
        ),
      {
        status: 405,
        code: 'BAD_REQUEST',
        message: 'GET requests only support query operations, not mutation operations',
        refused: 'BAD_REQUEST',
        headers: { allow: 'POST' },
      },
    ));
  it('a GET without a query: 400', () =>
    expectRefusal(() => send('GET', '/graphql', { accept: 'text/event-stream' }), {
      status: 400,
      code: 'BAD_REQUEST',
      message: 'a GraphQL request needs a query (or a persisted documentId)',
    }));
  it('GET variables that are not a JSON object: 400 naming the parameter', () =>
    expectRefusal(
      () =>
        send('GET', `/graphql?query=${encodeURIComponent(PRICES)}&variables=${encodeURIComponent('[1]')}`, {
          accept: 'text/event-stream',
        }),
      {
        status: 400,
        code: 'BAD_REQUEST',
        message: 'The variables search parameter should contain a JSON-encoded object.',
        refused: 'BAD_REQUEST',
      },
    ));
  // PUT is graphql-sse's reservation of a single-connection-mode stream: a mode the router does not serve.
  for (const method of ['PUT', 'DELETE', 'PATCH'])
    it(`${method}: 405 METHOD_NOT_ALLOWED with Allow: GET, POST`, () =>
      expectRefusal(() => send(method, '/graphql', STREAM, json({ query: PRICES })), {
        status: 405,
        code: 'METHOD_NOT_ALLOWED',
        message: new RegExp(`^/graphql takes GET or POST, not ${method}: .+ single connection mode`),
        refused: 'METHOD_NOT_ALLOWED',
        headers: { allow: 'GET, POST' },
      }));
  it('a body without a Content-Type: 400, application/json expected', () =>
    expectRefusal(() => send('POST', '/graphql', { accept: 'text/event-stream' }, json({ query: PRICES })), {
      status: 400,
      code: 'BAD_REQUEST',
      message: NOT_AN_OBJECT,
      refused: 'BAD_REQUEST',
    }));
  for (const type of ['text/plain', 'application/x-www-form-urlencoded', 'application/xml'])
    it(`a ${type} body: 400, application/json expected`, () =>
      expectRefusal(post(json({ query: PRICES }), { 'content-type': type }), {
        status: 400,
        code: 'BAD_REQUEST',
        message: NOT_AN_OBJECT,
        refused: 'BAD_REQUEST',
      }));
});

describe('keys', () => {
  let a: { key: string; id: string };
  let b: { key: string; id: string };
  beforeAll(async () => {
    [a, b] = await Promise.all([g.makeKey('free'), g.makeKey('pro')]);
  });

  it('two different keys (header and query, or two headers): 400 API_KEY_CONFLICT, as on plain HTTP', async () => {
    const conflict = {
      status: 400,
      code: 'API_KEY_CONFLICT',
      message: /one API key/,
      refused: 'API_KEY_CONFLICT',
    };
    await expectRefusal(
      post(json({ query: PRICES }), { 'x-sp-api-key': a.key }, `/graphql?x_sp_api_key=${b.key}`),
      conflict,
    );
    await expectRefusal(
      post(json({ query: PRICES }), { 'x-sp-api-key': a.key, 'x-cg-pro-api-key': b.key }),
      conflict,
    );
    // The same over a GET (an EventSource can only put the key in the query).
    await expectRefusal(
      () =>
        send('GET', `/graphql?query=${encodeURIComponent(PRICES)}&x_sp_api_key=${b.key}`, {
          accept: 'text/event-stream',
          'x-sp-api-key': a.key,
        }),
      conflict,
    );
  });

  it('an unknown key: 401; a revoked key: 401 API_KEY_REVOKED', async () => {
    await expectRefusal(
      post(json({ query: PRICES }), { 'x-sp-api-key': 'cw_live_nosuchkey0000000000000000' }),
      {
        status: 401,
        code: 'API_KEY_UNKNOWN',
        message: /^the API key is not recognised/,
        refused: 'API_KEY_UNKNOWN',
      },
    );
    const revoked = await g.makeKey('free');
    const r = await call(g.rest, 'POST', `/api/admin/api-keys/${revoked.id}/revoke`, { token: ADMIN_TOKEN });
    expect(r.status).toBe(200);
    await expectRefusal(post(json({ query: PRICES }), { 'x-sp-api-key': revoked.key }), {
      status: 401,
      code: 'API_KEY_REVOKED',
      message: /revoked/,
      refused: 'API_KEY_REVOKED',
    });
  });
});

describe('open streams', () => {
  const streams = () => g.router.subscriptions.stats().streams;

  it('past the plan’s open streams: 429 TOO_MANY_SUBSCRIPTIONS with Retry-After; freed when clients go', async () => {
    const before = streams();
    // Keyless: 2 at once per client address.
    const held = [await open(json({ query: PRICES })), await open(json({ query: PRICES }))];
    expect(held.map((s) => s.status)).toEqual([200, 200]);
    expect(streams()).toBe(before + 2);
    await expectRefusal(post(json({ query: PRICES })), {
      status: 429,
      code: 'TOO_MANY_SUBSCRIPTIONS',
      message:
        '2 open subscriptions at once is the most for requests without an API key from this address: end one before opening another',
      refused: 'TOO_MANY_SUBSCRIPTIONS',
      headers: { 'retry-after': '1' },
    });
    for (const s of held) s.close();
    await vi.waitFor(() => expect(streams()).toBe(before), { timeout: 5_000 });
    // Their places in the plan's gate are free again.
    const again = [await open(json({ query: PRICES })), await open(json({ query: PRICES }))];
    for (const s of again) s.close();
    await vi.waitFor(() => expect(streams()).toBe(before), { timeout: 5_000 });
  });

  it('a GET carries its variables (`?variables=`, as graphql-sse and EventSource send them)', async () => {
    const before = streams();
    const query = 'subscription ($ids: [ID!]!) { prices(ids: $ids, currency: "usd") { id } }';
    const variables = json({ ids: ['litecoin'] });
    const r = await open(
      null,
      `/graphql?query=${encodeURIComponent(query)}&variables=${encodeURIComponent(variables)}`,
    );
    expect(r.status).toBe(200);
    expect(r.events[0]).toMatch(/"prices":\[\{"id":"litecoin"\}\]/);
    r.close();
    await vi.waitFor(() => expect(streams()).toBe(before), { timeout: 5_000 });
  });

  // No access line either: Fastify runs `onResponse` only for a response that finished (docs/graph.md).
  it('a client that disconnects mid-stream is cleaned up and logs nothing', async () => {
    const before = streams();
    const from = lines.length;
    const s = await open(json({ query: PRICES }));
    expect(s.events[0]).toMatch(/"litecoin"/);
    expect(streams()).toBe(before + 1);
    s.close();
    await vi.waitFor(() => expect(streams()).toBe(before), { timeout: 5_000 });
    await new Promise((r) => setTimeout(r, 100));
    expect(lines.slice(from)).toEqual([]);
  });
});

describe('no 5xx for anything above', () => {
  it('the log holds no warn or error line', () => {
    expect(lines.filter((l) => Number(l['level']) >= 40)).toEqual([]);
  });
});
