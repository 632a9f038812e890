/**
 * `POST /api/admin/schema/check` (docs/apps.md, "Schema checks"): a proposed API schema checked against the published
 * documents and their traffic, answered with the JSON report. The operator token or an admin session checks every
 * app's documents; an app's publish token (`Bearer cwp_…`) only that app's, so a dapp team's CI can run it.
 */
import type { FastifyError, FastifyInstance } from 'fastify';
import { appErrors, SCHEMA_MAX_BYTES } from '../../accounts/app-errors.ts';
import { isPublishToken } from '../../accounts/apps.ts';
import type { SchemaChecks, SchemaCheckScope } from '../../accounts/schema-check-service.ts';
import { bearerToken } from '../../core/bearer.ts';
import { guarded } from './guards-impl.ts';
import type { AuthGuards } from './guards.ts';

/** Room for the schema's limit sent as a JSON string (escaping); beyond: 413 `SCHEMA_TOO_LARGE`. */
const CHECK_BODY_LIMIT = 2 * SCHEMA_MAX_BYTES;

export function registerSchemaCheckRoutes(
  app: FastifyInstance,
  opts: { checks: SchemaChecks; guards: AuthGuards },
): void {
  const caller = guarded(async (r): Promise<SchemaCheckScope> => {
    const token = bearerToken(r.headers.authorization);
    if (token !== null && isPublishToken(token)) return { kind: 'token', token };
    await opts.guards.admin(r);
    return { kind: 'all' };
  });
  void app.register(async (scope) => {
    scope.setErrorHandler((err: FastifyError) => {
      throw err.code === 'FST_ERR_CTP_BODY_TOO_LARGE' ? appErrors.schemaTooLarge() : err;
    });
    scope.post(
      '/admin/schema/check',
      { onRequest: caller.onRequest, bodyLimit: CHECK_BODY_LIMIT },
      async (req) => opts.checks.check(req.body, caller.who(req)),
    );
  });
}
