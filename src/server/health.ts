import type { FastifyInstance } from 'fastify';
import { DEFAULT_PRICE_RULES } from '../engine/price.ts';
import type { AttesterHealth } from '../bridge/attester.ts';
import type { LimiterState } from '../access/limiter.ts';
import type { EngineConfig } from '../engine/snapshot.ts';
import type { MarketService } from '../market/service.ts';

/** What `/healthz` reports on (part of the server's options). */
export interface HealthOptions {
  /** The market engine; `/healthz` answers 503 until it has aggregated once. */
  market: MarketService;
  engine: EngineConfig;
  /** What the data is (`demo` or `live`), shown by `/healthz` and as the coins' `public_notice`. */
  dataset: () => { kind: 'demo' | 'live' | 'loading'; notice: string | null };
  /** Health of the proof-of-reserves signer (live chain data); null or omitted when reports are recorded data. */
  reserves?: () => AttesterHealth | null;
  /** How rate limits are counted now (`local`, `shared` in Redis, `degraded`: Redis away); default `local`. */
  limiter?: () => LimiterState;
  now?: () => number;
}

/**
 * `GET /healthz`: 200 `{"status":"ok", …}` once the stores are open and the first aggregation is done, 503
 * `{"status":"starting", …}` before. The body reports every source (kind, what it feeds, when it last answered,
 * the newest data it delivered, whether that is stale, its last error and failures by reason), rejected input
 * counts, whether the store holds the history yet (`history`: `storing` after a demo first start, then `stored`),
 * and the proof-of-reserves signer when it runs on live chain data.
 */
export function registerHealth(app: FastifyInstance, opts: HealthOptions): void {
  app.get('/healthz', async (_req, reply) => {
    const m = opts.market;
    const snap = m.snapshot;
    reply.header('cache-control', 'no-store');
    const dataset = opts.dataset();
    if (!snap) {
      return reply.code(503).send({ status: 'starting', dataset: dataset.kind });
    }
    const now = (opts.now ?? Date.now)();
    const staleAfterMs = opts.engine.priceRules?.maxAgeMs ?? DEFAULT_PRICE_RULES.maxAgeMs;
    const rejectedBy = m.rejects.bySource();
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
      // `storing` while a first start's history is still being written to the store (charts and candles wait for it).
      history: m.historyStored ? 'stored' : 'storing',
      assets: { tracked: snap.markets.size, priced, verifiedMarketCap: verified },
      lastTick: m.lastTick,
      sources: Object.fromEntries(
        [...m.sources].map(([id, h]) => [
          id,
          {
            ...h,
            // Stale: no answer for longer than tickers stay usable (STALE_AFTER_MS), or never one.
            stale: h.lastSnapshotTs === null || now - h.lastSnapshotTs > staleAfterMs,
            rejected: rejectedBy.get(id) ?? 0,
          },
        ]),
      ),
      rejectedRecords: m.rejects.toJSON(),
      proofOfReserves: opts.reserves?.() ?? null,
      // `degraded`: Redis is unreachable and each process admits its share of every budget (still 200: serving).
      limiter: opts.limiter?.() ?? 'local',
    };
  });
}
