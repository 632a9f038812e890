/**
 * The price API: CoinGecko-v3-compatible read endpoints over the market engine's snapshot, so that a CoinGecko
 * client works by changing only its base URL. A Fastify plugin registered under a prefix (default `/v1/agg`).
 */
import swagger from '@fastify/swagger';
import type { FastifyInstance } from 'fastify';
import { ResponseCache } from '../cache.ts';
import { versionOf } from './currency.ts';
import { registerChartRoutes } from './charts.ts';
import { registerCoinRoutes } from './coins.ts';
import type { PriceApiOptions } from './deps.ts';
import { registerDiscoveryRoutes } from './discovery.ts';
import { registerExchangeRoutes } from './exchanges.ts';
import { registerHistoryRoutes } from './history.ts';
import { registerMoverRoutes } from './movers.ts';
import { ERROR_SCHEMA, SECURITY, SECURITY_SCHEMES } from './schemas/common.ts';
import { registerSimpleRoutes } from './simple.ts';

export type { PriceApiOptions } from './deps.ts';

/** Name of the decorator holding the OpenAPI generator (scoped to this plugin, so it cannot clash). */
const DECORATOR = 'priceOpenapi';

/**
 * Registers every price route, one ResponseCache shared by them, and `GET /openapi.json`: an OpenAPI 3.1
 * document generated from the route schemas of this plugin only (paths relative to `servers[0].url`, the prefix).
 */
export async function priceApi(
  app: FastifyInstance,
  opts: PriceApiOptions & { prefix?: string },
): Promise<void> {
  const base = app.prefix || opts.prefix || '';
  app.addSchema(ERROR_SCHEMA);
  await app.register(swagger, {
    decorator: DECORATOR,
    openapi: {
      openapi: '3.1.0',
      info: {
        title: 'Price API',
        version: '1.0.0',
        description:
          'CoinGecko-v3-compatible market data aggregated by our own engine. A figure that cannot be verified is ' +
          'null, never guessed. See docs/price-api.md and docs/methodology.md.',
      },
      servers: [{ url: base || '/' }],
      components: { securitySchemes: SECURITY_SCHEMES },
      security: SECURITY,
    },
    // Shared schemas keep their $id as component name (ApiError), not def-N.
    refResolver: { buildLocalReference: (json, _base, _fragment, i) => String(json.$id ?? `def-${i}`) },
  });

  const cache = new ResponseCache(undefined, opts.shedder);
  // A URL answered successfully for the current snapshot is served again without parsing (see ResponseCache.tryUrl).
  app.addHook('preHandler', async (req, reply) => {
    const snap = opts.market.snapshot;
    if (snap && cache.tryUrl(req, reply, versionOf(snap))) return reply;
  });
  registerSimpleRoutes(app, opts, cache);
  registerCoinRoutes(app, opts, cache);
  registerChartRoutes(app, opts, cache);
  registerDiscoveryRoutes(app, opts, cache);
  registerExchangeRoutes(app, opts, cache);
  registerHistoryRoutes(app, opts, cache);
  registerMoverRoutes(app, opts, cache);

  // The document only changes with a deployment: version 0, an hour of client caching.
  const openapi = (app as unknown as Record<string, () => Record<string, unknown>>)[DECORATOR];
  app.get('/openapi.json', { schema: { hide: true } }, async (req, reply) =>
    cache.send(req, reply, 'openapi', 0, 3600, () => openapi?.()),
  );
  if (openapi) opts.onDocument?.(() => openapi.call(app));
}
