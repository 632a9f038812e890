/**
 * The kit's live prices: `subscribePrices(ids, currency, onUpdate)` over GraphQL over Server-Sent Events (the
 * router's `/graphql` with `Accept: text/event-stream`, the graphql-sse protocol; docs/graph.md, "Subscriptions"),
 * sending the persisted `KitLivePrices` document. The kit keeps each coin's latest figures (events after the first
 * carry only the coins that changed) and hands the whole picture to `onUpdate`.
 *
 * Reconnects by itself: a cut stream, a network failure or a server going away is retried after 1 s, 2 s, 4 s, … up
 * to `maxRetryMs` (with jitter, reset once an event arrives); a 429/503 or a budget's end after the wait the API asks
 * for. What retrying cannot fix (a refused key, a bad id list or currency, a plan's cap) stops the subscription and is
 * handed to `onError`. Uses only `fetch` with a streaming body, `TextDecoder` and timers: browsers and Node ≥ 18.
 */
import { KitError, kitError } from './errors.ts';
import { KitLivePricesDocument } from './generated/graphql.ts';
import { apiError, graphqlUrl, parseRetryAfter } from './http.ts';
import type { GraphqlError, PersistedDocument, TransportOptions } from './http.ts';
import type { LivePrice, LivePrices, SubscribeOptions } from './types.ts';

export const DEFAULT_MIN_RETRY_MS = 1_000;
export const DEFAULT_MAX_RETRY_MS = 30_000;

/** Codes of a stream's last event after which opening it again later works (the wait is in `retryAfter`). */
const RETRYABLE = new Set(['RATE_LIMITED', 'COST_BUDGET_EXHAUSTED', 'OVERLOADED', 'TOO_MANY_SUBSCRIPTIONS']);

/** One server-sent event: its `event` name and `data` (lines joined). */
interface SseEvent {
  event: string;
  data: string;
}

/** The events of an event-stream body, as they arrive (comments and keep-alives skipped). */
export async function* sseEvents(body: ReadableStream<Uint8Array>): AsyncGenerator<SseEvent> {
  const reader = body.getReader();
  const decoder = new TextDecoder();
  let buffer = '';
  try {
    for (;;) {
      const { done, value } = await reader.read();
      if (done) return;
      buffer += decoder.decode(value, { stream: true }).replace(/\r\n?/g, '\n');
      let end: number;
      while ((end = buffer.indexOf('\n\n')) !== -1) {
        const block = buffer.slice(0, end);
        buffer = buffer.slice(end + 2);
        let event = 'message';
        const data: string[] = [];
        for (const line of block.split('\n')) {
          if (line === '' || line.startsWith(':')) continue;
          const colon = line.indexOf(':');
          const field = colon === -1 ? line : line.slice(0, colon);
          const value = colon === -1 ? '' : line.slice(colon + 1).replace(/^ /, '');
          if (field === 'event') event = value;
          else if (field === 'data') data.push(value);
        }
        if (data.length || event !== 'message') yield { event, data: data.join('\n') };
      }
    }
  } finally {
    reader.releaseLock();
  }
}

const num = (v: unknown): number | null => (typeof v === 'number' && Number.isFinite(v) ? v : null);

/** One coin of an event, checked; null when it is not a coin of the answer's shape. */
function priceOf(v: unknown): (LivePrice & { id: string }) | null {
  const o = (typeof v === 'object' && v !== null ? v : {}) as Record<string, unknown>;
  if (typeof o.id !== 'string') return null;
  return {
    id: o.id,
    price: num(o.price),
    change24h: num(o.change24h),
    confidence: num(o.confidence),
    updatedAt: typeof o.updatedAt === 'string' ? o.updatedAt : null,
  };
}

/** A wait before the next attempt: `min · 2^attempt` capped at `max`, the upper half randomised (equal jitter). */
export function backoffMs(attempt: number, min: number, max: number, random = Math.random): number {
  const d = Math.min(max, min * 2 ** Math.min(attempt, 30));
  return Math.round(d / 2 + random() * (d / 2));
}

/**
 * Starts a live subscription; returns the function that ends it (idempotent). `ids` and `currency` are checked by
 * the caller (sdk.ts).
 */
export function subscribeLive<I extends string>(
  t: TransportOptions,
  ids: readonly I[],
  currency: string,
  onUpdate: (update: LivePrices<I>) => void,
  o: SubscribeOptions = {},
): () => void {
  const minRetry = o.minRetryMs ?? DEFAULT_MIN_RETRY_MS;
  const maxRetry = o.maxRetryMs ?? DEFAULT_MAX_RETRY_MS;
  const stop = new AbortController();
  const documentId = (KitLivePricesDocument as PersistedDocument<unknown, unknown>).__meta__?.hash ?? '';
  const url = graphqlUrl(t.baseUrl);
  const headers: Record<string, string> = {
    'content-type': 'application/json',
    accept: 'text/event-stream',
  };
  if (t.apiKey) headers['x-sp-api-key'] = t.apiKey;
  const body = JSON.stringify({ documentId, variables: { ids, currency } });
  const prices: { [K in I]?: LivePrice } = {};
  const asked = new Set<string>(ids);

  const fail = (err: KitError) => {
    if (stop.signal.aborted) return;
    stop.abort();
    o.onError?.(err);
  };
  const deliver = (data: unknown): void => {
    const list = (data as { prices?: unknown } | null)?.prices;
    if (!Array.isArray(list)) throw kitError('BAD_RESPONSE', 'a live prices event without a prices list');
    const changed: I[] = [];
    for (const item of list) {
      const p = priceOf(item);
      if (!p || !asked.has(p.id)) continue;
      const { id, ...figures } = p;
      prices[id as I] = figures;
      changed.push(id as I);
    }
    try {
      onUpdate({ currency, prices: { ...prices }, changed });
    } catch {
      // The listener's failure is its own; the stream goes on.
    }
  };

  /** One connection: resolves with the wait before the next (undefined: the usual backoff), or null when done. */
  const connect = async (): Promise<{ waitMs?: number; live: boolean } | null> => {
    let live = false;
    const res = await t.fetch(url, { method: 'POST', headers, body, signal: stop.signal });
    const type = res.headers.get('content-type') ?? '';
    const stream = (res as { body?: ReadableStream<Uint8Array> | null }).body;
    if (!type.startsWith('text/event-stream')) {
      const text = await res.text();
      let errors: GraphqlError[] = [];
      try {
        errors = ((JSON.parse(text) as { errors?: GraphqlError[] }).errors ?? []) as GraphqlError[];
      } catch {
        // not JSON: a proxy's page; retried like a network failure when it is a 5xx
      }
      const wait = parseRetryAfter(res.headers.get('retry-after'));
      if (res.status === 429 || res.status >= 500)
        return { live, ...(wait !== undefined ? { waitMs: wait } : {}) };
      fail(apiError(res.status, errors, wait));
      return null;
    }
    if (!stream) {
      fail(kitError('BAD_RESPONSE', 'this fetch gives no streaming body: live prices need one'));
      return null;
    }
    for await (const ev of sseEvents(stream)) {
      if (ev.event === 'complete') break;
      if (ev.event !== 'next') continue;
      const result = JSON.parse(ev.data) as { data?: unknown; errors?: GraphqlError[] };
      const errors = result.errors ?? [];
      if (errors.length) {
        const code = errors[0]?.extensions?.code;
        const retryAfter = errors[0]?.extensions?.retryAfter;
        const waitMs = typeof retryAfter === 'number' ? retryAfter * 1_000 : undefined;
        if (typeof code === 'string' && RETRYABLE.has(code))
          return { live, ...(waitMs !== undefined ? { waitMs } : {}) };
        fail(apiError(200, errors, waitMs));
        return null;
      }
      deliver(result.data);
      live = true;
    }
    return { live };
  };

  void (async () => {
    let attempt = 0;
    while (!stop.signal.aborted) {
      let next: { waitMs?: number; live: boolean } | null;
      try {
        next = await connect();
      } catch (err) {
        if (stop.signal.aborted) return;
        if (err instanceof KitError) return fail(err);
        next = { live: false };
      }
      if (next === null || stop.signal.aborted) return;
      if (next.live) attempt = 0;
      const wait = next.waitMs ?? backoffMs(attempt++, minRetry, maxRetry);
      try {
        o.onRetry?.(wait);
      } catch {
        // the listener's own failure
      }
      await new Promise<void>((resolve) => {
        const timer = setTimeout(resolve, wait);
        stop.signal.addEventListener('abort', () => (clearTimeout(timer), resolve()), { once: true });
      });
    }
  })();
  return () => stop.abort();
}
