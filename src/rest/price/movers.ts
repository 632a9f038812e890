/** Routes `/coins/top_gainers_losers` and `/coins/list/new` (wiring only; presenters in `present/movers.ts`). */
import type { FastifyInstance } from 'fastify';
import { list, oneOf } from '../../core/params.ts';
import type { Query } from '../../core/params.ts';
import type { ChangeWindow } from '../../engine/types.ts';
import {
  MOVER_DURATIONS,
  MOVER_WINDOWS,
  presentMovers,
  presentNewCoins,
  TOP_COINS,
} from '../../market/present/movers.ts';
import type { MoversQuery } from '../../market/present/movers.ts';
import { parsePrecision } from '../../market/present/precision.ts';
import type { ResponseCache } from '../cache.ts';
import { parseVsCurrency, snapshotOr503, versionOf } from './currency.ts';
import type { PriceApiOptions } from './deps.ts';
import { documented, MAX_AGE } from './schemas/common.ts';
import { moversSchema, newCoinsSchema } from './schemas/history.ts';

export function registerMoverRoutes(app: FastifyInstance, opts: PriceApiOptions, cache: ResponseCache): void {
  app.get('/coins/top_gainers_losers', documented(moversSchema), async (req, reply) => {
    const q = req.query as Query;
    const snapshot = snapshotOr503(opts);
    const mq: MoversQuery = {
      vsCurrency: parseVsCurrency(q, snapshot.rates),
      duration: oneOf(q, 'duration', MOVER_DURATIONS, '24h'),
      topCoins: oneOf(q, 'top_coins', TOP_COINS, '1000'),
      windows: (list(q, 'price_change_percentage', {
        max: MOVER_WINDOWS.length,
        item: new RegExp(`^(${MOVER_WINDOWS.join('|')})$`),
        itemRule: MOVER_WINDOWS.join(', '),
      }) ?? []) as ChangeWindow[],
      precision: parsePrecision(q),
    };
    return cache.send(
      req,
      reply,
      `movers|${JSON.stringify(mq)}`,
      versionOf(snapshot),
      MAX_AGE.movers,
      () => presentMovers(snapshot, mq),
      mq.precision.kind === 'full',
    );
  });

  app.get('/coins/list/new', documented(newCoinsSchema), async (req, reply) => {
    const snapshot = snapshotOr503(opts);
    return cache.send(req, reply, 'list_new', versionOf(snapshot), MAX_AGE.newCoins, () =>
      presentNewCoins(snapshot),
    );
  });
}
