/**
 * Kit test fakes shared by kit.test.ts and provider.test.ts: a fake `fetch` that records what it is sent, the price
 * answer, and `rejection` (the KitError a promise rejects with).
 */
import { expect } from 'vitest';
import { KitError } from '../../src/kit/index.ts';
import type { FetchLike } from '../../src/kit/index.ts';

export const BASE = 'https://platform.test';

interface Sent {
  url: string;
  method: string;
  headers: Record<string, string>;
  body: { documentId?: string; variables?: Record<string, unknown>; query?: unknown };
}

type Reply = { status?: number; headers?: Record<string, string>; body: unknown } | Error | 'hang';

/** A fake fetch: records requests; answers with `handler(request)` (a reply, an Error to throw, or 'hang'). */
export function fakeFetch(handler: (req: Sent, n: number) => Reply): { fetch: FetchLike; sent: Sent[] } {
  const sent: Sent[] = [];
  const fetch: FetchLike = (url, init) => {
    const req: Sent = {
      url,
      method: init.method,
      headers: init.headers,
      body: JSON.parse(init.body) as Sent['body'],
    };
    sent.push(req);
    const r = handler(req, sent.length);
    if (r === 'hang') {
      return new Promise((_resolve, reject) => {
        init.signal.addEventListener('abort', () => reject(new DOMException('aborted', 'AbortError')));
      });
    }
    if (r instanceof Error) return Promise.reject(r);
    const headers = new Map(Object.entries(r.headers ?? {}).map(([k, v]) => [k.toLowerCase(), v]));
    return Promise.resolve({
      status: r.status ?? 200,
      headers: { get: (n: string) => headers.get(n.toLowerCase()) ?? null },
      text: () => Promise.resolve(typeof r.body === 'string' ? r.body : JSON.stringify(r.body)),
    });
  };
  return { fetch, sent };
}

/** A price answer: `quotes` id → price (in the request's currency; a function of the currency if needed). */
export const coinsAnswer = (quotes: Record<string, number | null>) => ({
  body: {
    data: { coins: { edges: Object.entries(quotes).map(([id, price]) => ({ node: { id, price } })) } },
  },
});

export async function rejection(p: Promise<unknown>): Promise<KitError> {
  const e = await p.then(
    () => {
      throw new Error('expected a rejection');
    },
    (err: unknown) => err,
  );
  expect(e).toBeInstanceOf(KitError);
  return e as KitError;
}
