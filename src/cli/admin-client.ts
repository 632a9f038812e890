import { readFileSync } from 'node:fs';
import { adminTokenPath } from '../admin/token.ts';
import type { AppConfig } from '../config.ts';
import type { OptionSpec } from './spec.ts';

/** The option of every command that talks to the running server (`keys`, `dapps`, `admin`). */
export const SERVER_OPTIONS: Readonly<Record<string, OptionSpec>> = {
  url: {
    type: 'string',
    value: 'URL',
    help: 'the running server (default COINWALLET_URL, else http://HOST:PORT)',
  },
};

/** Where the operator token comes from, for the help texts. */
export const SERVER_SUMMARY = 'The operator token is ADMIN_TOKEN, else DATA_DIR/secrets/admin-token.';

/** Thrown when no server answers at the URL (the caller may fall back to the store). */
export class ServerUnreachable extends Error {}

/**
 * Calls the running server's operator endpoints (`/api/admin/…`) with the admin token: `ADMIN_TOKEN`, or the one
 * the embedded server keeps in `<DATA_DIR>/secrets/admin-token`. The URL is `--url`, `COINWALLET_URL` or
 * `http://HOST:PORT`. Errors come back as `Error("<status> <code>: <message>")`.
 */
export function adminClient(cfg: AppConfig, url: string | undefined) {
  const base = url ?? process.env.COINWALLET_URL ?? `http://${cfg.host}:${cfg.port}`;
  const token = cfg.adminToken ?? readToken(cfg.dataDir);
  return {
    base,
    async call(method: 'GET' | 'POST', path: string, body?: unknown): Promise<unknown> {
      let res: Response;
      try {
        res = await fetch(base + path, {
          method,
          headers: {
            authorization: `Bearer ${token ?? ''}`,
            ...(body === undefined ? {} : { 'content-type': 'application/json' }),
          },
          ...(body === undefined ? {} : { body: JSON.stringify(body) }),
        });
      } catch {
        throw new ServerUnreachable(`no server answers at ${base}`);
      }
      const json: unknown = await res.json().catch(() => null);
      if (!res.ok) {
        const e = (json as { error?: { code?: string; message?: string } } | null)?.error;
        throw new Error(`${res.status} ${e?.code ?? ''}: ${e?.message ?? 'request failed'}`);
      }
      return json;
    },
  };
}

function readToken(dataDir: string): string | null {
  try {
    return readFileSync(adminTokenPath(dataDir), 'utf8').trim();
  } catch {
    return null;
  }
}
