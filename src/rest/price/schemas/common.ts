/**
 * OpenAPI building blocks shared by every price route: the error body, nullable helpers, the API-key security
 * schemes, the per-endpoint cache lifetimes, and route options that keep schemas as documentation only.
 */
import type { FastifySchema, RouteShorthandOptions } from 'fastify';
import { ERROR_COMPONENT, ERROR_SCHEMA as API_ERROR_SCHEMA } from '../../openapi/components.ts';

/** JSON-schema fragment (kept loose: these objects only feed the OpenAPI document). */
export type Json = Record<string, unknown>;

/**
 * `Cache-Control: max-age` in seconds per endpoint: CoinGecko's freshness (§8 of the reference), capped at our
 * 60-second tick for market figures (a response cannot change faster than the tick that computes it, and must
 * not be cached longer than it). Catalog-only answers (lists) keep CoinGecko's longer lifetime.
 */
export const MAX_AGE = {
  ping: 0,
  simplePrice: 20,
  supportedVsCurrencies: 60,
  markets: 45,
  coin: 60,
  coinsList: 300,
  categoriesList: 300,
  categories: 60,
  global: 60,
  search: 60,
  trending: 60,
  coinTickers: 60,
  exchanges: 60,
  exchangesList: 60,
  exchangeRates: 60,
  history: 600,
  movers: 60,
  newCoins: 60,
  globalChart: 60,
} as const;

export const num = { type: 'number' } as const;
export const str = { type: 'string' } as const;
export const int = { type: 'integer' } as const;
export const bool = { type: 'boolean' } as const;
export const nullable = (t: 'number' | 'string' | 'integer' | 'boolean' | 'object' | 'array'): Json => ({
  type: [t, 'null'],
});
export const nNum = nullable('number');
export const nStr = nullable('string');
export const nInt = nullable('integer');
export const strArray: Json = { type: 'array', items: str };
/** `{ <currency code>: number | null }` — one entry per supported vs currency. */
export const currencyMap: Json = {
  type: 'object',
  description:
    'Keyed by every code of /simple/supported_vs_currencies; null where the figure or the rate is unknown',
  additionalProperties: nNum,
};
export const object = (properties: Record<string, unknown>, required = Object.keys(properties)): Json => ({
  type: 'object',
  properties,
  required,
});

/**
 * The error body of every 4xx/5xx answer: the one error shape of every REST surface (`src/rest/openapi/components.ts`),
 * registered under the component name it has in every document.
 */
export const ERROR_SCHEMA: Json = { $id: ERROR_COMPONENT, ...API_ERROR_SCHEMA };

/** A reference to {@link ERROR_SCHEMA} from a route schema. */
export const ERROR_REF = { $ref: `${ERROR_COMPONENT}#` };
const errorRef = ERROR_REF;

/** Error responses every price route may give. */
export const errorResponses: Json = {
  400: { description: 'A parameter is missing, malformed, repeated or out of range', ...errorRef },
  401: { description: 'The API key is unknown, pending, rejected or revoked', ...errorRef },
  429: { description: 'Rate limit exceeded; see Retry-After', ...errorRef },
  503: { description: 'The engine has not aggregated market data yet; see Retry-After', ...errorRef },
};

/** Security schemes: our key names and the CoinGecko aliases (header and query forms of each). */
export const SECURITY_SCHEMES = {
  apiKeyHeader: { type: 'apiKey', in: 'header', name: 'x-sp-api-key', description: 'Our API key header' },
  apiKeyQuery: {
    type: 'apiKey',
    in: 'query',
    name: 'x_sp_api_key',
    description: 'Our API key as a query parameter',
  },
  cgProHeader: {
    type: 'apiKey',
    in: 'header',
    name: 'x-cg-pro-api-key',
    description: 'Alias (CoinGecko Pro SDKs)',
  },
  cgProQuery: { type: 'apiKey', in: 'query', name: 'x_cg_pro_api_key', description: 'Alias (CoinGecko Pro)' },
  cgDemoHeader: {
    type: 'apiKey',
    in: 'header',
    name: 'x-cg-demo-api-key',
    description: 'Alias (CoinGecko Demo)',
  },
  cgDemoQuery: {
    type: 'apiKey',
    in: 'query',
    name: 'x_cg_demo_api_key',
    description: 'Alias (CoinGecko Demo)',
  },
} as const;

/** Keyless use is allowed (per-IP limit), so the empty requirement comes first. */
export const SECURITY = [{}, ...Object.keys(SECURITY_SCHEMES).map((k) => ({ [k]: [] }))];

/**
 * Route options for a documented GET: the schema feeds OpenAPI only. Parameters are checked by the parsers of
 * `src/core/params.ts` (whose 400s name the parameter and what it accepts, and catch repeated parameters), and
 * bodies are serialised once by the response cache, so Fastify neither validates nor serialises with them.
 */
export function documented(schema: FastifySchema & Json): RouteShorthandOptions {
  const responses = { ...((schema.response ?? {}) as Json) };
  const ok = responses['200'] as Json | undefined;
  if (ok && ok['description'] === undefined)
    responses['200'] = { ...ok, description: schema['summary'] ?? 'OK' };
  return {
    schema: { ...schema, response: { ...errorResponses, ...responses } },
    validatorCompiler: () => () => true,
    serializerCompiler: () => (data) => JSON.stringify(data),
  };
}

/** Query-string schema from a map of parameter → schema (with `description`). */
export function query(props: Record<string, Json>, required: string[] = []): Json {
  return { type: 'object', properties: props, required };
}

/** A `precision` parameter schema (CoinGecko's string enum). */
export const precisionParam: Json = {
  type: 'string',
  description: 'Decimal places of currency values: full or 0–18; default 12 significant digits',
  enum: ['full', ...Array.from({ length: 19 }, (_, i) => String(i))],
};

/** A boolean query flag with its default. */
export const flag = (description: string, def: boolean): Json => ({ ...bool, default: def, description });
