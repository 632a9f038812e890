import type { FastifyInstance } from 'fastify';
import { ASSETS } from '../../src/catalog/assets.ts';
import { CURRENCIES } from '../../src/catalog/currencies.ts';
import { generateRecording } from '../../src/demo/recording.ts';
import { DEMO_NOTICE } from '../../src/demo/dataset.ts';
import type { SourceSnapshot, TickerSource } from '../../src/ingest/types.ts';
import { MarketService } from '../../src/market/service.ts';
import { engineConfig } from '../../src/start/wiring.ts';
import { createServer } from '../../src/start/server.ts';
import type { ServerOptions } from '../../src/start/server.ts';
import type { Db } from '../../src/store/db.ts';
import { openMemoryDb } from './memory-db.ts';

/** Fixed "now" of the in-process test market: 2026-11-21 12:00 UTC. */
export const TEST_NOW = Date.UTC(2026, 10, 21, 12, 0, 0);

export interface TestMarket {
  app: FastifyInstance;
  market: MarketService;
  db: Db;
  close(): Promise<void>;
}

/**
 * An in-process product on in-memory PGlite with `days` of seeded demo history for all catalog assets, ending at
 * TEST_NOW, aggregated once at TEST_NOW. No ports: call the API with `app.inject`.
 */
export async function createTestMarket(
  opts: {
    days?: number;
    seed?: number;
    server?: Partial<ServerOptions>;
    /** The market's clock after the history is loaded; default always {@link TEST_NOW}. */
    now?: () => number;
  } = {},
): Promise<TestMarket> {
  const db = await openMemoryDb();
  const engine = engineConfig({ staleAfterMs: 900_000 });
  const market = new MarketService({ db, engine, now: () => (opts.now ? opts.now() : TEST_NOW) });
  const seed = opts.seed ?? 20261121;
  const snaps = generateRecording({
    seed,
    end: TEST_NOW,
    days: opts.days ?? 100,
    assets: ASSETS,
    currencies: CURRENCIES,
  });
  await market.backfill(iterSource(snaps));
  await market.ingest([]);
  const app = await createServer({
    market,
    engine,
    dataset: () => ({ kind: 'demo', notice: DEMO_NOTICE(seed) }),
    now: () => TEST_NOW,
    ...opts.server,
  });
  await app.ready();
  return {
    app,
    market,
    db,
    async close() {
      await app.close();
      await db.close();
    },
  };
}

function iterSource(it: Iterable<SourceSnapshot>): TickerSource {
  const iter = it[Symbol.iterator]();
  return {
    id: 'test:recording',
    kind: 'replay',
    poll: async () => {
      const n = iter.next();
      return n.done ? null : n.value;
    },
  };
}
