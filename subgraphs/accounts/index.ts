/**
 * The accounts subgraph as a value: `createAccountsSubgraph({ services, adminToken })` gives the executable schema and
 * the per-request context factory. Side-effect free (no listener, no timers, no read at creation):
 * `coinwallet serve --only subgraph:accounts` serves it (src/start/part.ts), the router embeds it, tests
 * execute it.
 *
 * Identity is judged by the domain's guards (`src/accounts/guards.ts`, REST's too): `Authorization: Bearer
 * <ADMIN_TOKEN>` (compared in constant time) is the operator; any other bearer token is a session token, looked up on
 * first use only and at most once per request (`viewer()`), so a request that never needs the session never reads it,
 * and a bad token fails only the fields that need a session.
 */
import { presented } from '../../src/accounts/guards.ts';
import type { Account } from '../../src/accounts/types.ts';
import type { AccountsServices } from '../../src/services.ts';
import type { Subgraph, SubgraphRequest } from '../shared/subgraph.ts';
import { graphqlErrorsAsync } from '../shared/errors.ts';
import type { AccountsContext } from './context.ts';
import { createLoaders } from './loaders.ts';
import type { LoaderHooks } from './loaders.ts';
import { resolvers } from './resolvers.ts';
import { buildSchema } from '../shared/schema.ts';
import { serveFloats } from '../shared/served-floats.ts';

export interface AccountsSubgraphOptions {
  /**
   * The process's services (`src/services.ts`), the REST API's instances: API keys (one lookup cache, one revision
   * with the access check), sign-in (so challenges name the same domain), dapps, accounts and admins, partners, and
   * the request statistics (the process's recorder, which writes its pending counts before a read).
   */
  services: AccountsServices;
  /** The operator token (`ADMIN_TOKEN`); null → administrators' sessions only. */
  adminToken: string | null;
  /**
   * Clock of the usage windows (the last `minutes` up to now), UNIX ms; default `Date.now`. (Every other clock is its
   * service's.)
   */
  now?: () => number;
  /** Loader hooks (tests record the batches). */
  hooks?: LoaderHooks;
}

export interface AccountsSubgraph extends Subgraph<AccountsContext> {
  /** A fresh context (fresh loaders, session not yet read) for one request. Never rejects. */
  contextFor(req: SubgraphRequest): AccountsContext;
}

export function createAccountsSubgraph(opts: AccountsSubgraphOptions): AccountsSubgraph {
  const s = opts.services;
  const now = opts.now ?? Date.now;
  return {
    name: 'accounts',
    schema: serveFloats(buildSchema('accounts', resolvers)),
    contextFor: (req) => {
      const { operator, sessionToken } = presented(req.headers['authorization'], opts.adminToken);
      let session: Promise<Account | null> | undefined;
      return {
        operator,
        viewer: () =>
          (session ??=
            sessionToken === null
              ? Promise.resolve(null)
              : graphqlErrorsAsync(() => s.auth.authenticate(sessionToken))),
        forgetViewer: () => {
          session = undefined;
        },
        sessionToken,
        auth: s.auth,
        now,
        keys: s.keys,
        ownKeys: s.ownKeys,
        dapps: s.dapps,
        accounts: s.accounts,
        partners: s.partners,
        usage: s.stats.usage,
        loaders: createLoaders(s, opts.hooks, now),
      };
    },
  };
}
