/** Routes `/global`, `/search` and `/search/trending` (wiring only). */
import type { FastifyInstance } from 'fastify';
import type { ResponseCache } from '../cache.ts';
import { list, paramError, required } from '../../core/params.ts';
import type { Query } from '../../core/params.ts';
import { snapshotOr503, versionOf } from './currency.ts';
import type { PriceApiOptions } from './deps.ts';
import { presentGlobal } from '../../market/present/global.ts';
import { presentSearch, presentTrending } from '../../market/present/search.ts';
import { documented, MAX_AGE } from './schemas/common.ts';
import { globalSchema, searchSchema, trendingSchema } from './schemas/discovery.ts';

/** Longest `/search?query=`. */
export const MAX_QUERY = 100;

export function registerDiscoveryRoutes(
  app: FastifyInstance,
  opts: PriceApiOptions,
  cache: ResponseCache,
): void {
  const currencies = opts.engine.currencies.map((c) => c.code);
  const catalogIds = opts.engine.assets.map((a) => a.id);

  app.get('/global', documented(globalSchema), async (req, reply) => {
    const snapshot = snapshotOr503(opts);
    return cache.send(req, reply, 'global', versionOf(snapshot), MAX_AGE.global, () =>
      presentGlobal(snapshot, currencies),
    );
  });

  app.get('/search', documented(searchSchema), async (req, reply) => {
    const q = req.query as Query;
    const snapshot = snapshotOr503(opts);
    const text = required(q, 'query', 'text to find in coin ids, symbols and names, at most 100 characters');
    if (text.length > MAX_QUERY) throw paramError('query', `must be at most ${MAX_QUERY} characters`);
    const norm = text.trim().toLowerCase();
    return cache.send(req, reply, `search|${norm}`, versionOf(snapshot), MAX_AGE.search, () =>
      presentSearch(snapshot, opts.engine.categories, norm),
    );
  });

  app.get('/search/trending', documented(trendingSchema), async (req, reply) => {
    const q = req.query as Query;
    const snapshot = snapshotOr503(opts);
    // Accepted for compatibility: our list is never longer than CoinGecko's default caps.
    list(q, 'show_max', { max: 3, item: /^(coins|nfts|categories)$/, itemRule: 'coins, nfts, categories' });
    return cache.send(req, reply, 'trending', versionOf(snapshot), MAX_AGE.trending, () =>
      presentTrending(snapshot, catalogIds, currencies),
    );
  });
}
