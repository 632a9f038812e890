import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';
import { fileSecret } from '../secret-file.ts';

/**
 * The operator's bearer token for `/api/admin/*` (used by `coinwallet keys …` and automation). `ADMIN_TOKEN` wins;
 * in embedded mode one is generated on first start at `<DATA_DIR>/secrets/admin-token` (mode 0600), where the CLI on
 * the same machine reads it. In scale-out mode without `ADMIN_TOKEN`, the operator endpoints are disabled.
 */
export function resolveAdminToken(opts: {
  env: string | undefined;
  dataDir: string;
  scaleOut: boolean;
}): string | null {
  if (opts.env) return opts.env;
  if (opts.scaleOut) return null;
  return fileSecret(opts.dataDir, 'admin-token', () => `cwa_${randomBytes(24).toString('base64url')}`);
}

/** Constant-time check of an `Authorization: Bearer …` header against the token. */
export function bearerMatches(header: string | undefined, token: string | null): boolean {
  if (!token || !header?.startsWith('Bearer ')) return false;
  const a = createHash('sha256').update(header.slice(7).trim()).digest();
  const b = createHash('sha256').update(token).digest();
  return timingSafeEqual(a, b);
}
