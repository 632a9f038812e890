import Fastify from 'fastify';
import type { FastifyInstance } from 'fastify';
import type { MarketService } from '../market/service.ts';
import { registerHealth } from './health.ts';

export interface ServerOptions {
  /** The market engine; `/healthz` answers 503 until it has aggregated once. */
  market: MarketService;
  /** What the data is (`demo` or `live`), shown by `/healthz`. */
  dataset: () => { kind: 'demo' | 'live' | 'loading'; notice: string | null };
  /** Fastify logger setting; default off (tests). */
  logger?: boolean | { level: string };
}

/** Builds the HTTP server without listening (tests use `inject`). */
export function createServer(opts: ServerOptions): FastifyInstance {
  const app = Fastify({
    logger: opts.logger ?? false,
    // Query strings and paths beyond these sizes are client errors, never work for the server.
    maxParamLength: 200,
    bodyLimit: 1_048_576,
  });
  registerHealth(app, opts);
  return app;
}
