/**
 * The one HTTP host of every process: the embedded product, each scale-out part (a router, a subgraph) and the
 * dapp-browser emulator. It alone registers what every answer shares, so that no surface can answer differently:
 *
 * - error rendering: every error, every path no route serves, every request Fastify or Node's HTTP parser refuses
 *   before any route (400, 405, 408, 413, 415, 431, a missing `Host`, `CONNECT`) is our `{ "error": { "code",
 *   "message" } }` body with a stable code (`host/errors.ts`; docs/operations.md, "Answers of the host");
 * - the headers of every response (`every-response.ts`: `nosniff`, the request id, closing after an early answer);
 * - JSON bodies (`json-body.ts`: Fastify's parser over bytes checked as UTF-8);
 * - CORS (any origin, the headers browsers and the common SDKs send);
 * - request ids (`host/request-id.ts`).
 *
 * What it serves is handed to it as mount functions, mounted side by side in this order: REST, the graph (the router
 * or a subgraph), the pages. It imports neither REST nor the router, and only start-up imports it (lint:
 * `eslint.config.js`).
 */
import cors from '@fastify/cors';
import Fastify from 'fastify';
import type { FastifyInstance, FastifyServerOptions } from 'fastify';
import type { RefusalPace } from '../access/refusal-pace.ts';
import { everyResponse } from './every-response.ts';
import { strictJsonBodies } from './json-body.ts';
import { answerConnect, answerExpectations, clientError } from './host/raw.ts';
import { frameworkError, registerErrorHandling, requireHost } from './host/render.ts';
import { requestId } from './host/request-id.ts';

/** Registers one surface's routes (and its hooks) on the host's root instance. */
export type Mount = (app: FastifyInstance) => void | Promise<void>;

export interface HttpHostOptions {
  /** The REST APIs (and the hooks that guard them); mounted first. */
  rest?: Mount | undefined;
  /** The graph: the router, or one subgraph in a scale-out part; mounted after REST. */
  graph?: Mount | undefined;
  /** Pages, scripts, documents and probes; mounted last. */
  pages?: Mount | undefined;
  /** The process's logging (`ProcessRun.fastifyOptions`: its pino, no request lines of Fastify's); default none. */
  logging?: Pick<FastifyServerOptions, 'loggerInstance' | 'logController' | 'childLoggerFactory'> | undefined;
  /** The largest request body read, in bytes (a longer one is 413 `PAYLOAD_TOO_LARGE`); default 1 MiB. */
  bodyLimit?: number | undefined;
  /** The process's pace of repeated 429s (`ProcessRun.refusalPace`); default none: each sent at once. */
  refusalPace?: RefusalPace | undefined;
  /** Whether browsers of any origin may call it (CORS); default true. The emulator answers its own page only. */
  cors?: boolean | undefined;
  /** Whether closing drops every connection at once (kept-alive and in-flight ones); default false: drained. */
  forceCloseConnections?: boolean | undefined;
}

/** Browsers may send the key headers and the headers common SDKs send (CoinGecko's Stainless SDK, fetch wrappers). */
export const CORS_ALLOWED_HEADERS = [
  'accept',
  'accept-encoding',
  'content-type',
  'authorization',
  'if-none-match',
  'x-sp-api-key',
  'x-cg-pro-api-key',
  'x-cg-demo-api-key',
  'x-requested-with',
  'apollo-require-preflight',
  'x-apollo-operation-name',
  'x-stainless-lang',
  'x-stainless-package-version',
  'x-stainless-os',
  'x-stainless-arch',
  'x-stainless-runtime',
  'x-stainless-runtime-version',
  'x-stainless-retry-count',
  'x-stainless-timeout',
];

/** Builds the host with its surfaces mounted, without listening (tests use `inject`). */
export async function createHttpHost(o: HttpHostOptions = {}): Promise<FastifyInstance> {
  const app = Fastify({
    ...o.logging,
    requestIdHeader: false,
    genReqId: requestId,
    // Path parameters and bodies beyond these sizes are client errors, never work for the server.
    routerOptions: { maxParamLength: 200 },
    bodyLimit: o.bodyLimit ?? 1_048_576,
    frameworkErrors: frameworkError,
    clientErrorHandler: clientError,
    // Node's own answer to a missing Host is an empty 400: `requireHost` answers it with our body instead.
    http: { requireHostHeader: false },
    ...(o.forceCloseConnections ? { forceCloseConnections: true } : {}),
  });
  answerConnect(app.server);
  answerExpectations(app.server);
  registerErrorHandling(app);
  requireHost(app);
  everyResponse(app, o.refusalPace);
  strictJsonBodies(app);
  if (o.cors !== false)
    await app.register(cors, {
      origin: true,
      methods: ['GET', 'HEAD', 'POST', 'OPTIONS'],
      allowedHeaders: CORS_ALLOWED_HEADERS,
      exposedHeaders: [
        'x-ratelimit-limit',
        'x-ratelimit-remaining',
        'x-ratelimit-reset',
        'x-api-plan',
        'retry-after',
        'etag',
        'x-query-cost',
        'x-query-cost-limit',
      ],
      maxAge: 86_400,
      // An OPTIONS request that is not a CORS preflight is answered 204, not a plain-text 400.
      strictPreflight: false,
    });
  await o.rest?.(app);
  await o.graph?.(app);
  await o.pages?.(app);
  return app;
}
