import type { AppConfig } from '../config.ts';
import { adminClient, serverFor } from './admin-client.ts';
import type { Args } from './args.ts';
import { UsageError } from './args.ts';
import type { Command } from './command.ts';
import { runCommand } from './command.ts';
import { DAPPS, DAPP_STATUSES } from './specs.ts';

/**
 * `coinwallet dapps list [--status S] | approve <id> [--notes T] | reject <id> --notes T | delist <id> --notes T`,
 * against a running server.
 */
export const dapps: Command = { spec: DAPPS, run: async (args, config) => runDapps(await config(), args) };

export const dappsCommand = (cfg: AppConfig, argv: readonly string[]): Promise<number> =>
  runCommand(dapps, argv, async () => cfg);

async function runDapps(cfg: AppConfig, { flags, positional }: Args): Promise<number> {
  const [sub, id, extra] = positional;
  const { call } = adminClient(
    cfg,
    await serverFor(cfg, typeof flags.url === 'string' ? flags.url : undefined),
  );
  const notes = typeof flags.notes === 'string' ? flags.notes : undefined;
  let result: unknown;
  if (sub === 'list' && id === undefined) {
    if (
      flags.status !== undefined &&
      (typeof flags.status !== 'string' || !DAPP_STATUSES.includes(flags.status))
    ) {
      throw new UsageError(`--status must be one of ${DAPP_STATUSES.join(', ')}`);
    }
    result = await call(
      'GET',
      `/api/admin/dapps${typeof flags.status === 'string' ? `?status=${flags.status}` : ''}`,
    );
  } else if (sub === 'approve' && id && extra === undefined) {
    result = await call('POST', `/api/admin/dapps/${encodeURIComponent(id)}/approve`, notes ? { notes } : {});
  } else if ((sub === 'reject' || sub === 'delist') && id && extra === undefined) {
    if (!notes?.trim()) throw new UsageError(`dapps ${sub} needs --notes TEXT (the submitter sees them)`);
    result = await call('POST', `/api/admin/dapps/${encodeURIComponent(id)}/${sub}`, { notes });
  } else {
    throw new UsageError(
      'dapps needs: list [--status S] | approve <id> [--notes TEXT] | reject <id> --notes TEXT | delist <id> --notes TEXT',
    );
  }
  process.stdout.write(JSON.stringify(result, null, 2) + '\n');
  return 0;
}
