/**
 * Every error message names what the caller can use in the interface they called (issue 14.5): a catalog message
 * that points at a REST path (a list of valid values, a call to make first) has a graph form that points at the
 * graph's query or mutation instead, and the subgraphs serve that form. Swept over every catalog, so a new error
 * that names a REST path without a graph form fails here.
 */
import { createRequire } from 'node:module';
import type * as GraphQL from 'graphql';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { dappErrors } from '../../src/accounts/dapp-validate.ts';
import { keyErrors } from '../../src/accounts/key-errors.ts';
import { nameErrors } from '../../src/names/errors.ts';
import { engineConfig } from '../../src/start/wiring.ts';
import { accountErrors } from '../../src/accounts/errors.ts';
import { bridgeErrors } from '../../src/bridge/errors.ts';
import { commonErrors } from '../../src/rest/errors.ts';
import { ApiError } from '../../src/core/errors.ts';
import { priceErrors } from '../../src/market/errors.ts';
import { createMarketsSubgraph } from '../../subgraphs/markets/index.ts';
import { fromApiError } from '../../subgraphs/shared/errors.ts';
import { createTestMarket, TEST_NOW } from '../support/price-app.ts';
import type { TestMarket } from '../support/price-app.ts';

const { graphql } = createRequire(import.meta.url)('graphql') as typeof GraphQL;

/** A REST path in a message: `/coins/list`, `POST /api/auth/challenge`. */
const REST_PATH = /(^|\s|\()\/[a-z_]+(\/[\w{}]+)*/;

const CATALOGS: Record<string, Record<string, unknown>> = {
  commonErrors,
  priceErrors,
  accountErrors,
  nameErrors,
  keyErrors,
  bridgeErrors,
  dappErrors,
};

/** Every ApiError the catalogs make, called with placeholder arguments. */
function allErrors(): [string, ApiError][] {
  const out: [string, ApiError][] = [];
  for (const [catalog, entries] of Object.entries(CATALOGS)) {
    for (const [name, make] of Object.entries(entries)) {
      if (typeof make !== 'function') continue;
      // Placeholder arguments: strings fit most constructors; one taking a list gets one.
      let e: unknown;
      for (const args of [
        ['x', 'LTC', 'y', 3],
        [['x'], ['y']],
      ]) {
        try {
          e = (make as (...a: unknown[]) => unknown)(...args);
          break;
        } catch {
          // try the next shape
        }
      }
      if (e instanceof ApiError) out.push([`${catalog}.${name}`, e]);
    }
  }
  return out;
}

describe('error catalogs', () => {
  it('every message that names a REST path has a graph form naming a query or mutation, and no path', () => {
    const all = allErrors();
    expect(all.length).toBeGreaterThan(40);
    const pointing = all.filter(([, e]) => REST_PATH.test(e.message));
    for (const [name, e] of pointing) {
      expect(e.graphMessage, `${name}: "${e.message}"`).toBeDefined();
      expect(e.graphMessage, name).not.toMatch(REST_PATH);
      expect(e.graphMessage, name).toMatch(
        /`(coins|currencies|categories|exchanges)` query|[a-z]+[A-Z]\w+ mutations?/,
      );
      expect(fromApiError(e).message).toBe(e.graphMessage);
    }
    expect(pointing.map(([n]) => n).sort()).toEqual(
      [
        'accountErrors.authRequired',
        'accountErrors.challengeNotFound',
        'nameErrors.primaryNeedsLink',
        'nameErrors.primaryProofRequired',
        'nameErrors.proofRequired',
        'priceErrors.badCoinId',
        'priceErrors.badExchangeId',
        'priceErrors.coinNotFound',
        'priceErrors.exchangeNotFound',
        'priceErrors.unknownCategory',
        'priceErrors.unknownCurrency',
      ].sort(),
    );
  });
});

describe('the markets subgraph answers in its own terms', () => {
  let tm: TestMarket;
  beforeAll(async () => {
    tm = await createTestMarket({ days: 3 });
  }, 120_000);
  afterAll(async () => {
    await tm?.close();
  });

  it.each([
    ['{ coin(id: "litecoin") { price(currency: "xxx") } }', 'INVALID_CURRENCY', 'the `currencies` query'],
    ['{ coin(id: "Not An Id!") { id } }', 'INVALID_COIN_ID', 'the `coins` query'],
    [
      '{ coins(first: 1, category: "no-such-category") { edges { node { id } } } }',
      'INVALID_CATEGORY',
      'the `categories` query',
    ],
  ])('%s → %s naming %s', async (source, code, names) => {
    const sg = createMarketsSubgraph({
      market: tm.market,
      engine: engineConfig({ staleAfterMs: 900_000 }),
      now: () => TEST_NOW,
    });
    const r = await graphql({ schema: sg.schema, source, contextValue: sg.contextFor() });
    const e = r.errors?.[0];
    expect(e?.extensions?.['code']).toBe(code);
    expect(e?.message).toContain(names);
    expect(e?.message).not.toMatch(REST_PATH);
    // REST keeps its own pointer.
    const rest = await tm.app.inject({ url: '/v1/agg/simple/price?ids=litecoin&vs_currencies=xxx' });
    expect((rest.json() as { error: { message: string } }).error.message).toContain(
      '/simple/supported_vs_currencies',
    );
  });
});
