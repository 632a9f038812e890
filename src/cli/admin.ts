import type { AppConfig } from '../config.ts';
import { adminClient, SERVER_OPTIONS, SERVER_SUMMARY } from './admin-client.ts';
import type { Args } from './args.ts';
import type { CommandSpec } from './spec.ts';
import { UsageError } from './args.ts';
import type { Command } from './command.ts';
import { runCommand } from './command.ts';

export const ADMIN: CommandSpec = {
  name: 'admin',
  synopsis: 'grant <LTC address>',
  summary: `administrators, through the running server. ${SERVER_SUMMARY}`,
  options: SERVER_OPTIONS,
  subcommands: [
    {
      name: 'admin grant',
      synopsis: '<LTC address>',
      summary: 'give a wallet account the administrator role (the account is created if new)',
      options: {},
    },
  ],
};

/** `coinwallet admin grant <LTC address>`: gives that wallet account the admin role (created if new), via the server. */
export const admin: Command = { spec: ADMIN, run: (args, config) => runAdmin(config(), args) };

export const adminCommand = (cfg: AppConfig, argv: readonly string[]): Promise<number> =>
  runCommand(admin, argv, () => cfg);

async function runAdmin(cfg: AppConfig, { flags, positional }: Args): Promise<number> {
  const [sub, address, extra] = positional;
  if (sub !== 'grant' || !address || extra !== undefined)
    throw new UsageError('admin needs: grant <LTC address>');
  const { call } = adminClient(cfg, typeof flags.url === 'string' ? flags.url : undefined);
  const result = await call('POST', '/api/admin/admins', { address });
  process.stdout.write(JSON.stringify(result, null, 2) + '\n');
  return 0;
}
