/// <reference lib="dom" />
/**
 * The widget's side of the graph. The widget runs on other sites, so it calls the platform it was loaded from (the
 * origin of its own `<script src>`, or the element's `api` attribute), never the page's origin: it POSTs the
 * persisted document `{ documentId, variables }` to `<origin>/graphql` (CORS allows any origin there; no cookies,
 * no key: the keyless plan).
 */
import { KIT_COINS } from '../../../kit/tickers.ts';
import type { MiningCalculatorQuery, MiningCalculatorQueryVariables } from '../../generated/graphql.ts';
import { MiningCalculatorDocument } from '../../generated/graphql.ts';

/** A failed load: the API's `extensions.code` and message, or a network / protocol problem. */
export class WidgetError extends Error {
  constructor(
    readonly code: string,
    message: string,
  ) {
    super(message);
    this.name = 'WidgetError';
  }
}

/** The origin of a script URL (`https://api.example.com/widgets/x.js` → `https://api.example.com`); null if none. */
export function originOfScript(src: string | null | undefined): string | null {
  if (!src) return null;
  try {
    const u = new URL(src);
    return u.protocol === 'http:' || u.protocol === 'https:' ? u.origin : null;
  } catch {
    return null;
  }
}

/**
 * The platform to call: the `api` attribute when it is an http(s) URL (its origin plus path, without a trailing
 * slash), else the script's origin, else the page's own origin (the widget served by the platform itself).
 */
export function platformBase(api: string | null, scriptOrigin: string | null, pageOrigin: string): string {
  if (api) {
    try {
      const u = new URL(api.trim());
      if (u.protocol === 'http:' || u.protocol === 'https:')
        return `${u.origin}${u.pathname}`.replace(/\/+$/, '');
    } catch {
      // not a URL: fall through
    }
  }
  return scriptOrigin ?? pageOrigin;
}

/** Coin ids as the graph writes them. */
const COIN_ID = /^[a-z0-9][a-z0-9._-]{0,99}$/;

export interface CoinRef {
  id: string;
  /** The kit ticker when the attribute named one. */
  ticker: string | null;
}

/** The `coin` attribute: a kit ticker (any case: `LKY`) or a coin id (`luckycoin`); null when it is neither. */
export function resolveCoin(attr: string | null): CoinRef | null {
  const v = (attr ?? '').trim();
  if (v === '') return null;
  const kit = KIT_COINS.find((c) => c.ticker === v.toUpperCase() || c.coinId === v.toLowerCase());
  if (kit) return { id: kit.coinId, ticker: kit.ticker };
  const id = v.toLowerCase();
  return COIN_ID.test(id) ? { id, ticker: null } : null;
}

export type Figures = MiningCalculatorQuery;

interface GraphBody {
  data?: unknown;
  errors?: { message?: string; extensions?: { code?: string } }[];
}

/** The coin's figures and the currencies from `<base>/graphql`. */
export async function loadFigures(
  base: string,
  variables: MiningCalculatorQueryVariables,
  signal?: AbortSignal,
): Promise<Figures> {
  const documentId = (MiningCalculatorDocument as unknown as { __meta__?: { hash?: string } }).__meta__?.hash;
  if (!documentId) throw new WidgetError('BAD_DOCUMENT', 'internal: document without a persisted id');
  let res: Response;
  try {
    res = await fetch(`${base}/graphql`, {
      method: 'POST',
      mode: 'cors',
      credentials: 'omit',
      headers: {
        'content-type': 'application/json',
        accept: 'application/graphql-response+json, application/json',
      },
      body: JSON.stringify({ documentId, variables }),
      ...(signal ? { signal } : {}),
    });
  } catch (err) {
    if (signal?.aborted) throw err;
    throw new WidgetError('NETWORK_ERROR', 'the platform could not be reached');
  }
  let body: GraphBody | null = null;
  try {
    body = (await res.json()) as GraphBody;
  } catch {
    body = null;
  }
  const first = body?.errors?.[0];
  // Any error fails the load (an unsupported currency, a refused request, …): the figures would be incomplete.
  if (first) throw new WidgetError(first.extensions?.code ?? 'ERROR', first.message ?? 'the request failed');
  if (!res.ok || !body || body.data === null || typeof body.data !== 'object')
    throw new WidgetError('BAD_RESPONSE', `unexpected answer from ${base} (HTTP ${res.status})`);
  return body.data as Figures;
}
