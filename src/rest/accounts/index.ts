/**
 * The accounts API, a Fastify plugin registered under `/api`: wallet sign-in (`/auth/*`), the signed-in account and
 * its API keys (`/account/*`), administration (`/admin/*`) and the dapp store (see dapps.ts). See docs/accounts.md.
 */
import type { FastifyError, FastifyInstance } from 'fastify';
import type { AccountKeys } from '../../accounts/api-keys.ts';
import type { AccountService } from '../../accounts/account-service.ts';
import type { AuthService } from '../../accounts/auth.ts';
import type { DappService } from '../../accounts/dapps.ts';
import type { AppService } from '../../accounts/apps.ts';
import { registerAppRoutes } from './app-routes.ts';
import type { SchemaChecks } from '../../accounts/schema-check-service.ts';
import { registerSchemaCheckRoutes } from './schema-check-routes.ts';
import type { ApiKeyService } from '../../accounts/keys.ts';
import { registerAdminRoutes } from './admin-routes.ts';
import { registerAuthRoutes } from './auth-routes.ts';
import { registerDappRoutes } from './dapps.ts';
import { ACCOUNTS_BODY_LIMIT, accountErrors } from '../../accounts/errors.ts';
import { createAuthGuards } from './guards-impl.ts';
import { ipLimitHook } from '../api-limits.ts';
import type { ApiLimits } from '../api-limits.ts';
import { registerKeyRoutes } from './key-routes.ts';

export interface AccountsApiOptions {
  /** API keys (`src/services.ts`: the access check's own instance), reviewed under `/admin/api-keys`. */
  keys: ApiKeyService;
  /** API keys scoped to their owner, under `/account/api-keys` (`src/services.ts`). */
  ownKeys: AccountKeys;
  /** Administrators and their role changes (`src/services.ts`). */
  accounts: AccountService;
  /** The operator token (`ADMIN_TOKEN`): accepted by every `/admin/*` endpoint; null → admin sessions only. */
  adminToken: string | null;
  /** Sign-in and sessions (`src/services.ts`: the one instance of the process). */
  auth: AuthService;
  /** Dapp listing requests and the store (`src/services.ts`). */
  dapps: DappService;
  /** Apps and their trusted documents (`src/accounts/apps.ts`, docs/apps.md); omitted → not served. */
  apps?: AppService | undefined;
  /** Schema checks against the apps' documents (`POST /api/admin/schema/check`); omitted → not served. */
  schemaChecks?: SchemaChecks | undefined;
  /** The `/api` rate limits (`src/rest/api-limits.ts`); omitted → none. */
  limits?: ApiLimits | undefined;
}

export async function accountsApi(app: FastifyInstance, opts: AccountsApiOptions): Promise<void> {
  const { auth } = opts;
  const guards = createAuthGuards({ auth, adminToken: opts.adminToken, limits: opts.limits });
  if (opts.limits) app.addHook('onRequest', ipLimitHook(opts.limits));

  // Every route of this scope (the dapp routes too) takes small bodies only, and says so in its own words.
  app.addHook('onRoute', (route) => {
    route.bodyLimit ??= ACCOUNTS_BODY_LIMIT;
  });
  app.setErrorHandler((err: FastifyError) => {
    // Thrown on: the server's handler answers everything else unchanged.
    throw err.code === 'FST_ERR_CTP_BODY_TOO_LARGE' ? accountErrors.payloadTooLarge() : err;
  });

  registerAuthRoutes(app, { auth, guards });
  registerKeyRoutes(app, { keys: opts.ownKeys, guards });
  registerAdminRoutes(app, { keys: opts.keys, accounts: opts.accounts, guards });
  registerDappRoutes(app, { dapps: opts.dapps, guards });
  if (opts.apps) registerAppRoutes(app, { apps: opts.apps, guards });
  if (opts.schemaChecks) registerSchemaCheckRoutes(app, { checks: opts.schemaChecks, guards });
}
