/**
 * `coinwallet schema check [--schema FILE] [--json]` (docs/apps.md, "Schema checks"): the proposed schema (default
 * `schema/api.graphql` of the working directory) against the schema the running server serves and its apps'
 * published documents, through `POST /api/admin/schema/check` (the operator token, or an app's publish token for that
 * app's documents); on the store itself only when no server holds the embedded store, or with `DATABASE_URL`.
 * Exit 1 when a document in use breaks, 0 otherwise; 2 for a usage error, an unreadable or an invalid file.
 */
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { proposedSchema } from '../../router/trusted/schema-check.ts';
import { proposedSdl } from '../accounts/schema-check.ts';
import type { SchemaCheckResult, SchemaCheckScope } from '../accounts/schema-check-service.ts';
import type { AppConfig } from '../config.ts';
import { ApiError } from '../core/errors.ts';
import { adminClient, callServer, serverFor } from './admin-client.ts';
import type { Args } from './args.ts';
import { UsageError } from './args.ts';
import type { Command } from './command.ts';
import { formatSchemaReport } from './schema-report.ts';
import { SCHEMA } from './specs.ts';

const CHECK_PATH = '/api/admin/schema/check';

export const schema: Command = {
  spec: SCHEMA,
  async run({ flags, positional }: Args, config) {
    const [sub, ...rest] = positional;
    if (sub !== 'check') throw new UsageError('schema needs: check [--schema FILE] [--json]');
    if (rest.length > 0) throw new UsageError(`unexpected argument ${rest[0]} for schema check`);
    const file = resolve(typeof flags.schema === 'string' ? flags.schema : 'schema/api.graphql');
    const sdl = readSchema(file);
    try {
      proposedSchema(proposedSdl(sdl)); // a file the server would refuse is the caller's mistake: said here, exit 2
    } catch (err) {
      if (err instanceof ApiError) throw new UsageError(`${file}: ${err.message}`);
      throw err;
    }
    const token =
      typeof flags.token === 'string' ? flags.token : process.env.COINWALLET_PUBLISH_TOKEN || undefined;
    const cfg = await config();
    const base = await serverFor(cfg, typeof flags.url === 'string' ? flags.url : undefined, true);
    const body = { schema: sdl };
    const report = (
      base === null
        ? await direct(cfg, body, token ? { kind: 'token', token } : { kind: 'all' })
        : token
          ? await callServer(base, token, 'POST', CHECK_PATH, body)
          : await adminClient(cfg, base).call('POST', CHECK_PATH, body)
    ) as SchemaCheckResult;
    process.stdout.write(
      flags.json === true
        ? JSON.stringify(report, null, 2) + '\n'
        : formatSchemaReport(report, { file, against: base ?? 'this installation, on the store itself' }),
    );
    return report.breaksDocumentsInUse ? 1 : 0;
  },
};

function readSchema(file: string): string {
  try {
    return readFileSync(file, 'utf8');
  } catch (err) {
    throw new UsageError(`cannot read ${file} (${(err as NodeJS.ErrnoException).code ?? String(err)})`);
  }
}

/** The check on the store itself: nobody holds the embedded store (this process takes its lock), or `DATABASE_URL`. */
async function direct(cfg: AppConfig, body: unknown, scope: SchemaCheckScope): Promise<SchemaCheckResult> {
  const [{ withServices }, { schemaCheck }] = await Promise.all([
    import('./local-store.ts'),
    import('../../router/trusted/schema-check.ts'),
  ]);
  return withServices(cfg, 'schema', { schemaCheck: schemaCheck() }, ({ schemaChecks }) =>
    schemaChecks.check(body, scope),
  );
}
