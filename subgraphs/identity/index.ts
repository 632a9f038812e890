/**
 * The identity subgraph as a value: `createIdentitySubgraph({ auth, names })` gives the executable
 * schema and the per-request context factory. Side-effect free (no listener, no timers, no I/O until a request runs).
 *
 * The signed-in account comes from `Authorization: Bearer <session token>` (the router forwards it) and is looked up
 * lazily, once per request (`IdentityContext.viewer`): `contextFor` never fails, and neither does a request whose
 * fields do not need the account, whatever token it carries.
 */
import type { AuthService } from '../../src/accounts/auth.ts';
import type { Account } from '../../src/accounts/types.ts';
import type { NameService } from '../../src/names/service.ts';
import { graphqlErrorsAsync } from '../shared/errors.ts';
import { bearerToken } from '../../src/core/bearer.ts';
import type { Subgraph, SubgraphRequest } from '../shared/subgraph.ts';
import type { IdentityContext } from './context.ts';
import { createLoaders } from './loaders.ts';
import type { LoaderHooks } from './loaders.ts';
import { resolvers } from './resolvers.ts';
import { buildSchema } from '../shared/schema.ts';
import { serveFloats } from '../shared/served-floats.ts';

export interface IdentitySubgraphOptions {
  /** Resolves session tokens (the REST API's sign-in service). */
  auth: AuthService;
  /** Names: the same service as REST's `/api/names…` (`src/services.ts`). */
  names: NameService;
  /** Loader hooks (tests record the batches). */
  hooks?: LoaderHooks;
}

export interface IdentitySubgraph extends Subgraph<IdentityContext> {
  /** A fresh context (fresh loaders, no session read yet) for one request. */
  contextFor(req: SubgraphRequest): IdentityContext;
}

export function createIdentitySubgraph(opts: IdentitySubgraphOptions): IdentitySubgraph {
  const { names } = opts;
  return {
    name: 'identity',
    schema: serveFloats(buildSchema('identity', resolvers)),
    contextFor: (req) => {
      const token = bearerToken(req.headers['authorization']);
      let viewer: Promise<Account | null> | undefined;
      return {
        names,
        viewer: () =>
          (viewer ??=
            token === null ? Promise.resolve(null) : graphqlErrorsAsync(() => opts.auth.authenticate(token))),
        loaders: createLoaders(names, opts.hooks),
      };
    },
  };
}
