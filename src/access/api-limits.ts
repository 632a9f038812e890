/**
 * Rate limits of the `/api/*` surface (accounts, sign-in, names, dapp store, bridge reads): per client IP where the
 * caller is not signed in, per account (or partner) where it is. Counted by the same {@link RateLimitStore} as the
 * price API's budgets (any sliding 60 seconds; in Redis when `REDIS_URL` is set, so every process shares them), under
 * identities of their own (`api:<bucket>:<who>`), so that they never touch a key's request budget.
 * docs/plans-and-limits.md ("The /api limits") lists what each bucket covers.
 */
import type { ApiError } from '../core/errors.ts';
import { accessErrors } from './errors.ts';
import type { RateLimitResult, RateLimitStore } from './limiter.ts';

/**
 * - `challenge`: `POST /api/auth/challenge`, per IP (each stores a challenge row);
 * - `sign-in`: `POST /api/auth/session` and every `/api` request refused 401 for the credentials it carried (a bad or
 *   expired session, a partner request whose signature fails), per IP (each costs a signature check or a lookup);
 * - `public`: the public reads (resolution, the dapp store, bridge reads), per IP;
 * - `account`: every request admitted by a session or the operator token, per account (the operator is one);
 * - `partner`: every partner request whose signature checked, per partner.
 */
export const API_BUCKETS = ['challenge', 'sign-in', 'public', 'account', 'partner'] as const;
export type ApiBucket = (typeof API_BUCKETS)[number];
/** The buckets counted per client IP before any work (the rest are counted once the caller is known). */
export type ApiIpBucket = Extract<ApiBucket, 'challenge' | 'sign-in' | 'public'>;

/** Requests per minute of each bucket (`API_RATE_LIMITS` overrides any of them). */
export const API_LIMIT_DEFAULTS: Readonly<Record<ApiBucket, number>> = {
  challenge: 30,
  'sign-in': 30,
  public: 240,
  account: 300,
  partner: 600,
};

/** What is counted, in the words of a 429's message. */
const WHAT: Record<ApiBucket, string> = {
  challenge: 'sign-in challenges per minute for this IP address',
  'sign-in': 'sign-in attempts and refused credentials per minute for this IP address',
  public: 'requests per minute for this IP address',
  account: 'requests per minute for this account',
  partner: 'requests per minute for this partner',
};

export interface ApiLimiter {
  /**
   * Counts one request of `who` (a client IP, an account id, `operator`, a partner id) against `bucket`: null when
   * admitted, else the 429 to answer (`RATE_LIMITED`, with `Retry-After` and the `X-RateLimit-*` headers).
   */
  consume(bucket: ApiBucket, who: string): Promise<ApiError | null>;
}

/** The 429 of a refused count. */
export function apiRateLimited(bucket: ApiBucket, r: RateLimitResult): ApiError {
  return accessErrors.apiRateLimited(r.limit, WHAT[bucket], Math.max(1, Math.ceil(r.resetMs / 1000)));
}

/** The limiter over `store` (the access layer's: memory, or Redis with its fallback) with `limits` per bucket. */
export function createApiLimiter(
  store: RateLimitStore,
  limits: Partial<Record<ApiBucket, number>> = {},
): ApiLimiter {
  const perMinute = { ...API_LIMIT_DEFAULTS, ...limits };
  return {
    async consume(bucket, who) {
      const r = await store.consume(`api:${bucket}:${who}`, perMinute[bucket]);
      return r.allowed ? null : apiRateLimited(bucket, r);
    },
  };
}
