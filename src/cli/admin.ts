import type { AppConfig } from '../config.ts';
import { adminClient } from './admin-client.ts';
import { parseArgs, UsageError } from './args.ts';

/** `coinwallet admin grant <LTC address>`: gives that wallet account the admin role (created if new), via the server. */
export async function adminCommand(cfg: AppConfig, argv: readonly string[]): Promise<number> {
  const { flags, positional } = parseArgs(argv, { url: 'string' });
  const [sub, address] = positional;
  if (sub !== 'grant' || !address) throw new UsageError('admin needs: grant <LTC address>');
  const { call } = adminClient(cfg, typeof flags.url === 'string' ? flags.url : undefined);
  const result = await call('POST', '/api/admin/admins', { address });
  process.stdout.write(JSON.stringify(result, null, 2) + '\n');
  return 0;
}
