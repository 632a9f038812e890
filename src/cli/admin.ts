import type { AppConfig } from '../config.ts';
import { adminClient, serverFor } from './admin-client.ts';
import type { Args } from './args.ts';
import { UsageError } from './args.ts';
import type { Command } from './command.ts';
import { runCommand } from './command.ts';
import { ADMIN } from './specs.ts';

/** `coinwallet admin grant <LTC address>`: gives that wallet account the admin role (created if new), via the server. */
export const admin: Command = { spec: ADMIN, run: async (args, config) => runAdmin(await config(), args) };

export const adminCommand = (cfg: AppConfig, argv: readonly string[]): Promise<number> =>
  runCommand(admin, argv, async () => cfg);

async function runAdmin(cfg: AppConfig, { flags, positional }: Args): Promise<number> {
  const [sub, address, extra] = positional;
  if (sub !== 'grant' || !address || extra !== undefined)
    throw new UsageError('admin needs: grant <LTC address>');
  const { call } = adminClient(
    cfg,
    await serverFor(cfg, typeof flags.url === 'string' ? flags.url : undefined),
  );
  const result = await call('POST', '/api/admin/admins', { address });
  process.stdout.write(JSON.stringify(result, null, 2) + '\n');
  return 0;
}
