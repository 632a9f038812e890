/**
 * The product's server (`createServer`) with nothing behind it: a market service with no data and no store (it reads
 * its store only when it loads or ticks, which these tests never ask), so it is built in milliseconds. For the
 * routes that need no data: the landing page, the documentation files, the kits' tarballs. No port: tests call it
 * with `inject`.
 */
import type { FastifyInstance } from 'fastify';
import type { Router } from '../../router/index.ts';
import { MarketService } from '../../src/market/service.ts';
import { createServer } from '../../src/start/server.ts';
import type { ServerOptions } from '../../src/start/server.ts';
import { engineConfig } from '../../src/start/wiring.ts';
import type { Db } from '../../src/store/db.ts';

/** A router that answers every operation with empty data (what is tested is the server around it). */
export const STAND_IN_ROUTER = {
  respond: async () => ({
    status: 200,
    headers: { 'content-type': 'application/json' },
    body: '{"data":{}}',
  }),
  health: () => ({ status: 'UP' as const }),
} as unknown as Router;

export interface BareServer {
  app: FastifyInstance;
  close(): Promise<void>;
}

export async function bareServer(over: Partial<ServerOptions> = {}): Promise<BareServer> {
  const db = {} as Db; // never read: the market is not loaded and never ticks
  const engine = engineConfig({ staleAfterMs: 900_000 });
  const app = await createServer({
    market: new MarketService({ db, engine }),
    engine,
    dataset: () => ({ kind: 'demo', notice: null }),
    ...over,
  });
  await app.ready();
  return {
    app,
    async close() {
      await app.close();
    },
  };
}
