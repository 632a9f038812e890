/**
 * Resolvers of the accounts subgraph, typed with the generated `Resolvers` (parents are the accounts domain types).
 * Every rule is the domain's, called exactly as the REST routes call it (`src/rest/accounts/*`): the same services,
 * the same body rules (`parseBody` with the routes' field specs), the same error codes. Who may do what:
 *
 * - public: `dappStore`, `Account` references (id, address, role, creation time);
 * - a session: `me` (null without a token), `requestApiKey`, `revokeApiKey`, `submitDapp`, and the account's own
 *   `apiKeys` / `dappRequests` (AUTH_REQUIRED without a session, FORBIDDEN for another account's);
 * - an administrator's session or the operator token: the review lists and mutations (AUTH_REQUIRED without either,
 *   FORBIDDEN for a non-admin), any account's lists, `ApiKey.owner` and `DappRequest.reviewedBy` (null for others).
 *
 * A token that is no current session fails whatever needs the session with INVALID_SESSION / SESSION_EXPIRED.
 */
import type { ApiKeyRecord } from '../../src/access/keys.ts';
import type { OwnerKeyView } from '../../src/accounts/api-keys.ts';
import { DAPP_CHAINS } from '../../src/accounts/dapps.ts';
import type { DappRecord, OwnDapp } from '../../src/accounts/dapps.ts';
import type { Account, Actor } from '../../src/accounts/types.ts';
import { paramError } from '../../src/rest/params.ts';
import { parseBody } from '../../src/rest/accounts/body.ts';
import type { BodySpec } from '../../src/rest/accounts/body.ts';
import { DateTime } from '../shared/scalars.ts';
import type { AccountsContext } from './context.ts';
import { accountsErrors, adminsOnly, authRequired, fromAccountsError, notYours } from './errors.ts';
import { ApiKeyStatus, DappStatus, Plan, Role } from './generated/resolvers-types.ts';
import type { Resolvers } from './generated/resolvers-types.ts';

/** Largest `first` of `dappStore` (as REST's `per_page` of `/dapps`). */
export const MAX_STORE_PAGE = 100;

// The REST routes' body rules for the same fields (key-routes.ts, admin-routes.ts).
const REASON = { type: 'string', max: 500 } as const;
const REQUEST_KEY = { description: { type: 'string', required: true, max: 500 } } as const satisfies BodySpec;
const REVOKE_KEY = { reason: REASON } as const satisfies BodySpec;
const APPROVE_KEY = {
  limitPerMinute: { type: 'integer', min: 1, max: 10_000 },
  reason: REASON,
} as const satisfies BodySpec;
const REJECT_KEY = { reason: { ...REASON, required: true } } as const satisfies BodySpec;

/** The signed-in account; AUTH_REQUIRED without a session (the operator token is none). */
async function signedIn(ctx: AccountsContext): Promise<Account> {
  const me = await ctx.viewer();
  if (!me) throw authRequired();
  return me;
}

/** Who reviews: the operator, or an administrator's session; AUTH_REQUIRED / FORBIDDEN otherwise (REST's admin guard). */
async function reviewer(ctx: AccountsContext): Promise<Actor> {
  if (ctx.operator) return { kind: 'operator' };
  const me = await signedIn(ctx);
  if (me.role !== 'admin') throw adminsOnly();
  return { kind: 'account', account: me };
}

/** Whether the caller may see administrators-only fields; never throws for a missing session (those fields are null). */
async function seesAdminFields(ctx: AccountsContext): Promise<boolean> {
  if (ctx.operator) return true;
  return (await ctx.viewer())?.role === 'admin';
}

/** The account itself, an administrator or the operator; AUTH_REQUIRED / FORBIDDEN otherwise. */
async function ownerOrReviewer(
  ctx: AccountsContext,
  accountId: string,
  what: 'API keys' | 'dapp requests',
): Promise<void> {
  if (ctx.operator) return;
  const me = await signedIn(ctx);
  if (me.id !== accountId && me.role !== 'admin') throw notYours(what, accountId);
}

/** An owner-scoped key view with its owner id back, so that `ApiKey.owner` can resolve it for administrators. */
const owned = (view: OwnerKeyView, account: Account): ApiKeyRecord => ({ ...view, ownerId: account.id });

/** The owner id of a key parent: present on full records, absent on owner views (whose owner is the caller). */
const ownerIdOf = (k: OwnerKeyView): string | null =>
  'ownerId' in k && typeof k.ownerId === 'string' ? k.ownerId : null;

/** The reviewer of a dapp parent: present on full records only. */
const reviewedByOf = (d: OwnDapp): string | null =>
  'reviewedBy' in d && typeof d.reviewedBy === 'string' ? d.reviewedBy : null;

/** Opaque cursor of the dapp at `offset` of the store. */
export const encodeStoreCursor = (offset: number): string =>
  Buffer.from(`dapps:${offset}`).toString('base64url');

function decodeStoreCursor(cursor: string): number {
  const m = /^dapps:(\d{1,9})$/.exec(Buffer.from(cursor, 'base64url').toString('utf8'));
  if (!m)
    throw fromAccountsError(
      paramError('after', 'must be a cursor of dappStore (an endCursor or edge cursor)'),
    );
  return Number(m[1]);
}

/** `chain` of the store as REST's `/dapps?chain=`: any case → uppercase; empty → no filter; unknown → INVALID_PARAMETER. */
function storeChain(chain: string | null | undefined): string | undefined {
  if (chain == null || chain === '') return undefined;
  const c = chain.toUpperCase();
  if (!DAPP_CHAINS.includes(c))
    throw fromAccountsError(paramError('chain', `must be one of ${DAPP_CHAINS.join(', ')}`));
  return c;
}

/** Oldest first, ties by id: the review queue's order. */
const oldestFirst = (a: ApiKeyRecord, b: ApiKeyRecord): number =>
  a.createdAt - b.createdAt || (a.id < b.id ? -1 : a.id > b.id ? 1 : 0);

export const resolvers: Resolvers<AccountsContext> = {
  DateTime,
  // The graph's UPPER_CASE enum values are the domain's lowercase strings (codegen's `enumValues`).
  Role: { USER: Role.User, ADMIN: Role.Admin },
  Plan: { FREE: Plan.Free, PRO: Plan.Pro, ENTERPRISE: Plan.Enterprise },
  ApiKeyStatus: {
    PENDING: ApiKeyStatus.Pending,
    APPROVED: ApiKeyStatus.Approved,
    REJECTED: ApiKeyStatus.Rejected,
    REVOKED: ApiKeyStatus.Revoked,
  },
  DappStatus: {
    SUBMITTED: DappStatus.Submitted,
    APPROVED: DappStatus.Approved,
    REJECTED: DappStatus.Rejected,
    DELISTED: DappStatus.Delisted,
  },

  Query: {
    me: (_root, _args, ctx) => ctx.viewer(),
    dappStore: async (_root, { first, after, chain }, ctx) => {
      const size = first ?? 20;
      if (!Number.isInteger(size) || size < 1 || size > MAX_STORE_PAGE)
        throw fromAccountsError(paramError('first', `must be an integer from 1 to ${MAX_STORE_PAGE}`));
      const start = after == null ? 0 : decodeStoreCursor(after) + 1;
      const { total, dapps } = await ctx.dapps.storeSlice({
        offset: start,
        limit: size,
        chain: storeChain(chain),
      });
      const edges = dapps.map((node, i) => ({ cursor: encodeStoreCursor(start + i), node }));
      return {
        edges,
        totalCount: total,
        pageInfo: {
          hasNextPage: start + dapps.length < total,
          hasPreviousPage: start > 0,
          startCursor: edges[0]?.cursor ?? null,
          endCursor: edges[edges.length - 1]?.cursor ?? null,
        },
      };
    },
    reviewApiKeys: async (_root, { status }, ctx) => {
      await reviewer(ctx);
      // `status: null` asks for every state.
      const keys = await ctx.keys.list(status ? { status } : {});
      return keys.sort(oldestFirst);
    },
    reviewDapps: async (_root, { status }, ctx) => {
      await reviewer(ctx);
      // The SDL's list is not paginated: the whole queue, oldest first (`status: null` asks for every state).
      return ctx.dapps.adminList(status ?? undefined, {
        page: 1,
        perPage: Number.MAX_SAFE_INTEGER,
      });
    },
  },

  Mutation: {
    requestApiKey: (_root, { plan, description }, ctx) =>
      accountsErrors(async () => {
        const me = await signedIn(ctx);
        const b = parseBody({ description }, REQUEST_KEY);
        const { key, record } = await ctx.ownKeys.create(me, { plan, description: b.description });
        ctx.loaders.apiKeysByOwner.clear(me.id);
        return { key, apiKey: owned(record, me) };
      }),
    revokeApiKey: (_root, { id, reason }, ctx) =>
      accountsErrors(async () => {
        const me = await signedIn(ctx);
        const b = parseBody({ reason }, REVOKE_KEY);
        const view = await ctx.ownKeys.revoke(me, id, b.reason);
        ctx.loaders.apiKeysByOwner.clear(me.id);
        return owned(view, me);
      }),
    submitDapp: (_root, { input }, ctx) =>
      accountsErrors(async () => {
        const me = await signedIn(ctx);
        // The input object as a plain JSON body: `validateDappInput` checks every field as REST does.
        const dapp = await ctx.dapps.submit(me, { ...input });
        ctx.loaders.dappsByAccount.clear(me.id);
        return dapp;
      }),
    approveApiKey: (_root, { id, limitPerMinute, reason }, ctx) =>
      accountsErrors(async () => {
        const actor = await reviewer(ctx);
        const b = parseBody({ limitPerMinute, reason }, APPROVE_KEY);
        return forgetKeys(
          ctx,
          await ctx.keys.approve(id, { limitPerMinute: b.limitPerMinute, reason: b.reason, actor }),
        );
      }),
    rejectApiKey: (_root, { id, reason }, ctx) =>
      accountsErrors(async () => {
        const actor = await reviewer(ctx);
        const b = parseBody({ reason }, REJECT_KEY);
        return forgetKeys(ctx, await ctx.keys.reject(id, b.reason, { actor }));
      }),
    approveDapp: (_root, { id, notes }, ctx) =>
      accountsErrors(async () => forgetDapps(ctx, await ctx.dapps.approve(id, await reviewer(ctx), notes))),
    rejectDapp: (_root, { id, notes }, ctx) =>
      accountsErrors(async () => forgetDapps(ctx, await ctx.dapps.reject(id, await reviewer(ctx), notes))),
    delistDapp: (_root, { id, notes }, ctx) =>
      accountsErrors(async () => forgetDapps(ctx, await ctx.dapps.delist(id, await reviewer(ctx), notes))),
  },

  Account: {
    __resolveReference: (ref, ctx) => ctx.loaders.account.load(ref.id),
    apiKeys: async (a, _args, ctx) => {
      await ownerOrReviewer(ctx, a.id, 'API keys');
      return ctx.loaders.apiKeysByOwner.load(a.id);
    },
    dappRequests: async (a, _args, ctx) => {
      await ownerOrReviewer(ctx, a.id, 'dapp requests');
      return ctx.loaders.dappsByAccount.load(a.id);
    },
  },

  ApiKey: {
    owner: async (k, _args, ctx) => {
      if (!(await seesAdminFields(ctx))) return null;
      const ownerId = ownerIdOf(k);
      return ownerId === null ? null : ctx.loaders.account.load(ownerId);
    },
  },

  DappRequest: {
    reviewedBy: async (d, _args, ctx) => ((await seesAdminFields(ctx)) ? reviewedByOf(d) : null),
    account: async (d, _args, ctx) => {
      const a = await ctx.loaders.account.load(d.accountId);
      if (!a) throw new Error(`dapp ${d.id} names account ${d.accountId}, which does not exist`);
      return a;
    },
  },
};

/** Drops the cached key list of a changed key's owner (a later field of the same request reads it again). */
function forgetKeys(ctx: AccountsContext, k: ApiKeyRecord): ApiKeyRecord {
  if (k.ownerId !== null) ctx.loaders.apiKeysByOwner.clear(k.ownerId);
  return k;
}

/** Drops the cached dapp list of a reviewed dapp's submitter. */
function forgetDapps(ctx: AccountsContext, d: DappRecord): DappRecord {
  ctx.loaders.dappsByAccount.clear(d.accountId);
  return d;
}
