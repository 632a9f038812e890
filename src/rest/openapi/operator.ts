/**
 * OpenAPI description of what operators and load balancers call: `/healthz` (`src/server/health.ts`), the probes
 * `/livez` and `/readyz` every process serves (`src/start/process.ts`), and the OpenAPI documents themselves. No key,
 * no rate limit. Prometheus metrics are not here: they are served on a listener of their own (`METRICS_PORT`) in
 * Prometheus's text format (docs/openapi.md).
 */
import { jsonResponse, object, str } from './components.ts';
import type { Json, Paths } from './components.ts';

const nMs = { type: ['integer', 'null'], description: 'UNIX milliseconds; null before the first' };
const dataset = { type: 'string', enum: ['demo', 'live', 'loading'] };
const tags = ['operator'];
const noStore = { 'Cache-Control': { description: 'no-store', schema: str } };

const part = { ...str, description: 'What this process is: product, router, subgraph:…' };
/** A probe's body: what the process is and its state. */
const probe = (status: Json): Json => object({ status, part });
const notReady = object(
  {
    status: { type: 'string', enum: ['starting', 'draining', 'waiting'] },
    part,
    missing: { type: 'array', items: str, description: 'With waiting: the dependencies that cannot serve' },
  },
  ['status', 'part'],
);

const source = {
  type: 'object',
  properties: {
    kind: { type: ['string', 'null'] },
    supplies: { type: 'array', items: str },
    lastPollAt: nMs,
    lastSnapshotTs: nMs,
    dataAsOf: nMs,
    lastError: { type: ['string', 'null'] },
    lastReason: { type: ['string', 'null'] },
    lastMs: { type: ['integer', 'null'] },
    failures: { type: 'object', additionalProperties: { type: 'integer' } },
    stale: { type: 'boolean', description: 'No answer for longer than tickers stay usable, or never one' },
    rejected: { type: 'integer', minimum: 0 },
  },
  required: ['kind', 'lastSnapshotTs', 'stale', 'rejected'],
};

export const operatorPaths: Paths = {
  '/healthz': {
    get: {
      operationId: 'health',
      summary: 'Readiness with every source’s freshness',
      description:
        '200 once the stores are open and the first aggregation is done, 503 before. history is storing while a ' +
        'first start’s history is still being written (charts wait for it).',
      tags,
      security: [],
      responses: {
        200: jsonResponse(
          'Serving',
          object({
            status: { const: 'ok' },
            dataset,
            notice: { type: ['string', 'null'] },
            computedAt: { type: 'string', format: 'date-time' },
            history: { type: 'string', enum: ['storing', 'stored'] },
            assets: object({
              tracked: { type: 'integer' },
              priced: { type: 'integer' },
              verifiedMarketCap: { type: 'integer' },
            }),
            lastTick: {
              oneOf: [
                { type: 'null' },
                object({
                  at: { type: 'integer' },
                  ms: { type: 'integer' },
                  tickers: { type: 'integer' },
                  rejected: { type: 'integer' },
                }),
              ],
            },
            sources: { type: 'object', additionalProperties: source },
            rejectedRecords: { type: 'object' },
            proofOfReserves: {
              oneOf: [
                { type: 'null' },
                object(
                  {
                    source: { type: 'string', enum: ['live', 'recorded'] },
                    lastSnapshotAt: nMs,
                    lastError: { type: ['string', 'null'] },
                    failures: { type: 'integer' },
                  },
                  ['source', 'lastError', 'failures'],
                ),
              ],
            },
            // How rate limits are counted: degraded while Redis is unreachable (docs/plans-and-limits.md).
            limiter: { type: 'string', enum: ['local', 'shared', 'degraded'] },
          }),
          noStore,
        ),
        503: jsonResponse(
          'Starting: no aggregation yet',
          object({ status: { const: 'starting' }, dataset }),
          noStore,
        ),
      },
    },
  },
  '/livez': {
    get: {
      operationId: 'live',
      summary: 'Liveness: 200 while the process runs (an orchestrator restarts by it)',
      tags,
      security: [],
      responses: { 200: jsonResponse('Running', probe({ const: 'live' })) },
    },
  },
  '/readyz': {
    get: {
      operationId: 'ready',
      summary: 'Readiness: 200 only when ready to serve (a load balancer sends traffic by it)',
      tags,
      security: [],
      responses: {
        200: jsonResponse('Ready', probe({ const: 'ready' })),
        503: jsonResponse('Starting, draining, or waiting for a dependency', notReady),
      },
    },
  },
};

/** `GET <path>` of an OpenAPI document (the combined one, or the price API's own). */
export function documentPath(operationId: string, summary: string): Record<string, Json> {
  return {
    get: {
      operationId,
      summary,
      description: 'Cache-Control max-age 3600; ETag; gzip or br on request.',
      tags: ['meta'],
      security: [],
      responses: {
        200: jsonResponse(
          'An OpenAPI 3.1 document',
          object({
            openapi: { type: 'string', pattern: '^3\\.1\\.' },
            info: { type: 'object' },
            paths: { type: 'object' },
          }),
        ),
        304: { description: 'Unchanged since the ETag named in If-None-Match' },
      },
    },
  };
}
