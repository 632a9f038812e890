/**
 * The accounts subgraph as a value: `createAccountsSubgraph({ db, keys, auth, adminToken })` gives the executable
 * schema and the per-request context factory. Side-effect free (no listener, no timers, no read at creation):
 * `coinwallet serve --only subgraph:accounts` serves it (src/start/part.ts), the router embeds it, tests
 * execute it.
 *
 * Identity is the REST guards' (`src/rest/accounts/guards-impl.ts`): `Authorization: Bearer <ADMIN_TOKEN>` (compared
 * in constant time) is the operator; any other bearer token is a session token, looked up on first use only and at
 * most once per request (`viewer()`), so a request that never needs the session never reads it, and a bad token
 * fails only the fields that need a session.
 */
import type { ApiKeyService } from '../../src/accounts/keys.ts';
import { UsageReader } from '../../src/access/usage-store.ts';
import type { UsageReads } from '../../src/access/usage.ts';
import { AccountKeys } from '../../src/accounts/api-keys.ts';
import type { AuthService } from '../../src/accounts/auth.ts';
import type { DappService } from '../../src/accounts/dapps.ts';
import type { Account } from '../../src/accounts/types.ts';
import type { Db } from '../../src/store/db.ts';
import { bearerToken, tokenMatches } from '../../src/core/bearer.ts';
import type { Subgraph, SubgraphRequest } from '../shared/subgraph.ts';
import { graphqlErrorsAsync } from '../shared/errors.ts';
import type { AccountsContext } from './context.ts';
import { createLoaders } from './loaders.ts';
import type { LoaderHooks } from './loaders.ts';
import { resolvers } from './resolvers.ts';
import { buildSchema } from '../shared/schema.ts';
import { serveFloats } from '../shared/served-floats.ts';

export interface AccountsSubgraphOptions {
  /** The store every read and the dapp service use. Tests count its `query` calls. */
  db: Db;
  /** API keys (the same service the REST API and the access check use: one lookup cache, one revision). */
  keys: ApiKeyService;
  /** Sign-in and sessions: the same service as REST's `/api/auth/*`, so challenges name the same domain. */
  auth: AuthService;
  /** Dapp listing requests and the store: the same service as REST's (`src/services.ts`). */
  dapps: DappService;
  /** The operator token (`ADMIN_TOKEN`); null → administrators' sessions only. */
  adminToken: string | null;
  /**
   * Request statistics for `ApiKey.usage` and `serviceStats`: the process's `UsageRecorder` (it writes its pending
   * counts before reading); default a `UsageReader` over `db` (reads what the writers have written).
   */
  usage?: UsageReads;
  /**
   * Clock of role changes, of partner creation and of the usage windows (the last `minutes` up to now), UNIX ms;
   * default `Date.now`. (Challenges and sessions use `auth`'s clock, dapp requests `dapps`', keys `keys`'.)
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
  const { dapps } = opts;
  const ownKeys = new AccountKeys(opts.keys);
  const now = opts.now ?? Date.now;
  const usage = opts.usage ?? new UsageReader(opts.db);
  return {
    name: 'accounts',
    schema: serveFloats(buildSchema('accounts', resolvers)),
    contextFor: (req) => {
      const presented = bearerToken(req.headers['authorization']);
      const operator = tokenMatches(presented, opts.adminToken);
      const token = operator ? null : presented;
      let session: Promise<Account | null> | undefined;
      return {
        db: opts.db,
        operator,
        viewer: () =>
          (session ??=
            token === null ? Promise.resolve(null) : graphqlErrorsAsync(() => opts.auth.authenticate(token))),
        forgetViewer: () => {
          session = undefined;
        },
        sessionToken: token,
        auth: opts.auth,
        now,
        keys: opts.keys,
        ownKeys,
        dapps,
        usage,
        loaders: createLoaders(opts.db, dapps, opts.hooks, { usage, now }),
      };
    },
  };
}
