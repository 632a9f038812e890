import { isPlan } from '../access/plans.ts';
import type { Plan } from '../access/plans.ts';
import type { AppConfig } from '../config.ts';
import { adminClient, serverFor } from './admin-client.ts';
import type { Args } from './args.ts';
import { intFlag, UsageError } from './args.ts';
import type { Command } from './command.ts';
import { runCommand } from './command.ts';
import { KEYS, KEY_STATUSES, PLAN_CHOICES } from './specs.ts';

type KeyOp =
  | { kind: 'create'; plan: Plan; description: string; approve: boolean; limitPerMinute?: number }
  | { kind: 'approve'; id: string; limitPerMinute?: number }
  | { kind: 'reject'; id: string; reason: string }
  | { kind: 'revoke'; id: string }
  | { kind: 'list'; status?: string };

/**
 * `coinwallet keys create|list|approve|reject|revoke`: through the running server's operator endpoints (`serverFor`);
 * on the store itself only when no server holds the embedded store, or with `DATABASE_URL`. `create` prints the key
 * once; it is never shown again.
 */
const KNOWN_SUBS = (KEYS.subcommands ?? []).map((c) => c.name.slice('keys '.length));

export const keys: Command = { spec: KEYS, run: async (args, config) => runKeys(await config(), args) };

export const keysCommand = (cfg: AppConfig, argv: readonly string[]): Promise<number> =>
  runCommand(keys, argv, async () => cfg);

async function runKeys(cfg: AppConfig, { flags, positional }: Args): Promise<number> {
  const extra = positional.slice(positional[0] === 'create' || positional[0] === 'list' ? 1 : 2);
  if (KNOWN_SUBS.includes(positional[0] ?? '') && extra.length > 0)
    throw new UsageError(`unexpected argument ${extra[0]} for keys ${positional[0]}`);
  const op = toOp(positional[0], positional[1], flags);
  const base = await serverFor(cfg, typeof flags.url === 'string' ? flags.url : undefined, true);
  const result = base ? await overHttp(adminClient(cfg, base).call, op) : await direct(cfg, op);
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
    if (!isPlan(flags.plan)) throw new UsageError(`keys create needs --plan ${PLAN_CHOICES}`);
    if (limit !== undefined && flags.plan !== 'enterprise')
      throw new UsageError('--limit is for enterprise keys (up to 10000 per minute)');
    return {
      kind: 'create',
      plan: flags.plan,
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
      (typeof flags.status !== 'string' || !KEY_STATUSES.includes(flags.status))
    ) {
      throw new UsageError(`--status must be one of ${KEY_STATUSES.join(', ')}`);
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

/** `op` on the store itself: nobody holds the embedded store (this process takes its lock), or `DATABASE_URL`. */
async function direct(cfg: AppConfig, op: KeyOp): Promise<unknown> {
  const { withAccessServices } = await import('./local-store.ts');
  return withAccessServices(cfg, 'keys', async ({ keys }) => {
    switch (op.kind) {
      case 'create': {
        const { kind: _k, ...input } = op;
        const r = await keys.create(input);
        return { ...r.record, key: r.key };
      }
      case 'list': {
        const status = op.status as 'pending' | 'approved' | 'rejected' | 'revoked' | undefined;
        return await keys.list(status ? { status } : {});
      }
      case 'approve':
        return await keys.approve(op.id, op.limitPerMinute ? { limitPerMinute: op.limitPerMinute } : {});
      case 'reject':
        return await keys.reject(op.id, op.reason);
      case 'revoke':
        return await keys.revoke(op.id);
    }
  });
}
