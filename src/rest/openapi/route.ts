/**
 * `GET /openapi.json`: the combined OpenAPI document of every REST surface this server mounts (`document.ts`). Built
 * on the first request, when every route is registered, and kept: it changes only with a deployment, so it is
 * served like the price API's own document (an hour of client caching, ETag, gzip or br). No key, no rate limit.
 */
import type { FastifyInstance, HTTPMethods } from 'fastify';
import { ResponseCache } from '../cache.ts';
import { combinedDocument, OPENAPI_PATH } from './document.ts';
import type { Json } from './components.ts';

export interface OpenapiRouteOptions {
  /** The product's version, the document's `info.version`. */
  version: string;
  /** The price API's base path. */
  priceBase: string;
  /** The price API's own document (`PriceApiOptions.onDocument`). */
  priceDocument: () => Json;
}

export async function openapiRoute(app: FastifyInstance, opts: OpenapiRouteOptions): Promise<void> {
  const cache = new ResponseCache(4);
  const build = (): Json =>
    combinedDocument({
      version: opts.version,
      priceBase: opts.priceBase,
      price: opts.priceDocument(),
      serves: (method, url) => app.hasRoute({ method: method as HTTPMethods, url }),
    });
  app.get(OPENAPI_PATH, async (req, reply) => cache.send(req, reply, 'openapi', 0, 3600, build));
}
