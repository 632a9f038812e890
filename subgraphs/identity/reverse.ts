/**
 * Resolvers of names both ways: `resolveNames` (bulk forward resolution, batched through the request's `resolution`
 * loader: one store read for every pair of the request), `primaryName` (reverse resolution through `primaryName`,
 * batched likewise) and the primary-name mutations. The same service and rules as REST (`POST /api/resolve`,
 * `GET /api/reverse/{address}`, `/api/names/{name}/primary/{asset}`).
 */
import { MAX_BULK_NAMES } from '../../src/names/bulk.ts';
import { nameErrors } from '../../src/names/errors.ts';
import { parseAsset, parseName } from '../../src/names/name-rules.ts';
import type { Holder } from '../../src/names/types.ts';
import type { IdentityContext } from './context.ts';
import { authRequired, fromApiError, graphqlErrorsAsync, tooLong } from './errors.ts';
import type { Resolvers } from './generated/resolvers-types.ts';
import { MAX_ADDRESS, MAX_NAME, MAX_NONCE, MAX_SIGNATURE, resolutionResult } from './results.ts';

const capped = (arg: string, value: string, max: number): string => {
  if (value.length > max) throw tooLong(arg, max);
  return value;
};

/** A mutation: the session first, then `fn`, the service's `ApiError`s as GraphQL errors. */
function asAccount<T>(
  ctx: IdentityContext,
  fn: (account: NonNullable<Awaited<ReturnType<IdentityContext['viewer']>>>, holder: Holder) => Promise<T>,
): Promise<T> {
  return graphqlErrorsAsync(async () => {
    const account = await ctx.viewer();
    if (!account) throw authRequired();
    return fn(account, { kind: 'account', account });
  });
}

type Q = NonNullable<Resolvers<IdentityContext>['Query']>;
type M = NonNullable<Resolvers<IdentityContext>['Mutation']>;

export const reverseResolvers: Required<Pick<Resolvers<IdentityContext>, 'PrimaryName'>> & {
  Query: Pick<Q, 'resolveNames' | 'primaryName'>;
  Mutation: Pick<M, 'requestPrimaryNameChallenge' | 'setPrimaryName' | 'clearPrimaryName'>;
} = {
  Query: {
    resolveNames: (_, { names }, ctx) => {
      if (names.length > MAX_BULK_NAMES) throw fromApiError(nameErrors.batchTooLarge(MAX_BULK_NAMES));
      // One promise per item: a malformed pair fails its own item (null, with an error at its index) only.
      return names.map((q) =>
        graphqlErrorsAsync(async () => {
          const n = parseName(capped('name', q.name, MAX_NAME), ctx.names.suffix);
          const asset = parseAsset(q.asset);
          const outcome = await ctx.loaders.resolution.load({ name: n.name, asset });
          if (outcome.kind === 'invalid') throw outcome.error;
          return resolutionResult(outcome);
        }),
      );
    },
    primaryName: (_, { address, asset }, ctx) =>
      graphqlErrorsAsync(async () =>
        ctx.loaders.primaryName.load(ctx.names.primary.key(capped('address', address, MAX_ADDRESS), asset)),
      ),
  },
  Mutation: {
    requestPrimaryNameChallenge: (_, { name, asset, address }, ctx) =>
      asAccount(ctx, (account) =>
        ctx.names.primary.challenge(
          account,
          capped('name', name, MAX_NAME),
          asset,
          capped('address', address, MAX_ADDRESS),
        ),
      ),
    setPrimaryName: (_, { name, asset, address, signature, nonce }, ctx) =>
      asAccount(ctx, (account) =>
        ctx.names.primary.setProved(account, capped('name', name, MAX_NAME), asset, {
          address: capped('address', address, MAX_ADDRESS),
          signature: capped('signature', signature, MAX_SIGNATURE),
          nonce: capped('nonce', nonce, MAX_NONCE),
        }),
      ),
    clearPrimaryName: (_, { name, asset }, ctx) =>
      asAccount(ctx, async (_account, holder) => {
        const r = await ctx.names.primary.clear(holder, capped('name', name, MAX_NAME), asset);
        return r.cleared;
      }),
  },
  PrimaryName: {
    coin: async (p, _, ctx) => {
      const id = await ctx.loaders.coinIdByTicker.load(p.asset);
      return id === null ? null : { id };
    },
  },
};
