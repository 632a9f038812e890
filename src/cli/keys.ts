import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Plan } from '../access/plans.ts';
import { createAccessRuntime } from '../access-runtime.ts';
import type { AppConfig } from '../config.ts';
import { openDb } from '../store/open.ts';
import { intFlag, parseArgs, UsageError } from './args.ts';
import { createLogger } from './log.ts';

const PLANS = ['free', 'pro', 'enterprise'];

/** One key operation, done over HTTP against a running server or directly on the store. */
type KeyOp =
  | { kind: 'create'; plan: Plan; description: string; approve: boolean; limitPerMinute?: number }
  | { kind: 'revoke' | 'approve'; id: string }
  | { kind: 'list'; status?: string };

/**
 * `coinwallet keys create|revoke|approve|list`. While a server is running (reachable at `--url`, `COINWALLET_URL` or
 * `http://HOST:PORT`), goes through its operator endpoints with the admin token (the embedded store has a single
 * writer); otherwise opens the store directly. Prints the new key once; it is never shown again.
 */
export async function keysCommand(cfg: AppConfig, argv: readonly string[]): Promise<number> {
  const { flags, positional } = parseArgs(argv, {
    plan: 'string',
    limit: 'string',
    approve: 'boolean',
    description: 'string',
    status: 'string',
    url: 'string',
  });
  const [sub, id] = positional;
  const op = toOp(sub, id, flags);
  const url =
    typeof flags.url === 'string'
      ? flags.url
      : (process.env.COINWALLET_URL ?? `http://${cfg.host}:${cfg.port}`);
  const result = (await overHttp(url, cfg, op)) ?? (await direct(cfg, op));
  process.stdout.write(JSON.stringify(result, null, 2) + '\n');
  if (op.kind === 'create')
    process.stderr.write('Store the key now: it is shown only once and kept only as a hash.\n');
  return 0;
}

function toOp(
  sub: string | undefined,
  id: string | undefined,
  flags: Record<string, string | boolean>,
): KeyOp {
  if (sub === 'create') {
    if (typeof flags.plan !== 'string' || !PLANS.includes(flags.plan))
      throw new UsageError('keys create needs --plan free|pro|enterprise');
    const limit = flags.limit === undefined ? undefined : intFlag(flags.limit, 'limit', 0, 1, 10_000);
    if (limit !== undefined && flags.plan !== 'enterprise')
      throw new UsageError('--limit is for enterprise keys (up to 10000 per minute)');
    return {
      kind: 'create',
      plan: flags.plan as Plan,
      description:
        typeof flags.description === 'string' ? flags.description : 'created with coinwallet keys create',
      approve: flags.approve === true,
      ...(limit !== undefined ? { limitPerMinute: limit } : {}),
    };
  }
  if ((sub === 'revoke' || sub === 'approve') && id) return { kind: sub, id };
  if (sub === 'list')
    return typeof flags.status === 'string' ? { kind: 'list', status: flags.status } : { kind: 'list' };
  throw new UsageError(
    'keys needs: create --plan P [--limit N] [--approve] | revoke <id> | approve <id> | list [--status S]',
  );
}

async function overHttp(base: string, cfg: AppConfig, op: KeyOp): Promise<unknown | null> {
  const token = cfg.adminToken ?? readToken(cfg.dataDir);
  const path =
    op.kind === 'create'
      ? '/api/admin/api-keys'
      : op.kind === 'list'
        ? `/api/admin/api-keys${op.status ? `?status=${encodeURIComponent(op.status)}` : ''}`
        : `/api/admin/api-keys/${encodeURIComponent(op.id)}/${op.kind}`;
  let res: Response;
  try {
    res = await fetch(base + path, {
      method: op.kind === 'list' ? 'GET' : 'POST',
      headers: { authorization: `Bearer ${token ?? ''}`, 'content-type': 'application/json' },
      body:
        op.kind === 'list' ? null : JSON.stringify(op.kind === 'create' ? { ...op, kind: undefined } : {}),
    });
  } catch {
    return null; // no server there: use the store directly
  }
  const body: unknown = await res.json().catch(() => null);
  if (!res.ok) {
    const e = (body as { error?: { code?: string; message?: string } } | null)?.error;
    throw new Error(`${res.status} ${e?.code ?? ''}: ${e?.message ?? 'request failed'}`);
  }
  return body;
}

async function direct(cfg: AppConfig, op: KeyOp): Promise<unknown> {
  const db = await openDb({ databaseUrl: cfg.databaseUrl, dataDir: cfg.dataDir });
  const rt = await createAccessRuntime(cfg, db, createLogger(cfg.logLevel));
  try {
    if (op.kind === 'create') {
      const { kind: _kind, ...input } = op;
      const r = await rt.keys.create(input);
      return { ...r.record, key: r.key };
    }
    if (op.kind === 'list') {
      const status = op.status as 'pending' | 'approved' | 'rejected' | 'revoked' | undefined;
      return await rt.keys.list(status ? { status } : {});
    }
    return op.kind === 'revoke' ? await rt.keys.revoke(op.id) : await rt.keys.approve(op.id);
  } finally {
    await rt.close();
    await db.close();
  }
}

function readToken(dataDir: string): string | null {
  try {
    return readFileSync(join(dataDir, 'secrets', 'admin-token'), 'utf8').trim();
  } catch {
    return null;
  }
}
