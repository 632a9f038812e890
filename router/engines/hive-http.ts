/**
 * The router's GraphQL-over-HTTP answers on Hive Gateway's runtime (GraphQL Yoga): the CSRF rule, body checks,
 * automatic persisted queries, statuses and messages the router has answered since it ran on Apollo Server
 * (docs/graph.md, "GraphQL over HTTP"), kept when it moved (issue 15) so that clients saw no difference; and the
 * body as the router's transport parsed it (`readBodyOnce`).
 */
import { createHash } from 'node:crypto';
import type { KeyValueCache } from '@apollo/utils.keyvaluecache';
import { GraphQLError, Kind, parse } from 'graphql';
import type { GraphQLFormattedError } from 'graphql';
import { operationNotResolved } from '../phases.ts';
import { routerErrors } from '../errors.ts';
import type { RouterServerContext } from './context.ts';

/** A refusal before the engine runs: the status and the one error. */
export interface Refusal {
  status: number;
  error: GraphQLFormattedError;
}

const badRequest = (message: string): Refusal => ({
  status: 400,
  error: { message, extensions: { code: 'BAD_REQUEST' } },
});

/** Browsers cannot send these headers without a CORS preflight, so a request carrying one is not a CSRF. */
export const PREFLIGHT_HEADERS: readonly string[] = [
  'x-apollo-operation-name',
  'apollo-require-preflight',
  'x-sp-api-key',
  'authorization',
];

const SIMPLE_TYPES = ['application/x-www-form-urlencoded', 'multipart/form-data', 'text/plain'];

/**
 * CSRF prevention, for what a browser may send cross-site without a CORS preflight (no content type, or a "simple"
 * one) and with the credentials it holds for us: such a request must carry one of `preflightHeaders` — unless it is
 * a GET without a cookie. Our credentials are API keys and bearer tokens, which a browser never adds by itself; a
 * cookie is the one credential it would, so a GET carrying one is still refused. A GET runs queries only (a mutation
 * by GET is 405), so a cookie-less GET can do nothing a cross-site page could not do itself.
 */
export function csrfRefusal(
  method: string,
  headers: Readonly<Record<string, string | undefined>>,
  preflightHeaders: readonly string[],
): Refusal | null {
  const type = headers['content-type'];
  if (type !== undefined && !SIMPLE_TYPES.includes(type.split(';')[0]?.trim().toLowerCase() ?? ''))
    return null;
  if (preflightHeaders.some((h) => (headers[h] ?? '').length > 0)) return null;
  if (method === 'GET' && (headers['cookie'] ?? '') === '') return null;
  return badRequest(
    'This operation has been blocked as a potential Cross-Site Request Forgery (CSRF). Please either specify a ' +
      `'content-type' header (with a type that is not one of ${SIMPLE_TYPES.join(', ')}) or provide a non-empty ` +
      `value for one of the following headers: ${preflightHeaders.join(', ')}\n`,
  );
}

/** A GET whose `variables` or `extensions` parameter is not a JSON-encoded object. */
export function searchRefusal(search: string): Refusal | null {
  const params = new URLSearchParams(search);
  for (const name of ['variables', 'extensions']) {
    const v = params.get(name);
    if (v === null) continue;
    let parsed: unknown;
    try {
      parsed = JSON.parse(v);
    } catch {
      parsed = undefined;
    }
    if (!parsed || typeof parsed !== 'object' || Array.isArray(parsed))
      return badRequest(`The ${name} search parameter should contain a JSON-encoded object.`);
  }
  return null;
}

/** A POST body that is not one operation object with fields of the right types. */
export function bodyRefusal(body: unknown): Refusal | null {
  if (!body || typeof body !== 'object' || Array.isArray(body) || Object.keys(body).length === 0)
    return badRequest('POST body missing, invalid Content-Type, or JSON object has no keys.');
  const o = body as Record<string, unknown>;
  const isObject = (v: unknown) =>
    v === undefined || v === null || (typeof v === 'object' && !Array.isArray(v));
  if (o['query'] !== undefined && o['query'] !== null && typeof o['query'] !== 'string')
    return badRequest('`query` in a POST body must be a string if provided.');
  if (!isObject(o['variables']))
    return badRequest('`variables` in a POST body must be an object if provided.');
  if (!isObject(o['extensions']))
    return badRequest('`extensions` in a POST body must be an object if provided.');
  if (
    o['operationName'] !== undefined &&
    o['operationName'] !== null &&
    typeof o['operationName'] !== 'string'
  )
    return badRequest('`operationName` in a POST body must be a string if provided.');
  return null;
}

/**
 * How deep a POST body's JSON may nest: far deeper than any input type of the schema (a few levels), far shallower
 * than the stack (JSON.stringify and other recursive readers of the runtime overflow at a few thousand levels).
 */
export const MAX_BODY_DEPTH = 1_000;

/** Whether `value` nests objects and arrays more than `max` levels deep, found without recursion. */
function nestsDeeperThan(value: unknown, max: number): boolean {
  const values: unknown[] = [value];
  const depths: number[] = [1];
  for (
    let v = values.pop(), d = depths.pop() ?? 1;
    v !== undefined;
    v = values.pop(), d = depths.pop() ?? 1
  ) {
    if (typeof v !== 'object' || v === null) continue;
    if (d > max) return true;
    for (const child of Array.isArray(v) ? v : Object.values(v))
      if (typeof child === 'object' && child !== null) {
        values.push(child);
        depths.push(d + 1);
      }
  }
  return false;
}

/**
 * A POST body nested deeper than {@link MAX_BODY_DEPTH}: variables no type is that deep, answered as variables that
 * do not coerce, with the runtime's statuses (200 under `application/json`, 400 under
 * `application/graphql-response+json`). Checked by a walk of the body as parsed, never by serialising it again.
 */
export function nestingRefusal(body: unknown, accept: string | undefined): Refusal | null {
  if (!nestsDeeperThan(body, MAX_BODY_DEPTH)) return null;
  return {
    status: (accept ?? '').includes('application/graphql-response+json') ? 400 : 200,
    error: {
      message: 'variables are nested deeper than any input type',
      extensions: { code: 'BAD_USER_INPUT' },
    },
  };
}

/** graphql-js's messages for variables that do not coerce (`Variable "$n" got invalid value …`). */
export const VARIABLE_ERROR = /^Variable "\$/;

/** Where a query registered by its SHA-256 is kept in the APQ cache. */
const apqKey = (hash: string): string => `apq:${hash}`;

/**
 * Automatic persisted queries (Apollo's protocol) as a runtime plugin: a hash alone is looked up
 * (`PERSISTED_QUERY_NOT_FOUND`, HTTP 200, when unknown: the client resends with the text); a hash with its text is
 * checked and kept for 24 h.
 */
export function apqPlugin(cache: KeyValueCache<string>) {
  return {
    async onParams({
      params,
      setParams,
    }: {
      params: { query?: string; extensions?: Record<string, unknown> } & Record<string, unknown>;
      setParams: (p: Record<string, unknown>) => void;
    }) {
      const pq = params.extensions?.['persistedQuery'] as
        { version?: unknown; sha256Hash?: unknown } | undefined;
      if (!pq || typeof pq !== 'object') return;
      if (pq.version !== 1)
        throw new GraphQLError('Unsupported persisted query version', {
          extensions: { code: 'BAD_REQUEST', http: { status: 400 } },
        });
      const hash = typeof pq.sha256Hash === 'string' ? pq.sha256Hash : '';
      if (typeof params.query !== 'string') {
        const query = await cache.get(apqKey(hash));
        if (query === undefined)
          throw new GraphQLError('PersistedQueryNotFound', {
            extensions: { code: 'PERSISTED_QUERY_NOT_FOUND', http: { status: 200 } },
          });
        setParams({ ...params, query });
        return;
      }
      if (createHash('sha256').update(params.query).digest('hex') !== hash)
        throw new GraphQLError('provided sha does not match query', {
          extensions: { code: 'BAD_REQUEST', http: { status: 400 } },
        });
      await cache.set(apqKey(hash), params.query, { ttl: 86_400 });
    },
  };
}

/** The operation text and name of a request (a JSON body, or a GET's query string). */
function requested(search: string, body: unknown): { query?: string; operationName?: string } {
  const o: Record<string, unknown> =
    body && typeof body === 'object' && !Array.isArray(body)
      ? (body as Record<string, unknown>)
      : Object.fromEntries(new URLSearchParams(search));
  return {
    ...(typeof o['query'] === 'string' ? { query: o['query'] } : {}),
    ...(typeof o['operationName'] === 'string' ? { operationName: o['operationName'] } : {}),
  };
}

/**
 * The runtime's answer to a request error, as the router answers it: graphql-js's messages for an operation that
 * cannot be chosen, Apollo's for a mutation over GET, `BAD_USER_INPUT` for variables that do not coerce. The status
 * is as GraphQL over HTTP says: 200 for a well-formed request under `application/json` (a document that does not
 * parse or validate, variables that do not coerce), 400 under `application/graphql-response+json` (the runtime's,
 * but for variables, which it answers 200). Answers with data pass unchanged.
 */
export function normaliseRequestError(
  status: number,
  body: string,
  request: { search: string; body: unknown; headers?: Readonly<Record<string, string | undefined>> },
): { status: number; body: string } {
  if (!body.startsWith('{"errors"')) return { status, body };
  let parsed: { data?: unknown; errors?: GraphQLFormattedError[] };
  try {
    parsed = JSON.parse(body) as typeof parsed;
  } catch {
    return { status, body };
  }
  if ('data' in parsed || !Array.isArray(parsed.errors)) return { status, body };
  const codes = parsed.errors.map((e) => e.extensions?.['code']);
  if (codes.every((c) => c === 'PERSISTED_QUERY_NOT_FOUND')) return { status, body };
  // Variables that do not coerce: a request error, 400 under graphql-response+json (the runtime answers 200).
  if (status === 200 && parsed.errors.every((e) => !e.path && VARIABLE_ERROR.test(e.message)))
    status = (request.headers?.['accept'] ?? '').startsWith('application/graphql-response+json') ? 400 : 200;
  const errors = parsed.errors.map((e): GraphQLFormattedError => {
    if (e.message === 'Could not determine what operation to execute.') {
      const r = requested(request.search, request.body);
      try {
        if (r.query !== undefined) {
          const doc = parse(r.query);
          if (doc.definitions.some((d) => d.kind === Kind.OPERATION_DEFINITION))
            return {
              message: operationNotResolved(doc, r.operationName).message,
              extensions: { code: 'OPERATION_RESOLUTION_FAILURE' },
            };
        }
      } catch {
        // unparsable: the runtime's own message stands
      }
    }
    if (e.message === 'Can only perform a mutation operation from a POST request.') {
      const refused = routerErrors.mutationOverGet();
      return { message: refused.message, extensions: { code: refused.code } };
    }
    if (e.extensions?.['code'] === undefined && VARIABLE_ERROR.test(e.message))
      return { ...e, extensions: { ...e.extensions, code: 'BAD_USER_INPUT' } };
    return e;
  });
  return { status, body: JSON.stringify({ ...parsed, errors }) };
}

/**
 * A request's body is read and parsed once, by the router's transport: the runtime takes the parsed object
 * (`RouterServerContext.routerParams`) instead of reading and parsing the body again, and it is never written out as
 * text in between (its own JSON parser would give the same object).
 */
export const readBodyOnce = {
  onRequestParse({
    serverContext,
    setRequestParser,
  }: {
    serverContext: unknown;
    setRequestParser: (parser: () => Record<string, unknown>) => void;
  }) {
    const params = (serverContext as RouterServerContext).routerParams;
    if (params) setRequestParser(() => params);
  },
};
