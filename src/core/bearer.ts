/**
 * `Authorization: Bearer <token>` (RFC 6750), read the same way everywhere: the REST guards, the subgraphs and the
 * operator token check. The scheme is case-insensitive; surrounding spaces are not part of the token.
 */
import { createHash, timingSafeEqual } from 'node:crypto';

/** The token of an `Authorization` header value, or null without a `Bearer` one (or with an empty token). */
export function bearerToken(header: string | readonly string[] | undefined): string | null {
  if (typeof header !== 'string') return null;
  const m = /^Bearer\s+(.*)$/is.exec(header);
  const token = m?.[1]?.trim() ?? '';
  return token === '' ? null : token;
}

/** Constant-time check of a presented token against the expected one (false when either is missing). */
export function tokenMatches(presented: string | null, expected: string | null): boolean {
  if (!presented || !expected) return false;
  const a = createHash('sha256').update(presented).digest();
  const b = createHash('sha256').update(expected).digest();
  return timingSafeEqual(a, b);
}
