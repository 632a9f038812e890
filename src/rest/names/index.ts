/**
 * The name service's REST API, a Fastify plugin registered under `/api` (see docs/names.md):
 * - `GET /resolve/:name?asset=`, `POST /resolve` (bulk), `GET /reverse/:address?asset=` — public resolution, no key
 *   or session;
 * - `/names…` — a signed-in wallet account registers, links (with proof of control), hides and transfers its names;
 * - `/partner/names…` — partners (HMAC-signed requests) register and link names for their users;
 * - `POST /admin/partners` — an administrator creates partner credentials.
 * Every body is a strict JSON object of at most 16 KiB.
 */
import type { FastifyError, FastifyInstance } from 'fastify';
import type { NameService } from '../../names/service.ts';
import { NAMES_BODY_LIMIT, nameErrors } from '../../names/errors.ts';
import type { PartnerService } from '../../names/partners.ts';
import type { AuthGuards } from '../accounts/guards.ts';
import { ipLimitHook } from '../api-limits.ts';
import type { ApiLimits } from '../api-limits.ts';
import { registerAccountNameRoutes } from './account-routes.ts';
import { registerPartnerRoutes } from './partner-routes.ts';
import { registerResolveRoutes } from './resolve-routes.ts';

export interface NamesApiOptions {
  /** Authenticates `/names…` (any signed-in account) and `/admin/partners` (admins and the operator). */
  guards: AuthGuards;
  /** Names (`src/services.ts`: the one instance of the process). */
  names: NameService;
  /** Partner credentials and the check of their signed requests (`src/services.ts`). */
  partners: PartnerService;
  /** The `/api` rate limits (`src/rest/api-limits.ts`); omitted → none. */
  limits?: ApiLimits | undefined;
}

export async function namesApi(app: FastifyInstance, opts: NamesApiOptions): Promise<void> {
  const { names, limits } = opts;
  if (limits) app.addHook('onRequest', ipLimitHook(limits));

  // Every route of this scope takes small bodies only, and says so in its own words.
  app.addHook('onRoute', (route) => {
    route.bodyLimit ??= NAMES_BODY_LIMIT;
  });
  app.setErrorHandler((err: FastifyError) => {
    // Thrown on: the server's handler answers everything else unchanged.
    throw err.code === 'FST_ERR_CTP_BODY_TOO_LARGE' ? nameErrors.payloadTooLarge() : err;
  });

  registerResolveRoutes(app, { names });
  registerAccountNameRoutes(app, { names, guards: opts.guards });
  await app.register(registerPartnerRoutes, { names, partners: opts.partners, guards: opts.guards, limits });
}
