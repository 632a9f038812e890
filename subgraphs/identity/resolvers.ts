/**
 * Resolvers of the identity subgraph, typed with the generated `Resolvers` (`NameRecord` parents are the name
 * service's views). Root fields and mutations call `NameService`, the same functions and rules as the REST API
 * (src/rest/names); nested fields go through the request's loaders (`namesByAccount`, `coinIdByTicker`).
 *
 * - Absent is not an error: `nameResolution` answers NAME_NOT_FOUND (missing or private alike) and ADDRESS_NOT_LINKED
 *   as members of its result union, with the catalog's code and message; the deprecated `resolveName` answers null
 *   for both, `name` null for a missing or private name. Malformed input still is an error (INVALID_NAME,
 *   INVALID_PARAMETER for the asset).
 * - The session is read only by fields that need it: every mutation and `Account.names` (AUTH_REQUIRED without a
 *   token, INVALID_SESSION / SESSION_EXPIRED for a bad one), and the holder-only fields of a public `name`.
 */
import type { Account } from '../../src/accounts/types.ts';
import { nameErrors } from '../../src/names/errors.ts';
import type { Holder, NameView } from '../../src/names/types.ts';
import { DateTime } from '../shared/scalars.ts';
import type { IdentityContext, NameOrPublicName } from './context.ts';
import { authRequired, graphqlErrorsAsync, namesForbidden, tooLong } from './errors.ts';
import type { LinkedAddress, Resolvers } from './generated/resolvers-types.ts';
import {
  MAX_ACCOUNT_ID,
  MAX_ADDRESS,
  MAX_NAME,
  MAX_NONCE,
  MAX_SIGNATURE,
  resolutionResult,
} from './results.ts';
import { reverseResolvers } from './reverse.ts';

/** The signed-in account; none → AUTH_REQUIRED, a bad token → INVALID_SESSION / SESSION_EXPIRED. */
async function signedIn(ctx: IdentityContext): Promise<Account> {
  const account = await ctx.viewer();
  if (!account) throw authRequired();
  return account;
}

/** Refuses a string argument longer than `max` (INVALID_PARAMETER); returns it unchanged otherwise. */
function capped(arg: string, value: string, max: number): string {
  if (value.length > max) throw tooLong(arg, max);
  return value;
}

/**
 * A mutation: the session first (as REST checks it before the body), then `fn` with the account, the name service's
 * `ApiError`s turned into GraphQL errors.
 */
function asAccount<T>(
  ctx: IdentityContext,
  fn: (account: Account, holder: Holder) => Promise<T>,
): Promise<T> {
  return graphqlErrorsAsync(async () => {
    const account = await signedIn(ctx);
    return fn(account, { kind: 'account', account });
  });
}

const isHolderView = (n: NameOrPublicName): n is NameView => 'private' in n;

/**
 * The holder's view of `n`: `n` itself when it is one; for a public lookup, the viewer's own view of that name when
 * the request is signed in and the viewer holds it (through `namesByAccount`), else null. Only the holder-only fields
 * call this, so a public `name` without them never reads the session.
 */
async function holderView(n: NameOrPublicName, ctx: IdentityContext): Promise<NameView | null> {
  if (isHolderView(n)) return n;
  const viewer = await ctx.viewer();
  if (!viewer) return null;
  const own = await ctx.loaders.namesByAccount.load(viewer.id);
  return own.find((v) => v.name === n.name) ?? null;
}

/** Linked addresses by ticker, as the list the SDL gives (by ticker). */
function linked(addresses: NameView['addresses']): LinkedAddress[] {
  return Object.entries(addresses)
    .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))
    .map(([asset, l]) => ({ asset, address: l.address, updatedAt: l.updatedAt }));
}

/** The `Coin` reference of a ticker (`{ id }`, resolved by the markets subgraph); null when the catalog lacks it. */
async function coinOf(asset: string, ctx: IdentityContext): Promise<{ id: string } | null> {
  const id = await ctx.loaders.coinIdByTicker.load(asset);
  return id === null ? null : { id };
}

export const resolvers: Resolvers<IdentityContext> = {
  DateTime,
  Query: {
    nameResolution: (_, { name, asset }, ctx) =>
      graphqlErrorsAsync(async () => resolutionResult(await ctx.names.resolution(name, asset))),
    resolveName: (_, { name, asset }, ctx) =>
      graphqlErrorsAsync(async () => {
        const o = await ctx.names.resolution(name, asset);
        return o.kind === 'found' ? o.resolution : null;
      }),
    name: (_, { name }, ctx) => graphqlErrorsAsync(() => ctx.names.lookup(name)),
    ...reverseResolvers.Query,
  },
  Mutation: {
    registerName: (_, { name }, ctx) =>
      asAccount(ctx, (_account, holder) => ctx.names.register(holder, capped('name', name, MAX_NAME))),
    requestAddressChallenge: (_, { name, asset, address }, ctx) =>
      asAccount(ctx, (account) =>
        ctx.names.challenge(
          account,
          capped('name', name, MAX_NAME),
          asset,
          capped('address', address, MAX_ADDRESS),
        ),
      ),
    linkAddress: (_, { name, asset, address, signature, nonce }, ctx) =>
      asAccount(ctx, (account) =>
        ctx.names.linkProved(account, capped('name', name, MAX_NAME), asset, {
          address: capped('address', address, MAX_ADDRESS),
          signature: capped('signature', signature, MAX_SIGNATURE),
          nonce: capped('nonce', nonce, MAX_NONCE),
        }),
      ),
    unlinkAddress: (_, { name, asset }, ctx) =>
      asAccount(ctx, (_account, holder) => ctx.names.unlink(holder, capped('name', name, MAX_NAME), asset)),
    setNamePrivacy: (_, { name, private: priv }, ctx) =>
      asAccount(ctx, (_account, holder) =>
        ctx.names.setPrivate(holder, capped('name', name, MAX_NAME), priv),
      ),
    transferName: (_, { name, toAddress, toAccountId }, ctx) =>
      asAccount(ctx, (account) => {
        // Exactly one target, as REST's body (null and absent are the same here).
        const to = toAddress ?? undefined;
        const toId = toAccountId ?? undefined;
        if ((to === undefined) === (toId === undefined)) throw nameErrors.transferTarget();
        const target =
          to !== undefined
            ? { toAddress: capped('toAddress', to, MAX_ADDRESS) }
            : { toAccountId: capped('toAccountId', toId ?? '', MAX_ACCOUNT_ID) };
        return ctx.names.transfer(account, capped('name', name, MAX_NAME), target);
      }),
    ...reverseResolvers.Mutation,
  },
  Account: {
    // Only the account itself sees its names (the SDL's rule): the session is checked before any read.
    names: async (account, _, ctx) => {
      const viewer = await signedIn(ctx);
      if (viewer.id !== account.id) throw namesForbidden();
      return ctx.loaders.namesByAccount.load(account.id);
    },
  },
  NameRecord: {
    addresses: (n) => linked(n.addresses),
    private: async (n, _, ctx) => (await holderView(n, ctx))?.private ?? null,
    createdAt: async (n, _, ctx) => (await holderView(n, ctx))?.createdAt ?? null,
    updatedAt: async (n, _, ctx) => (await holderView(n, ctx))?.updatedAt ?? null,
  },
  LinkedAddress: {
    coin: (l, _, ctx) => coinOf(l.asset, ctx),
  },
  NameResolution: {
    coin: (r, _, ctx) => coinOf(r.asset, ctx),
  },
  PrimaryName: reverseResolvers.PrimaryName,
  NameResolutionResult: {
    // The error members carry their typename (`resolutionResult`); a resolution is the domain's object.
    __resolveType: (r) => ('__typename' in r && r.__typename ? r.__typename : 'NameResolution'),
  },
};
