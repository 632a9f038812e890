import type { FastifyInstance } from 'fastify';
import type { ServerOptions } from './app.ts';

/**
 * `GET /healthz`: 200 `{"status":"ok", …}` once the stores are open and the first aggregation is done, 503
 * `{"status":"starting", …}` before. The body reports freshness per source and rejected input counts.
 */
export function registerHealth(app: FastifyInstance, opts: ServerOptions): void {
  app.get('/healthz', async (_req, reply) => {
    const m = opts.market;
    const snap = m.snapshot;
    reply.header('cache-control', 'no-store');
    const dataset = opts.dataset();
    if (!snap) {
      return reply.code(503).send({ status: 'starting', dataset: dataset.kind });
    }
    let priced = 0;
    let verified = 0;
    for (const a of snap.markets.values()) {
      if (a.price.priceUsd !== null) priced++;
      if (a.marketCapUsd !== null) verified++;
    }
    return {
      status: 'ok',
      dataset: dataset.kind,
      notice: dataset.notice,
      computedAt: new Date(snap.computedAt).toISOString(),
      assets: { tracked: snap.markets.size, priced, verifiedMarketCap: verified },
      lastTick: m.lastTick,
      sources: Object.fromEntries(m.sources),
      rejectedRecords: m.rejects.toJSON(),
    };
  });
}
