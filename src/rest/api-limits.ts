/**
 * The `/api/*` rate limits on Fastify (the buckets and their limits: `src/access/api-limits.ts`):
 * - a route that anyone may call declares its per-IP bucket in its options, `config: { apiLimit: 'public' }`, and
 *   the scope's {@link ipLimitHook} counts it before any work (before the body is read);
 * - a route behind a session, the operator token or a partner signature is counted once the caller is known, per
 *   account or partner, by the guard that admits it ({@link admitCaller}); a request refused 401 for the credentials
 *   it carried counts in its IP's `sign-in` bucket ({@link refusedCredentials}), which is answered 429 once used up.
 * docs/plans-and-limits.md ("The /api limits").
 */
import type { FastifyRequest } from 'fastify';
import type { ApiBucket, ApiIpBucket, ApiLimiter } from '../access/api-limits.ts';
import { clientIp } from '../access/client-ip.ts';
import { ApiError } from '../core/errors.ts';

declare module 'fastify' {
  interface FastifyContextConfig {
    /** The `/api` bucket this public route counts in, per client IP, before any work; unset: none. */
    apiLimit?: ApiIpBucket;
  }
}

/** What the `/api` plugins take to apply the limits; omitted → no limits (tests of other things). */
export interface ApiLimits {
  limiter: ApiLimiter;
  /** `TRUSTED_PROXIES`: whose `X-Forwarded-For` is believed (the price API's rule, `src/access/client-ip.ts`). */
  trustedProxies: readonly string[];
}

/** The client address of a request, as the price API's keyless budget sees it. */
export function requestIp(req: FastifyRequest, trustedProxies: readonly string[]): string {
  return clientIp(req.socket.remoteAddress ?? '', req.headers['x-forwarded-for'], trustedProxies);
}

/** An `onRequest` hook for an `/api` scope: counts each route that declares a per-IP bucket (a 429 when over). */
export function ipLimitHook(limits: ApiLimits): (req: FastifyRequest) => Promise<void> {
  return async (req) => {
    const bucket = req.routeOptions.config.apiLimit;
    if (bucket === undefined || req.method === 'OPTIONS') return;
    const refused = await limits.limiter.consume(bucket, requestIp(req, limits.trustedProxies));
    if (refused) throw refused;
  };
}

/** Counts an admitted caller (`account`: an account id or `operator`; `partner`: a partner id); throws the 429. */
export async function admitCaller(
  limits: ApiLimits | undefined,
  bucket: Extract<ApiBucket, 'account' | 'partner'>,
  who: string,
): Promise<void> {
  const refused = await limits?.limiter.consume(bucket, who);
  if (refused) throw refused;
}

/**
 * What to throw for `err`, a guard's refusal: a 401 (credentials sent but refused) counts in the IP's `sign-in`
 * bucket, and once that is used up the 429 is answered instead; anything else is `err` unchanged.
 */
export async function refusedCredentials(
  limits: ApiLimits | undefined,
  req: FastifyRequest,
  err: unknown,
): Promise<unknown> {
  if (!limits || !(err instanceof ApiError) || err.status !== 401) return err;
  return (await limits.limiter.consume('sign-in', requestIp(req, limits.trustedProxies))) ?? err;
}
