import type { AppConfig } from '../config.ts';
import { adminClient } from './admin-client.ts';
import { parseArgs, UsageError } from './args.ts';

const STATUSES = ['submitted', 'approved', 'rejected', 'delisted'];

/**
 * `coinwallet dapps list [--status S] | approve <id> [--notes T] | reject <id> --notes T | delist <id> --notes T`,
 * against a running server.
 */
export async function dappsCommand(cfg: AppConfig, argv: readonly string[]): Promise<number> {
  const { flags, positional } = parseArgs(argv, { status: 'string', notes: 'string', url: 'string' });
  const [sub, id] = positional;
  const { call } = adminClient(cfg, typeof flags.url === 'string' ? flags.url : undefined);
  const notes = typeof flags.notes === 'string' ? flags.notes : undefined;
  let result: unknown;
  if (sub === 'list') {
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
  } else if (sub === 'approve' && id) {
    result = await call('POST', `/api/admin/dapps/${encodeURIComponent(id)}/approve`, notes ? { notes } : {});
  } else if ((sub === 'reject' || sub === 'delist') && id) {
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
