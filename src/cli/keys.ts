import type { Plan } from '../access/plans.ts';
import { createAccessRuntime } from '../start/access.ts';
import type { AppConfig } from '../config.ts';
import { openDb } from '../store/open.ts';
import { adminClient, SERVER_OPTIONS, SERVER_SUMMARY, ServerUnreachable } from './admin-client.ts';
import type { Args } from './args.ts';
import type { CommandSpec, OptionSpec } from './spec.ts';
import { intFlag, UsageError } from './args.ts';
import type { Command } from './command.ts';
import { runCommand } from './command.ts';
import { createLogger } from '../core/log.ts';

const PLANS = ['free', 'pro', 'enterprise'];
const STATUSES = ['pending', 'approved', 'rejected', 'revoked'];

type KeyOp =
  | { kind: 'create'; plan: Plan; description: string; approve: boolean; limitPerMinute?: number }
  | { kind: 'approve'; id: string; limitPerMinute?: number }
  | { kind: 'reject'; id: string; reason: string }
  | { kind: 'revoke'; id: string }
  | { kind: 'list'; status?: string };

const LIMIT: OptionSpec = {
  type: 'string',
  value: 'N',
  help: 'requests per minute of an enterprise key, 1 to 10000',
};

export const KEYS: CommandSpec = {
  name: 'keys',
  synopsis: '<create|list|approve|reject|revoke> …',
  summary:
    'API keys, through the running server; when none answers, directly on the store (never while a server uses\n' +
    `the embedded store). ${SERVER_SUMMARY}`,
  options: SERVER_OPTIONS,
  subcommands: [
    {
      name: 'keys create',
      synopsis: '--plan free|pro|enterprise [--limit N] [--approve] [--description TEXT]',
      summary: 'create an API key (printed once, kept only as a hash); --limit: enterprise per-minute limit',
      options: {
        plan: { type: 'string', value: 'PLAN', help: 'free, pro or enterprise (required)' },
        limit: LIMIT,
        approve: { type: 'boolean', help: 'create it approved (default: pending)' },
        description: { type: 'string', value: 'TEXT', help: 'what the key is for' },
      },
    },
    {
      name: 'keys list',
      synopsis: '[--status pending|approved|rejected|revoked]',
      summary: 'list keys (any owner), newest first',
      options: {
        status: { type: 'string', value: 'S', help: `only keys in this state: ${STATUSES.join(', ')}` },
      },
    },
    {
      name: 'keys approve',
      synopsis: '<id> [--limit N]',
      summary: 'approve a pending key',
      options: { limit: LIMIT },
    },
    {
      name: 'keys reject',
      synopsis: '<id> --reason TEXT',
      summary: 'reject a pending key; the owner sees the reason',
      options: { reason: { type: 'string', value: 'TEXT', help: 'why (required; the owner sees it)' } },
    },
    {
      name: 'keys revoke',
      synopsis: '<id>',
      summary: 'revoke a key: 401 from the next request on, in every process',
      options: {},
    },
  ],
};

/**
 * `coinwallet keys create|list|approve|reject|revoke`: through the running server's operator endpoints; when no
 * server answers, directly on the store (the embedded store has one writer, so never while a server uses it).
 * `create` prints the key once; it is never shown again.
 */
const KNOWN_SUBS = (KEYS.subcommands ?? []).map((c) => c.name.slice('keys '.length));

export const keys: Command = { spec: KEYS, run: (args, config) => runKeys(config(), args) };

export const keysCommand = (cfg: AppConfig, argv: readonly string[]): Promise<number> =>
  runCommand(keys, argv, () => cfg);

async function runKeys(cfg: AppConfig, { flags, positional }: Args): Promise<number> {
  const extra = positional.slice(positional[0] === 'create' || positional[0] === 'list' ? 1 : 2);
  if (KNOWN_SUBS.includes(positional[0] ?? '') && extra.length > 0)
    throw new UsageError(`unexpected argument ${extra[0]} for keys ${positional[0]}`);
  const op = toOp(positional[0], positional[1], flags);
  const client = adminClient(cfg, typeof flags.url === 'string' ? flags.url : undefined);
  let result: unknown;
  try {
    result = await overHttp(client.call, op);
  } catch (err) {
    if (!(err instanceof ServerUnreachable)) throw err;
    result = await direct(cfg, op);
  }
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
  const limit = flags.limit === undefined ? undefined : intFlag(flags.limit, 'limit', 0, 1, 10_000);
  if (sub === 'create') {
    if (typeof flags.plan !== 'string' || !PLANS.includes(flags.plan))
      throw new UsageError('keys create needs --plan free|pro|enterprise');
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
  if (sub === 'approve' && id)
    return { kind: 'approve', id, ...(limit !== undefined ? { limitPerMinute: limit } : {}) };
  if (sub === 'reject' && id) {
    if (typeof flags.reason !== 'string' || !flags.reason.trim())
      throw new UsageError('keys reject needs --reason TEXT (the owner sees it)');
    return { kind: 'reject', id, reason: flags.reason };
  }
  if (sub === 'revoke' && id) return { kind: 'revoke', id };
  if (sub === 'list') {
    if (
      flags.status !== undefined &&
      (typeof flags.status !== 'string' || !STATUSES.includes(flags.status))
    ) {
      throw new UsageError(`--status must be one of ${STATUSES.join(', ')}`);
    }
    return typeof flags.status === 'string' ? { kind: 'list', status: flags.status } : { kind: 'list' };
  }
  throw new UsageError(
    'keys needs: create --plan P [--limit N] [--approve] | list [--status S] | approve <id> [--limit N] | reject <id> --reason TEXT | revoke <id>',
  );
}

async function overHttp(call: ReturnType<typeof adminClient>['call'], op: KeyOp): Promise<unknown> {
  const path = '/api/admin/api-keys';
  switch (op.kind) {
    case 'create': {
      const { kind: _k, ...body } = op;
      return call('POST', path, body);
    }
    case 'list':
      return call('GET', op.status ? `${path}?status=${op.status}` : path);
    case 'approve':
      return call(
        'POST',
        `${path}/${encodeURIComponent(op.id)}/approve`,
        op.limitPerMinute ? { limitPerMinute: op.limitPerMinute } : {},
      );
    case 'reject':
      return call('POST', `${path}/${encodeURIComponent(op.id)}/reject`, { reason: op.reason });
    case 'revoke':
      return call('POST', `${path}/${encodeURIComponent(op.id)}/revoke`, {});
  }
}

async function direct(cfg: AppConfig, op: KeyOp): Promise<unknown> {
  const db = await openDb({ databaseUrl: cfg.databaseUrl, dataDir: cfg.dataDir });
  const rt = await createAccessRuntime(cfg, db, createLogger(cfg.logLevel));
  try {
    switch (op.kind) {
      case 'create': {
        const { kind: _k, ...input } = op;
        const r = await rt.keys.create(input);
        return { ...r.record, key: r.key };
      }
      case 'list': {
        const status = op.status as 'pending' | 'approved' | 'rejected' | 'revoked' | undefined;
        return await rt.keys.list(status ? { status } : {});
      }
      case 'approve':
        return await rt.keys.approve(op.id, op.limitPerMinute ? { limitPerMinute: op.limitPerMinute } : {});
      case 'reject':
        return await rt.keys.reject(op.id, op.reason);
      case 'revoke':
        return await rt.keys.revoke(op.id);
    }
  } finally {
    await rt.close();
    await db.close();
  }
}
