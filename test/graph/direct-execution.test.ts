/**
 * Direct execution (`router/direct-execution.ts`): a query one in-process subgraph answers whole skips the gateway's
 * plan and result processing. Two routers over the same subgraphs — direct execution on and off, response cache off
 * in both — must answer every operation here byte for byte alike (status, body, cost headers); the ones that qualify
 * must be answered directly, the others (several subgraphs, introspection, errors) through the gateway.
 */
import { readFileSync } from 'node:fs';
import { buildSchema, getNamedType, isAbstractType, isEnumType, isNonNullType, isObjectType } from 'graphql';
import type { GraphQLArgument, GraphQLField, GraphQLObjectType, GraphQLSchema } from 'graphql';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mulberry32 } from '../../src/demo/random.ts';
import { createRouter } from '../../router/index.ts';
import type { Router } from '../../router/index.ts';
import { signIn, wallet } from '../accounts/harness.ts';
import { CASES } from './operations.ts';
import { graphHarness } from './router-harness.ts';
import type { GraphHarness } from './router-harness.ts';

let g: GraphHarness;
let direct: Router;
let gateway: Router;
beforeAll(async () => {
  g = await graphHarness();
  const common = { access: g.access, subgraphs: { kind: 'in-process' as const, subgraphs: g.subgraphs } };
  direct = await createRouter({ ...common, responseCache: false });
  gateway = await createRouter({ ...common, responseCache: false, directExecution: false });
}, 120_000);
afterAll(async () => {
  await direct?.stop();
  await gateway?.stop();
  await g?.close();
});

let ip = 0;
async function ask(
  r: Router,
  query: string,
  variables?: Record<string, unknown>,
  operationName?: string,
  headers: Record<string, string> = {},
) {
  const res = await r.handle({
    method: 'POST',
    headers: { 'content-type': 'application/json', ...headers },
    search: '',
    body: { query, ...(variables ? { variables } : {}), ...(operationName ? { operationName } : {}) },
    socketIp: `10.77.${Math.floor(++ip / 250)}.${(ip % 250) + 1}`,
  });
  return { status: res.status, body: res.body, cost: res.headers['x-query-cost'] };
}

describe('direct execution', () => {
  it('answers every operation exactly as the gateway does, directly when one subgraph answers it whole', async () => {
    const token = await signIn(g.rest, wallet());
    for (const c of CASES) {
      const h = c.session ? { authorization: `Bearer ${token}` } : {};
      const before = direct.directExecutions();
      const a = await ask(direct, c.query, c.variables, c.operationName, h);
      const took = direct.directExecutions() - before;
      const b = await ask(gateway, c.query, c.variables, c.operationName, h);
      expect({ name: c.name, status: a.status, body: a.body, cost: a.cost }).toEqual({
        name: c.name,
        status: b.status,
        body: b.body,
        cost: b.cost,
      });
      expect({ name: c.name, direct: took === 1 }).toEqual({ name: c.name, direct: c.direct });
      if (c.session) expect(JSON.parse(a.body).data.me).not.toBeNull();
      if (c.direct)
        expect({ name: c.name, status: a.status, errors: a.body.includes('"errors"') }).toEqual({
          name: c.name,
          status: 200,
          errors: false,
        });
    }
    expect(gateway.directExecutions()).toBe(0);
  });

  it('a subgraph that hangs or fails is reported as by the gateway, and a timeout is not waited for twice', async () => {
    // Long enough that a loaded machine's delays stay well under a second wait of it (which would be ≥ 2 × TIMEOUT_MS).
    const TIMEOUT_MS = 1_000;
    let mode: 'hang' | 'throw' | 'ok' = 'ok';
    const markets = g.subgraphs.find((s) => s.name === 'markets');
    if (!markets) throw new Error('no markets subgraph');
    const flaky = {
      name: markets.name,
      schema: markets.schema,
      contextFor: async (req: Parameters<typeof markets.contextFor>[0]) => {
        if (mode === 'throw') throw new Error('connection refused 10.0.0.7:5432');
        if (mode === 'hang') await new Promise((r) => setTimeout(r, TIMEOUT_MS * 4));
        return markets.contextFor(req);
      },
    };
    const subgraphs = g.subgraphs.map((s) => (s.name === 'markets' ? flaky : s));
    const opts = { access: g.access, subgraphTimeoutMs: TIMEOUT_MS, responseCache: false as const };
    const on = await createRouter({ ...opts, subgraphs: { kind: 'in-process', subgraphs } });
    const off = await createRouter({
      ...opts,
      directExecution: false,
      subgraphs: { kind: 'in-process', subgraphs },
    });
    try {
      // Each router's first query plans and compiles: not part of what is timed.
      for (const r of [on, off]) expect((await ask(r, '{ coin(id: "bitcoin") { id } }')).status).toBe(200);
      const direct = on.directExecutions();
      for (const m of ['hang', 'throw'] as const) {
        mode = m;
        const t0 = Date.now();
        const a = await ask(on, '{ coin(id: "bitcoin") { id } }');
        const elapsed = Date.now() - t0;
        const b = await ask(off, '{ coin(id: "bitcoin") { id } }');
        expect({ m, status: a.status, body: a.body }).toEqual({ m, status: b.status, body: b.body });
        expect(JSON.parse(a.body).errors[0].extensions.code).toBe(
          m === 'hang' ? 'SUBGRAPH_TIMEOUT' : 'SUBGRAPH_UNAVAILABLE',
        );
        if (m === 'hang') expect(elapsed).toBeLessThan(TIMEOUT_MS * 1.8);
      }
      expect(on.directExecutions()).toBe(direct); // a failing subgraph is never run directly
    } finally {
      await on.stop();
      await off.stop();
    }
  });

  it('the gateway path runs with the same subgraph context (one context per request either way)', async () => {
    g.resetCounts();
    await ask(direct, '{ coin(id: "bitcoin") { id price(currency: "zzz") } }'); // direct, then the gateway
    expect(g.counts.contexts.markets).toBe(1);
  });

  it('random operations over the whole API schema (seeded): byte for byte what the gateway answers', async () => {
    const api = buildSchema(readFileSync(new URL('../../schema/api.graphql', import.meta.url), 'utf8'));
    const key = (await g.makeKey('enterprise')).key;
    const token = await signIn(g.rest, wallet());
    // GRAPH_FUZZ_SEED / GRAPH_FUZZ_N explore further (the default run is the seeded 150).
    const rand = mulberry32(Number(process.env['GRAPH_FUZZ_SEED'] ?? 20261121));
    const gen = new OperationGenerator(api, rand);
    let directly = 0;
    const N = Number(process.env['GRAPH_FUZZ_N'] ?? 150);
    for (let i = 0; i < N; i++) {
      const query = gen.operation();
      const h = { 'x-sp-api-key': key, ...(rand() < 0.3 ? { authorization: `Bearer ${token}` } : {}) };
      const before = direct.directExecutions();
      const a = await ask(direct, query, undefined, undefined, h);
      directly += direct.directExecutions() - before;
      const b = await ask(gateway, query, undefined, undefined, h);
      expect({ query, status: a.status, ...comparable(a.body) }).toEqual({
        query,
        status: b.status,
        ...comparable(b.body),
      });
    }
    if (process.env['GRAPH_FUZZ_N']) console.log(`${directly} of ${N} answered directly`);
    // The comparison means something only if both paths ran often.
    expect(directly).toBeGreaterThan(N * 0.3);
    expect(directly).toBeLessThan(N);
  });
});

/**
 * A response as compared: `data` and `extensions` byte for byte (their JSON text, so key order counts), `errors` as a
 * set — GraphQL leaves their order open, and resolvers completing in another order (warm loaders after a fallback)
 * list them differently.
 */
function comparable(body: string): { data: string; extensions: string; errors: string[] } {
  const j = JSON.parse(body) as {
    data?: unknown;
    errors?: unknown[];
    extensions?: { cost?: { budget?: { remaining?: unknown } } };
  };
  // What is left of the cost budget is state (the two routers charge one key), like the rate-limit headers.
  if (j.extensions?.cost?.budget) j.extensions.cost.budget.remaining = 'left';
  return {
    data: JSON.stringify(j.data),
    extensions: JSON.stringify(j.extensions),
    errors: (j.errors ?? []).map((e) => JSON.stringify(e)).sort(),
  };
}

/** Value for an argument: what the field's domain expects, now and then something it refuses. */
function argValue(arg: GraphQLArgument, rand: () => number): string | null {
  const pick = <T>(xs: readonly T[]): T => xs[Math.floor(rand() * xs.length)] as T;
  const type = getNamedType(arg.type);
  if (isEnumType(type)) return pick(type.getValues()).name;
  switch (arg.name) {
    case 'id':
      return JSON.stringify(pick(['bitcoin', 'litecoin', 'dogecoin', 'luckycoin', 'no-such-coin']));
    case 'ids':
      return JSON.stringify(pick([['bitcoin', 'dogecoin'], ['litecoin'], []]));
    case 'currency':
      return JSON.stringify(pick(['usd', 'eur', 'btc', 'sats', 'xau', 'zzz']));
    case 'query':
      return JSON.stringify(pick(['bit', 'doge', 'coin', 'x']));
    case 'first':
      return String(pick([1, 3, 10, 0]));
    case 'days':
      return String(pick([1, 7, 30, 400]));
    case 'category':
      return JSON.stringify(pick(['merge-mined', 'no-such-category']));
    case 'name':
      return JSON.stringify(pick(['nobody.coin', 'bad name']));
    case 'asset':
      return JSON.stringify(pick(['LTC', 'DOGE']));
    case 'minutes':
      return String(pick([5, 60]));
    default:
      return null; // unknown: the field is only chosen when the argument may be omitted
  }
}

/**
 * Random selection sets over a schema: fields, arguments, aliases, fragments, `__typename`, `@include`, and inline
 * fragments on the possible types of a union or interface field.
 */
class OperationGenerator {
  private fragments: string[] = [];
  private n = 0;
  constructor(
    private readonly schema: GraphQLSchema,
    private readonly rand: () => number,
  ) {}

  operation(): string {
    this.fragments = [];
    const query = this.schema.getQueryType() as GraphQLObjectType;
    const body = this.selection(query, 0, 1 + Math.floor(this.rand() * 2));
    return `query Op ${body} ${this.fragments.join(' ')}`.trim();
  }

  private fieldCall(f: GraphQLField<unknown, unknown>): string | null {
    const args: string[] = [];
    for (const a of f.args) {
      const required = isNonNullType(a.type) && a.defaultValue === undefined;
      if (!required && this.rand() < 0.5) continue;
      const v = argValue(a, this.rand);
      if (v === null) {
        if (required) return null;
        continue;
      }
      args.push(`${a.name}: ${v}`);
    }
    return args.length ? `${f.name}(${args.join(', ')})` : f.name;
  }

  private selection(type: GraphQLObjectType, depth: number, count: number): string {
    const fields = Object.values(type.getFields());
    const out: string[] = [];
    for (let tries = 0; out.length < count && tries < count * 4; tries++) {
      const f = fields[Math.floor(this.rand() * fields.length)] as GraphQLField<unknown, unknown>;
      const call = this.fieldCall(f);
      if (call === null) continue;
      const named = getNamedType(f.type);
      const alias = this.rand() < 0.2 ? `a${++this.n}: ` : '';
      const include = this.rand() < 0.1 ? ` @include(if: ${this.rand() < 0.5})` : '';
      if (isObjectType(named)) {
        if (depth >= 3) continue;
        const sub = this.selection(named, depth + 1, 1 + Math.floor(this.rand() * 3));
        if (this.rand() < 0.15) {
          const name = `F${++this.n}`;
          this.fragments.push(`fragment ${name} on ${named.name} ${sub}`);
          out.push(`${alias}${call}${include} { ...${name} }`);
        } else out.push(`${alias}${call}${include} ${sub}`);
      } else if (isAbstractType(named)) {
        // A union or interface: `__typename` and an inline fragment on some of its possible types.
        if (depth >= 3) continue;
        const parts = ['__typename'];
        for (const t of this.schema.getPossibleTypes(named))
          if (this.rand() < 0.6)
            parts.push(`... on ${t.name} ${this.selection(t, depth + 1, 1 + Math.floor(this.rand() * 2))}`);
        out.push(`${alias}${call}${include} { ${parts.join(' ')} }`);
      } else out.push(`${alias}${call}${include}`);
      if (this.rand() < 0.1) out.push('__typename');
    }
    if (out.length === 0) out.push('__typename');
    return `{ ${out.join(' ')} }`;
  }
}
