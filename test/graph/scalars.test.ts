/**
 * Every custom scalar of the supergraph refuses a bad value as the client's error, at the router, before anything
 * runs (router/scalars.ts): a bad literal fails validation (`GRAPHQL_VALIDATION_FAILED`), a bad variable fails
 * coercion (`BAD_USER_INPUT`) — 200 under application/json and 400 under application/graphql-response+json, as every
 * request error — never a subgraph's `DOWNSTREAM_SERVICE_ERROR`. The supergraph's internal scalars (`join__*`,
 * `link__*`) are not part of the API: naming one is a validation error. Over real HTTP on loopback.
 */
import { readFileSync } from 'node:fs';
import { buildSchema, Kind, parse } from 'graphql';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CUSTOM_SCALARS, withScalarRules } from '../../router/scalars.ts';
import { SUPERGRAPH_URL } from '../../router/supergraph.ts';
import { DateTime } from '../../subgraphs/shared/scalars.ts';
import { listeningGraph } from './support/router-http.ts';
import type { GqlBody, GraphHarness } from './router-harness.ts';

const API = readFileSync(new URL('../../schema/api.graphql', import.meta.url), 'utf8');
/** The scalars the supergraph defines (graphql's own are not defined in SDL). */
const SUPERGRAPH_SCALARS = parse(readFileSync(SUPERGRAPH_URL, 'utf8'))
  .definitions.filter((d) => d.kind === Kind.SCALAR_TYPE_DEFINITION)
  .map((d) => d.name.value);
const apiSchema = buildSchema(API);
const inApi = (name: string) => apiSchema.getType(name) !== undefined;

/**
 * For each custom scalar of the API, an operation with one argument of that type: as a literal, and as `$v`.
 * A scalar added to the API without an entry here fails the first test.
 */
const USES: Record<string, { literal: (v: string) => string; variable: string }> = {
  DateTime: {
    literal: (v) =>
      `{ coin(id: "litecoin") { candleRange(from: ${v}, to: "2026-11-21T00:00:00Z", interval: DAILY) { time } } }`,
    variable:
      'query ($v: DateTime!) { coin(id: "litecoin") { candleRange(from: $v, to: "2026-11-21T00:00:00Z", interval: DAILY) { time } } }',
  },
};
/** Values each scalar refuses, as JSON (a variable's value; a literal is its GraphQL spelling). */
const BAD: Record<string, unknown[]> = {
  DateTime: [
    'x',
    '1',
    '2026',
    '2026-02-30',
    '2026-11-21T25:00:00Z',
    '2026-11-21T12:00:00+25:00',
    '',
    1_700_000_000,
    true,
    {},
  ],
};
const GOOD: Record<string, string[]> = {
  DateTime: ['2026-11-01', '2026-11-01T06:00', '2026-11-01T06:00:00.000Z', '2026-11-01T08:00:00+02:00'],
};

let g: GraphHarness;
let url: string;
beforeAll(async () => {
  ({ g, url } = await listeningGraph());
}, 60_000);
afterAll(async () => g?.close());

async function post(
  body: unknown,
  accept = 'application/json',
): Promise<{ status: number; json: GqlBody; cost: string | null }> {
  const r = await fetch(url, {
    method: 'POST',
    headers: { 'content-type': 'application/json', accept },
    body: JSON.stringify(body),
  });
  return { status: r.status, json: (await r.json()) as GqlBody, cost: r.headers.get('x-query-cost') };
}

/** A JSON value as a GraphQL literal (objects by their fields). */
const literal = (v: unknown): string =>
  v !== null && typeof v === 'object'
    ? `{ ${Object.entries(v)
        .map(([k, x]) => `${k}: ${literal(x)}`)
        .join(', ')} }`
    : JSON.stringify(v);

describe('custom scalars', () => {
  it('the supergraph’s custom scalars: those of the API have input rules at the router and a test here', () => {
    expect(SUPERGRAPH_SCALARS).toContain('DateTime');
    for (const name of SUPERGRAPH_SCALARS.filter(inApi)) {
      expect(CUSTOM_SCALARS.has(name), `${name} has input rules (router/scalars.ts)`).toBe(true);
      expect(USES[name], `${name} is tested here`).toBeDefined();
    }
    // Applied to the API's schema, the rules leave no custom scalar without them.
    expect(withScalarRules(buildSchema(API))).toEqual([]);
  });

  for (const name of SUPERGRAPH_SCALARS.filter(inApi))
    describe(name, () => {
      const use = USES[name]!;
      for (const [accept, status] of [
        ['application/json', 200],
        ['application/graphql-response+json', 400],
      ] as const) {
        it(`${accept}: a bad literal is GRAPHQL_VALIDATION_FAILED (${status}), nothing runs`, async () => {
          for (const bad of BAD[name]!) {
            g.resetCounts();
            const r = await post({ query: use.literal(literal(bad)) }, accept);
            expect({
              bad,
              status: r.status,
              codes: r.json.errors?.map((e) => e.extensions?.['code']),
            }).toEqual({
              bad,
              status,
              codes: ['GRAPHQL_VALIDATION_FAILED'],
            });
            expect(r.json.errors?.[0]?.message).toMatch(new RegExp(`^Expected value of type "${name}!"`));
            expect(r.json).not.toHaveProperty('data');
            expect(g.counts.contexts.markets).toBe(0);
          }
        });

        it(`${accept}: a bad variable is BAD_USER_INPUT (${status}), nothing runs and no cost is charged`, async () => {
          for (const bad of BAD[name]!) {
            g.resetCounts();
            const r = await post({ query: use.variable, variables: { v: bad } }, accept);
            expect({
              bad,
              status: r.status,
              codes: r.json.errors?.map((e) => e.extensions?.['code']),
            }).toEqual({
              bad,
              status,
              codes: ['BAD_USER_INPUT'],
            });
            expect(r.json.errors?.[0]?.message).toMatch(/^Variable "\$v" got invalid value/);
            expect(r.json).not.toHaveProperty('data');
            expect(r.cost).toBeNull();
            expect(g.counts.contexts.markets).toBe(0);
          }
        });
      }

      it('good values pass, as literals and as variables', async () => {
        for (const good of GOOD[name]!) {
          const a = await post({ query: use.literal(JSON.stringify(good)) });
          expect({ good, status: a.status, errors: a.json.errors }).toEqual({
            good,
            status: 200,
            errors: undefined,
          });
          const b = await post({ query: use.variable, variables: { v: good } });
          expect({ good, errors: b.json.errors }).toEqual({ good, errors: undefined });
          expect(b.json.data).toEqual(a.json.data);
        }
      });
    });

  it('the internal scalars (join__*, link__*) are not the API’s: a variable of one is a validation error', async () => {
    const internal = SUPERGRAPH_SCALARS.filter((n) => !inApi(n));
    expect(internal.length).toBeGreaterThan(0);
    for (const name of internal) {
      const r = await post({ query: `query ($v: ${name}) { __typename }`, variables: { v: 'x' } });
      expect({ name, status: r.status, code: r.json.errors?.[0]?.extensions?.['code'] }).toEqual({
        name,
        status: 200,
        code: 'GRAPHQL_VALIDATION_FAILED',
      });
    }
  });
});

describe('DateTime in the subgraphs (subgraphs/shared/scalars.ts)', () => {
  it('accepts what the REST API’s dates accept, refuses the rest with the rule', () => {
    for (const good of GOOD['DateTime']!) expect(DateTime.parseValue(good)).toBe(good);
    for (const bad of BAD['DateTime']!)
      expect(() => DateTime.parseValue(bad)).toThrow(
        /^DateTime must be an ISO 8601 date or date-time string/,
      );
    expect(() => DateTime.parseLiteral({ kind: Kind.INT, value: '1' })).toThrow(/ISO 8601/);
  });
});
