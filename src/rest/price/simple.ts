/** Routes `/ping`, `/simple/price` and `/simple/supported_vs_currencies` (wiring only). */
import type { FastifyInstance } from 'fastify';
import type { ResponseCache } from '../cache.ts';
import { bool, missingParam } from '../../core/params.ts';
import type { Query } from '../../core/params.ts';
import { parseLookup, parseVsCurrencies, snapshotOr503, versionOf } from './currency.ts';
import type { PriceApiOptions } from './deps.ts';
import { parsePrecision } from '../../market/present/precision.ts';
import { lookupCoins } from '../../market/present/lookup.ts';
import { presentSimplePrice } from '../../market/present/simple.ts';
import { documented, MAX_AGE } from './schemas/common.ts';
import { pingSchema, simplePriceSchema, supportedVsCurrenciesSchema } from './schemas/simple.ts';

/** CoinGecko's ping text: clients compare it, so it is kept verbatim. */
export const GECKO_SAYS = '(V3) To the Moon!';

export function registerSimpleRoutes(
  app: FastifyInstance,
  opts: PriceApiOptions,
  cache: ResponseCache,
): void {
  app.get('/ping', documented(pingSchema), async (req, reply) =>
    cache.send(req, reply, 'ping', 0, MAX_AGE.ping, () => ({ gecko_says: GECKO_SAYS })),
  );

  app.get('/simple/price', documented(simplePriceSchema), async (req, reply) => {
    const q = req.query as Query;
    const snapshot = snapshotOr503(opts);
    const currencies = parseVsCurrencies(q, snapshot.rates);
    const lookup = parseLookup(q);
    if (!lookup)
      throw missingParam('ids', 'a comma-separated list of coin ids from /coins/list (or names, or symbols)');
    const flags = {
      marketCap: bool(q, 'include_market_cap'),
      vol24h: bool(q, 'include_24hr_vol'),
      change24h: bool(q, 'include_24hr_change'),
      lastUpdatedAt: bool(q, 'include_last_updated_at'),
    };
    const precision = parsePrecision(q);
    const key = `simple|${JSON.stringify([lookup, currencies, flags, precision])}`;
    return cache.send(
      req,
      reply,
      key,
      versionOf(snapshot),
      MAX_AGE.simplePrice,
      () => presentSimplePrice(snapshot, lookupCoins(snapshot, lookup), currencies, flags, precision),
      precision.kind === 'full',
    );
  });

  // The catalog does not change between ticks: version 0, and no snapshot needed.
  const codes = opts.engine.currencies.map((c) => c.code);
  app.get('/simple/supported_vs_currencies', documented(supportedVsCurrenciesSchema), async (req, reply) =>
    cache.send(req, reply, 'supported_vs_currencies', 0, MAX_AGE.supportedVsCurrencies, () => codes),
  );
}
