import { randomBytes } from 'node:crypto';
import { join } from 'node:path';
import { fileSecret } from '../secret-file.ts';

/** Where embedded mode keeps the operator token it generated: `<DATA_DIR>/secrets/admin-token`. */
export const adminTokenPath = (dataDir: string): string => join(dataDir, 'secrets', 'admin-token');

export interface AdminToken {
  /** The token; null: the operator endpoints are disabled. */
  token: string | null;
  /** The file holding the generated token; null when `ADMIN_TOKEN` is set or nothing was generated. */
  file: string | null;
}

/**
 * The operator's bearer token for `/api/admin/*` (used by `coinwallet keys …` and automation). `ADMIN_TOKEN` wins;
 * in embedded mode one is generated on first start at `<DATA_DIR>/secrets/admin-token` (mode 0600), where the CLI on
 * the same machine reads it. In scale-out mode without `ADMIN_TOKEN`, the operator endpoints are disabled.
 */
export function resolveAdminToken(opts: {
  env: string | undefined;
  dataDir: string;
  scaleOut: boolean;
}): AdminToken {
  if (opts.env) return { token: opts.env, file: null };
  if (opts.scaleOut) return { token: null, file: null };
  const token = fileSecret(opts.dataDir, 'admin-token', () => `cwa_${randomBytes(24).toString('base64url')}`);
  return { token, file: adminTokenPath(opts.dataDir) };
}
