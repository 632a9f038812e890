/**
 * Incremental delivery (`@defer`, `@stream`) through the router, transport-free (`createRouter(...).handle` and the
 * stream opener behind SSE and WebSocket) over the embedded graph: the payloads come as they are ready, over
 * `multipart/mixed` and as events; the cost model and the budgets count them like the same operation undeferred; a
 * client that accepts only JSON gets the whole answer at once. docs/graph.md, "Incremental delivery".
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { foldIncremental } from '../../router/cost/incremental.ts';
import type { RouterResponse } from '../../router/index.ts';
import { graphHarness } from './router-harness.ts';
import type { GqlBody, GraphHarness } from './router-harness.ts';
import { freshIp } from './support/router.ts';

let g: GraphHarness;
beforeAll(async () => {
  g = await graphHarness();
}, 120_000);
afterAll(async () => g?.close());

const MULTIPART = 'multipart/mixed';
type Payload = GqlBody & {
  hasNext?: boolean;
  incremental?: { data?: unknown; items?: unknown[]; path: (string | number)[] }[];
};

function handle(
  query: string,
  accept: string,
  headers: Record<string, string> = {},
): Promise<RouterResponse> {
  return g.router.handle({
    method: 'POST',
    headers: { accept, 'content-type': 'application/json', ...headers },
    search: '',
    body: { query },
    socketIp: freshIp(),
  });
}

/** The JSON parts of a `multipart/mixed` answer, in order. */
async function parts(r: RouterResponse): Promise<Payload[]> {
  expect(r.headers['content-type']).toMatch(/^multipart\/mixed;\s*boundary=/);
  const boundary = /boundary="?([^";]+)"?/.exec(r.headers['content-type'] ?? '')?.[1] ?? '';
  expect(r.stream).toBeDefined();
  const text = await new Response(r.stream).text();
  return text
    .split(`\r\n--${boundary}`)
    .slice(1, -1)
    .map((part) => JSON.parse(part.slice(part.indexOf('\r\n\r\n') + 4)) as Payload);
}

/** The data of an answer put back together from its payloads. */
const whole = (payloads: Payload[]): unknown =>
  payloads.reduce<unknown>((d, p) => foldIncremental(d, p), undefined);

const CHARTED = '{ coin(id: "litecoin") { id symbol price chart(days: 1) { points { price } } } }';
const DEFERRED =
  '{ coin(id: "litecoin") { id symbol ... @defer(label: "late") { price chart(days: 1) { points { price } } } } }';
const LISTED = '{ coins(first: 5) { edges { node { id } } } }';
const STREAMED = '{ coins(first: 5) { edges @stream(initialCount: 2) { node { id } } } }';

describe('@defer over multipart/mixed', () => {
  it('sends the rest first and the deferred fragment after, costed as the same operation undeferred', async () => {
    const plain = await handle(CHARTED, 'application/json');
    const plainBody = JSON.parse(plain.body) as GqlBody;
    const r = await handle(DEFERRED, MULTIPART);
    expect(r.status).toBe(200);
    const payloads = await parts(r);
    expect(payloads.length).toBeGreaterThanOrEqual(2);
    expect(payloads[0]).toEqual({ data: { coin: { id: 'litecoin', symbol: 'ltc' } }, hasNext: true });
    const last = payloads.at(-1);
    expect(last?.hasNext).toBe(false);
    expect(payloads.flatMap((p) => p.incremental ?? [])).toEqual([
      {
        data: expect.objectContaining({ chart: expect.any(Object) }) as unknown,
        path: ['coin'],
        label: 'late',
      },
    ]);
    expect(whole(payloads)).toEqual(plainBody.data);
    // Counted like the undeferred operation: the same estimate in the headers, the same measured cost at the end.
    expect(r.headers['x-query-cost']).toBe(plain.headers['x-query-cost']);
    expect(Number(r.headers['x-query-cost'])).toBeGreaterThan(100);
    expect(last?.extensions?.['cost']).toEqual(plainBody.extensions?.['cost']);
  });

  it('@stream: the first items at once, the others after, costed as the same list unstreamed', async () => {
    const plain = await handle(LISTED, 'application/json');
    const plainBody = JSON.parse(plain.body) as GqlBody;
    const payloads = await parts(await handle(STREAMED, MULTIPART));
    expect(payloads[0]?.data).toEqual({
      coins: { edges: (plainBody.data as { coins: { edges: unknown[] } }).coins.edges.slice(0, 2) },
    });
    expect(payloads[0]?.hasNext).toBe(true);
    expect(payloads.flatMap((p) => p.incremental ?? []).map((i) => i.path)).toEqual([
      ['coins', 'edges', 2],
      ['coins', 'edges', 3],
      ['coins', 'edges', 4],
    ]);
    expect(whole(payloads)).toEqual(plainBody.data);
    expect(payloads.at(-1)?.extensions?.['cost']).toEqual(plainBody.extensions?.['cost']);
  });

  it("charges a key's cost budget what the undeferred operation costs", async () => {
    const { key } = await g.makeKey('free');
    const auth = { 'x-sp-api-key': key };
    const left = (b: GqlBody | undefined) =>
      (b?.extensions?.['cost'] as { budget: { remaining: number } }).budget.remaining;
    const before = left(JSON.parse((await handle(CHARTED, 'application/json', auth)).body) as GqlBody);
    const r = await handle(DEFERRED, MULTIPART, auth);
    // Sent before the answer is measured: what is left at the estimate.
    expect(Number(r.headers['x-cost-budget-remaining'])).toBe(before - Number(r.headers['x-query-cost']));
    const deferred = left((await parts(r)).at(-1));
    const after = left(JSON.parse((await handle(CHARTED, 'application/json', auth)).body) as GqlBody);
    expect(before - deferred).toBeGreaterThan(100);
    expect(before - deferred).toBe(deferred - after);
  });

  it('refuses an operation over its ceiling before anything runs, as the undeferred one', async () => {
    const heavy = (defer: boolean) =>
      `{ coins(first: 20) { edges { node { id ...${defer ? ' @defer' : ''} { chart(days: 1) { points { price } } } } } } }`;
    const plain = await handle(heavy(false), 'application/json');
    g.resetCounts();
    const r = await handle(heavy(true), MULTIPART);
    expect(r.status).toBe(plain.status);
    expect(r.status).toBe(400);
    const body = r.stream ? (await parts(r))[0] : (JSON.parse(r.body) as Payload);
    expect(body?.errors?.map((e) => e.extensions?.['code'])).toEqual(['COST_ESTIMATED_TOO_EXPENSIVE']);
    expect(body?.data).toBeUndefined();
    expect(g.counts.barReads).toBe(0);
  });
});

describe('@defer to a client that accepts only JSON', () => {
  it('answers the whole operation at once', async () => {
    const r = await handle(DEFERRED, 'application/json');
    expect(r.status).toBe(200);
    expect(r.stream).toBeUndefined();
    const type = Object.entries(r.headers).find(([k]) => k.toLowerCase() === 'content-type')?.[1];
    expect(type).toMatch(/^application\/json/);
    const body = JSON.parse(r.body) as Payload;
    expect(body.hasNext).toBeUndefined();
    expect(body.data).toEqual((JSON.parse((await handle(CHARTED, 'application/json')).body) as GqlBody).data);
  });
});

describe('@defer over the stream transports (SSE, WebSocket)', () => {
  it('opens a stream whose events are the payloads, the measured cost in the last', async () => {
    const opened = await g.router.subscriptions.open({
      method: 'POST',
      headers: { accept: 'text/event-stream', 'content-type': 'application/json' },
      search: '',
      body: { query: DEFERRED },
      socketIp: freshIp(),
    });
    expect(opened.kind).toBe('stream');
    if (opened.kind !== 'stream') return;
    const events: Payload[] = [];
    for await (const e of opened.stream) events.push(e as unknown as Payload);
    expect(events[0]).toEqual({ data: { coin: { id: 'litecoin', symbol: 'ltc' } }, hasNext: true });
    expect(events.at(-1)?.hasNext).toBe(false);
    expect(events.at(-1)?.extensions?.['cost']).toMatchObject({ plan: 'keyless' });
  });
});

describe('foldIncremental', () => {
  it('merges deferred fragments at their paths and streamed items at their indexes', () => {
    const first = { data: { a: { b: [{ id: 1 }, { id: 2 }] }, list: [1] }, hasNext: true };
    let d = foldIncremental(undefined, first);
    d = foldIncremental(d, {
      incremental: [
        { data: { name: 'x' }, path: ['a', 'b', 1] },
        { items: [2, 3], path: ['list', 1] },
      ],
      hasNext: true,
    });
    d = foldIncremental(d, { incremental: [{ data: { c: true }, path: ['a'] }], hasNext: false });
    expect(d).toEqual({ a: { b: [{ id: 1 }, { id: 2, name: 'x' }], c: true }, list: [1, 2, 3] });
    // The payloads as sent are left as they were.
    expect(first.data).toEqual({ a: { b: [{ id: 1 }, { id: 2 }] }, list: [1] });
  });

  it('leaves a fragment whose parent is null where it is', () => {
    const d = foldIncremental({ a: null }, { incremental: [{ data: { x: 1 }, path: ['a'] }] });
    expect(d).toEqual({ a: null });
  });
});
