import type { AppConfig } from '../config.ts';
import { adminClient, SERVER_OPTIONS, SERVER_SUMMARY } from './admin-client.ts';
import type { Args } from './args.ts';
import type { CommandSpec, OptionSpec } from './spec.ts';
import { UsageError } from './args.ts';
import type { Command } from './command.ts';
import { runCommand } from './command.ts';

const STATUSES = ['submitted', 'approved', 'rejected', 'delisted'];

const NOTES: OptionSpec = { type: 'string', value: 'TEXT', help: 'notes for the submitter (required)' };

export const DAPPS: CommandSpec = {
  name: 'dapps',
  synopsis: '<list|approve|reject|delist> …',
  summary: `dapp listing requests, reviewed through the running server. ${SERVER_SUMMARY}`,
  options: SERVER_OPTIONS,
  subcommands: [
    {
      name: 'dapps list',
      synopsis: '[--status submitted|approved|rejected|delisted]',
      summary: 'list dapp requests',
      options: { status: { type: 'string', value: 'S', help: `only this state: ${STATUSES.join(', ')}` } },
    },
    {
      name: 'dapps approve',
      synopsis: '<id> [--notes TEXT]',
      summary: 'approve a submitted dapp: the dapp store lists it',
      options: { notes: { type: 'string', value: 'TEXT', help: 'notes for the submitter' } },
    },
    {
      name: 'dapps reject',
      synopsis: '<id> --notes TEXT',
      summary: 'refuse a submitted dapp; the submitter sees the notes',
      options: { notes: NOTES },
    },
    {
      name: 'dapps delist',
      synopsis: '<id> --notes TEXT',
      summary: 'take a listed dapp down; the submitter sees the notes',
      options: { notes: NOTES },
    },
  ],
};

/**
 * `coinwallet dapps list [--status S] | approve <id> [--notes T] | reject <id> --notes T | delist <id> --notes T`,
 * against a running server.
 */
export const dapps: Command = { spec: DAPPS, run: (args, config) => runDapps(config(), args) };

export const dappsCommand = (cfg: AppConfig, argv: readonly string[]): Promise<number> =>
  runCommand(dapps, argv, () => cfg);

async function runDapps(cfg: AppConfig, { flags, positional }: Args): Promise<number> {
  const [sub, id, extra] = positional;
  const { call } = adminClient(cfg, typeof flags.url === 'string' ? flags.url : undefined);
  const notes = typeof flags.notes === 'string' ? flags.notes : undefined;
  let result: unknown;
  if (sub === 'list' && id === undefined) {
    if (
      flags.status !== undefined &&
      (typeof flags.status !== 'string' || !STATUSES.includes(flags.status))
    ) {
      throw new UsageError(`--status must be one of ${STATUSES.join(', ')}`);
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
