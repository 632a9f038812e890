import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';
import { chmodSync, existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

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

/** Reads `<dataDir>/secrets/<name>`, creating it with `make()` (mode 0600) when absent. */
export function fileSecret(dataDir: string, name: string, make: () => string): string {
  const dir = join(dataDir, 'secrets');
  const path = join(dir, name);
  if (existsSync(path)) return readFileSync(path, 'utf8').trim();
  mkdirSync(dir, { recursive: true, mode: 0o700 });
  writeFileSync(path, make() + '\n', { mode: 0o600, flag: 'wx' });
  chmodSync(path, 0o600);
  return readFileSync(path, 'utf8').trim();
}

/** Constant-time check of an `Authorization: Bearer …` header against the token. */
export function bearerMatches(header: string | undefined, token: string | null): boolean {
  if (!token || !header?.startsWith('Bearer ')) return false;
  const a = createHash('sha256').update(header.slice(7).trim()).digest();
  const b = createHash('sha256').update(token).digest();
  return timingSafeEqual(a, b);
}
