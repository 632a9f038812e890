/**
 * HTTP caching of the graph's GET answers to documents named by id (issue 35: trusted documents by GET, cacheable by
 * a CDN): `GET /graphql?documentId=…&variables=…`, or the APQ form `?extensions={"persistedQuery":…}`. Such a URL
 * names the operation and its variables in full, as a price API URL does, so its answer gets what the price API's
 * answers get (`src/rest/cache.ts`): `Cache-Control: public, max-age=…` and a strong ETag, with `If-None-Match` → 304
 * by the one conditional rule (`src/core/conditional.ts`).
 *
 * The ETag is taken from the answer's bytes without its `extensions.cost.budget` (the caller's remaining budget, which
 * changes with every request and is not part of the data): it is the same for every request of one data snapshot, and
 * changes when the data does — the next market tick, or anything else the document reads. Only a complete 200 (no
 * `errors`: a partial answer, or a refusal, is not kept by anyone) gets them, and never a request with
 * `Authorization` (a session's `me` is not a public answer). Query text sent by GET, streams and POSTs are unchanged.
 */
import { strongEtag } from '../src/core/conditional.ts';
import type { Validators } from '../src/core/conditional.ts';
import { budgetAt, bodyText } from './http-phase.ts';

/**
 * Seconds a CDN or browser may keep an answer before revalidating: the price API's shortest (`/simple/price`, 20 s),
 * a third of the default market tick (60 s).
 */
export const GRAPH_GET_MAX_AGE_S = 20;

/** The request as this rule reads it: a Fastify request is one. */
export interface CacheableRequest {
  readonly method: string;
  readonly url: string;
  readonly headers: { readonly authorization?: string | undefined };
}

/** The router's answer as this rule reads it. */
export interface CacheableAnswer {
  readonly status: number;
  readonly body: string | Buffer;
  readonly stream?: unknown;
}

/** Whether the URL's query string names a document by id (`documentId`, or an APQ `persistedQuery` extension). */
function namesDocumentById(url: string): boolean {
  const q = url.indexOf('?');
  if (q < 0) return false;
  const params = new URLSearchParams(url.slice(q + 1));
  if (params.has('query')) return false;
  return params.has('documentId') || (params.get('extensions') ?? '').includes('"persistedQuery"');
}

/** The answer without its `"budget":{…}` object (`withBudget` in `router/http-phase.ts` writes it there). */
function withoutBudget(body: string): string {
  const where = budgetAt(body);
  return where ? body.slice(0, where[0]) + body.slice(where[1]) : body;
}

/** The validators of a cacheable GET answer (see above); null for any other request or answer. */
export function getAnswerValidators(req: CacheableRequest, res: CacheableAnswer): Validators | null {
  if (req.method !== 'GET' && req.method !== 'HEAD') return null;
  if (res.status !== 200 || res.stream !== undefined || req.headers.authorization !== undefined) return null;
  if (!namesDocumentById(req.url)) return null;
  const body = bodyText(res.body);
  if (!body.startsWith('{"data":') || body.includes('"errors":[')) return null;
  return {
    etag: strongEtag(withoutBudget(body)),
    // `Vary: Accept` is already set on every answer of the graph (`router/http.ts`): left as it is.
    cacheControl: `public, max-age=${GRAPH_GET_MAX_AGE_S}`,
  };
}
