import { readFileSync } from 'node:fs';
import { adminTokenPath } from '../admin/token.ts';
import type { AppConfig } from '../config.ts';
import { storeHolder } from '../store/lock.ts';

type ServerConfig = Pick<AppConfig, 'dataDir' | 'databaseUrl' | 'host' | 'port'>;

/** How long to wait for a server that holds the store but does not listen yet (it is starting). */
const LISTEN_WAIT_MS = 60_000;

/**
 * Where a command that talks to the server goes, or null for "open the store here" (only when `orStore`):
 * 1. `--url`, else `COINWALLET_URL`: that server, and nothing else (it may not answer: the call says so);
 * 2. embedded store (no `DATABASE_URL`): the live process holding `DATA_DIR`, at the URL its lock names (waiting
 *    while it starts); nobody holding it: the store itself, or an error naming what to do;
 * 3. `DATABASE_URL`: the store itself (PostgreSQL takes any number of writers), or `http://HOST:PORT`.
 */
export async function serverFor(
  cfg: ServerConfig,
  url: string | undefined,
  orStore: true,
): Promise<string | null>;
export async function serverFor(cfg: ServerConfig, url: string | undefined, orStore?: false): Promise<string>;
export async function serverFor(
  cfg: ServerConfig,
  url: string | undefined,
  orStore = false,
): Promise<string | null> {
  const explicit = url ?? (process.env.COINWALLET_URL || undefined);
  if (explicit) return explicit;
  if (cfg.databaseUrl) return orStore ? null : `http://${cfg.host}:${cfg.port}`;
  for (const until = Date.now() + LISTEN_WAIT_MS; ;) {
    const holder = storeHolder(cfg.dataDir);
    if (!holder) {
      if (orStore) return null;
      throw new Error(
        `no coinwallet server holds ${cfg.dataDir}: start one (coinwallet serve), or name it with --url or COINWALLET_URL`,
      );
    }
    if (holder.url) return holder.url;
    if (holder.command !== 'serve' || Date.now() > until)
      throw new Error(
        `the store in ${cfg.dataDir} is held by coinwallet ${holder.command} (pid ${holder.pid}), which serves ` +
          'no URL: wait for it to end, or name a server with --url',
      );
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

/**
 * Calls the operator endpoints (`/api/admin/…`) of the server at `base` with the admin token: `ADMIN_TOKEN`, or the
 * one the embedded server keeps in `<DATA_DIR>/secrets/admin-token`. A server that does not answer is an error
 * naming its URL (never a reason to write somewhere else). Errors come back as `Error("<status> <code>: <message>")`.
 */
/**
 * One JSON call to the running server with a bearer token: the parsed answer, or an error naming the status, the
 * code and the message of our error body (or that nothing answers at `base`).
 */
export async function callServer(
  base: string,
  token: string,
  method: 'GET' | 'POST',
  path: string,
  body?: unknown,
): Promise<unknown> {
  let res: Response;
  try {
    res = await fetch(base + path, {
      method,
      headers: {
        authorization: `Bearer ${token}`,
        ...(body === undefined ? {} : { 'content-type': 'application/json' }),
      },
      ...(body === undefined ? {} : { body: JSON.stringify(body) }),
    });
  } catch {
    throw new Error(`no server answers at ${base}`);
  }
  const json: unknown = await res.json().catch(() => null);
  if (!res.ok) {
    const e = (json as { error?: { code?: string; message?: string } } | null)?.error;
    throw new Error(`${res.status} ${e?.code ?? ''}: ${e?.message ?? 'request failed'}`);
  }
  return json;
}

export function adminClient(cfg: Pick<AppConfig, 'adminToken' | 'dataDir'>, base: string) {
  const token = cfg.adminToken ?? readToken(cfg.dataDir);
  return {
    base,
    call: (method: 'GET' | 'POST', path: string, body?: unknown): Promise<unknown> =>
      callServer(base, token ?? '', method, path, body),
  };
}

function readToken(dataDir: string): string | null {
  try {
    return readFileSync(adminTokenPath(dataDir), 'utf8').trim();
  } catch {
    return null;
  }
}
