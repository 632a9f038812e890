/**
 * Resolvers of the accounts subgraph, typed with the generated `Resolvers` (parents are the accounts domain types).
 * Every rule is the domain's, called exactly as the REST routes call it (`src/rest/accounts/*`): the same services,
 * the same body rules (`parseBody` with the routes' field specs), the same error codes. Who may do what:
 *
 * - public: `dappStore`, `dappAccess`, `requestSignInChallenge`, `signIn`, `Account` references (id, address, role,
 *   creation time);
 * - a session: `me` (null without a token), `signOut`, `requestApiKey`, `revokeApiKey`, `submitDapp`, `apiKey` (its
 *   own keys), and the account's own `apiKeys` / `dappRequests` (AUTH_REQUIRED without a session, FORBIDDEN for
 *   another account's);
 * - an administrator's session or the operator token: the review lists and mutations, `admins`, `grantAdmin`,
 *   `revokeAdmin`, `issueApiKey`, `adminRevokeApiKey`, `createPartner`, `serviceStats` (AUTH_REQUIRED without either,
 *   FORBIDDEN for a non-admin), any account's lists and keys and their `usage`, `ApiKey.owner` and
 *   `DappRequest.reviewedBy` (null for others);
 * - `ApiKey.usage`: the key's owner, administrators and the operator (FORBIDDEN for anyone else).
 *
 * The partner-signed operations (`/api/partner/*`, HMAC over the exact HTTP request) have no GraphQL form by design;
 * `createPartner` only issues the credential they are signed with.
 *
 * A token that is no current session fails whatever needs the session with INVALID_SESSION / SESSION_EXPIRED.
 */
import type { ApiKeyRecord } from '../../src/access/key-repo.ts';
import { MINUTE_MS, minuteOf } from '../../src/access/usage.ts';
import type { RoleChange } from '../../src/accounts/admins.ts';
import { parseChallenge } from '../../src/accounts/challenge.ts';
import type { DappRecord, OwnDapp } from '../../src/accounts/dapps.ts';
import type { Account, Actor } from '../../src/accounts/types.ts';
import { ApiError } from '../../src/core/errors.ts';
import { paramError, required } from '../../src/core/params.ts';
import { parseBody } from '../../src/accounts/body.ts';
import { DateTime } from '../shared/scalars.ts';
import type { AccountsContext } from './context.ts';
import { fromApiError, graphqlErrorsAsync } from '../shared/errors.ts';
import { ApiKeyStatus, DappStatus, OperationKind, Plan, Role } from './generated/resolvers-types.ts';
import type { Resolvers } from './generated/resolvers-types.ts';
import {
  keyOwnerOrReviewer,
  owned,
  ownerIdOf,
  ownerOrReviewer,
  reviewer,
  seesAdminFields,
  signedIn,
} from './guards.ts';
import {
  APPROVE_KEY,
  CHALLENGE,
  decodeStoreCursor,
  encodeStoreCursor,
  ISSUE_KEY,
  ISSUED_KEY_DESCRIPTION,
  MAX_STORE_PAGE,
  PARTNER,
  REJECT_KEY,
  REQUEST_KEY,
  REVOKE_KEY,
  ROLE,
  SESSION,
  storeChain,
  usageMinutes,
} from './inputs.ts';
import { usageDays as daysOf } from '../../src/accounts/app-usage.ts';

/** `days` of a usage field (1–35), else BAD_USER_INPUT-style 400 naming it, as REST's `?days=`. */
function usageDays(days: number): number {
  try {
    return daysOf(days);
  } catch (e) {
    throw e instanceof ApiError ? fromApiError(e) : e;
  }
}

/** `first` of a list (1–`max`), else a 400 naming it. */
function firstOf(first: number, max: number): number {
  if (!Number.isInteger(first) || first < 1 || first > max)
    throw fromApiError(paramError('first', `must be an integer from 1 to ${max}`));
  return first;
}

/** The reviewer of a dapp parent: present on full records only. */
const reviewedByOf = (d: OwnDapp): string | null =>
  'reviewedBy' in d && typeof d.reviewedBy === 'string' ? d.reviewedBy : null;

/** A key by id, or null where REST answers KEY_NOT_FOUND (no such key, or an id that is no UUID). */
async function keyOrNull(ctx: AccountsContext, id: string): Promise<ApiKeyRecord | null> {
  try {
    return await ctx.keys.get(id);
  } catch (e) {
    if (e instanceof ApiError && e.code === 'KEY_NOT_FOUND') return null;
    throw e;
  }
}

/**
 * After a role change: the changed account's cached entity is stale, and when it is the caller's own account, so is
 * the memoised session (REST reads the role on every request; here the next field that needs it reads it again).
 */
function roleChanged(ctx: AccountsContext, actor: Actor, r: RoleChange): Account {
  ctx.loaders.account.clear(r.account.id);
  if (actor.kind === 'account' && actor.account.id === r.account.id) ctx.forgetViewer();
  return r.account;
}

/** Oldest first, ties by id: the review queue's order. */
const oldestFirst = (a: ApiKeyRecord, b: ApiKeyRecord): number =>
  a.createdAt - b.createdAt || (a.id < b.id ? -1 : a.id > b.id ? 1 : 0);

export const resolvers: Resolvers<AccountsContext> = {
  DateTime,
  // The graph's UPPER_CASE enum values are the domain's lowercase strings (codegen's `enumValues`).
  Role: { USER: Role.User, ADMIN: Role.Admin },
  Plan: { FREE: Plan.Free, PRO: Plan.Pro, ENTERPRISE: Plan.Enterprise },
  OperationKind: { DOCUMENT: OperationKind.Document, TOOL: OperationKind.Tool },
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
        throw fromApiError(paramError('first', `must be an integer from 1 to ${MAX_STORE_PAGE}`));
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
    admins: async (_root, _args, ctx) => {
      await reviewer(ctx);
      return ctx.accounts.admins();
    },
    apiKey: async (_root, { id }, ctx) => {
      // REST's `/admin/api-keys/:id` for reviewers, `/account/api-keys/:id` for the owner; KEY_NOT_FOUND is null.
      const me = ctx.operator ? null : await signedIn(ctx);
      const k = await keyOrNull(ctx, id);
      if (k === null || me === null || me.role === 'admin') return k;
      return k.ownerId === me.id ? k : null;
    },
    serviceStats: async (_root, { minutes }, ctx) => {
      await reviewer(ctx);
      const n = usageMinutes(minutes);
      const to = ctx.now();
      return ctx.usage.serviceStats(minuteOf(to) - (n - 1) * MINUTE_MS, to);
    },
    dappAccess: (_root, { origin }, ctx) =>
      graphqlErrorsAsync(async () => {
        // REST's `GET /dapps/access?origin=`: the same checks, messages and answer.
        const o = required({ origin }, 'origin', 'the page origin, e.g. https://app.example.com');
        const r = await ctx.dapps.access(o);
        if (!r)
          throw paramError('origin', 'must be an http:// or https:// URL such as https://app.example.com');
        return r;
      }),
  },

  Mutation: {
    requestSignInChallenge: (_root, { address }, ctx) =>
      graphqlErrorsAsync(async () => {
        const b = parseBody({ address }, CHALLENGE);
        const c = await ctx.auth.challenge(b.address);
        // The fields the text names, read back from the text itself (the server's own copy: it always parses).
        const f = parseChallenge(c.challenge);
        if (!f) throw new Error('the sign-in challenge text does not parse');
        return { ...c, domain: f.domain, address: f.address, issuedAt: f.issuedAt };
      }),
    signIn: (_root, { address, signature, nonce }, ctx) =>
      graphqlErrorsAsync(async () => {
        const b = parseBody({ address, signature, nonce }, SESSION);
        const s = await ctx.auth.signIn(b.address, b.signature, b.nonce);
        // A first sign-in created the account: a reference read earlier in this request is stale.
        ctx.loaders.account.clear(s.account.id);
        return s;
      }),
    signOut: (_root, _args, ctx) =>
      graphqlErrorsAsync(async () => {
        await signedIn(ctx);
        await ctx.auth.logout(ctx.sessionToken ?? '');
        // The token is refused from the next field on, as from the next REST request.
        ctx.forgetViewer();
        return true;
      }),
    requestApiKey: (_root, { plan, description }, ctx) =>
      graphqlErrorsAsync(async () => {
        const me = await signedIn(ctx);
        const b = parseBody({ description }, REQUEST_KEY);
        const { key, record } = await ctx.ownKeys.create(me, { plan, description: b.description });
        ctx.loaders.apiKeysByOwner.clear(me.id);
        return { key, apiKey: owned(record, me) };
      }),
    revokeApiKey: (_root, { id, reason }, ctx) =>
      graphqlErrorsAsync(async () => {
        const me = await signedIn(ctx);
        const b = parseBody({ reason }, REVOKE_KEY);
        const view = await ctx.ownKeys.revoke(me, id, b.reason);
        ctx.loaders.apiKeysByOwner.clear(me.id);
        return owned(view, me);
      }),
    submitDapp: (_root, { input }, ctx) =>
      graphqlErrorsAsync(async () => {
        const me = await signedIn(ctx);
        // The input object as a plain JSON body: `validateDappInput` checks every field as REST does.
        const dapp = await ctx.dapps.submit(me, { ...input });
        ctx.loaders.dappsByAccount.clear(me.id);
        return dapp;
      }),
    approveApiKey: (_root, { id, limitPerMinute, reason }, ctx) =>
      graphqlErrorsAsync(async () => {
        const actor = await reviewer(ctx);
        const b = parseBody({ limitPerMinute, reason }, APPROVE_KEY);
        return forgetKeys(
          ctx,
          await ctx.keys.approve(id, { limitPerMinute: b.limitPerMinute, reason: b.reason, actor }),
        );
      }),
    rejectApiKey: (_root, { id, reason }, ctx) =>
      graphqlErrorsAsync(async () => {
        const actor = await reviewer(ctx);
        const b = parseBody({ reason }, REJECT_KEY);
        return forgetKeys(ctx, await ctx.keys.reject(id, b.reason, { actor }));
      }),
    approveDapp: (_root, { id, notes }, ctx) =>
      graphqlErrorsAsync(async () =>
        forgetDapps(ctx, await ctx.dapps.approve(id, await reviewer(ctx), notes)),
      ),
    rejectDapp: (_root, { id, notes }, ctx) =>
      graphqlErrorsAsync(async () =>
        forgetDapps(ctx, await ctx.dapps.reject(id, await reviewer(ctx), notes)),
      ),
    delistDapp: (_root, { id, notes }, ctx) =>
      graphqlErrorsAsync(async () =>
        forgetDapps(ctx, await ctx.dapps.delist(id, await reviewer(ctx), notes)),
      ),
    issueApiKey: (_root, { plan, description, limitPerMinute, approve }, ctx) =>
      graphqlErrorsAsync(async () => {
        const actor = await reviewer(ctx);
        const b = parseBody({ plan, description, limitPerMinute, approve }, ISSUE_KEY);
        const { key, record } = await ctx.keys.create({
          plan: b.plan,
          description: b.description ?? ISSUED_KEY_DESCRIPTION,
          approve: b.approve ?? false,
          limitPerMinute: b.limitPerMinute,
          actor,
        });
        return { key, apiKey: record };
      }),
    adminRevokeApiKey: (_root, { id, reason }, ctx) =>
      graphqlErrorsAsync(async () => {
        const actor = await reviewer(ctx);
        const b = parseBody({ reason }, REVOKE_KEY);
        return forgetKeys(ctx, await ctx.keys.revoke(id, { reason: b.reason, actor }));
      }),
    grantAdmin: (_root, { address, reason }, ctx) =>
      graphqlErrorsAsync(async () => {
        const actor = await reviewer(ctx);
        const b = parseBody({ address, reason }, ROLE);
        return roleChanged(ctx, actor, await ctx.accounts.grantAdmin(b.address, actor, b.reason ?? null));
      }),
    revokeAdmin: (_root, { address, reason }, ctx) =>
      graphqlErrorsAsync(async () => {
        const actor = await reviewer(ctx);
        const b = parseBody({ address, reason }, ROLE);
        return roleChanged(ctx, actor, await ctx.accounts.revokeAdmin(b.address, actor, b.reason ?? null));
      }),
    createPartner: (_root, { name }, ctx) =>
      graphqlErrorsAsync(async () => {
        const actor = await reviewer(ctx);
        const b = parseBody({ name }, PARTNER);
        const p = await ctx.partners.create(b.name, actor);
        return { secret: p.secret, partner: { id: p.id, name: p.name, createdAt: p.createdAt } };
      }),
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
    apps: async (a, _args, ctx) => {
      await ownerOrReviewer(ctx, a.id, 'apps');
      return ctx.loaders.apps.load(a.id);
    },
  },

  App: {
    versions: (a, { first }) => a.versions.slice(0, firstOf(first, 100)),
  },

  AppVersion: {
    documents: async (v, { first }, ctx) => {
      const n = firstOf(first, 2000);
      return (await ctx.loaders.versionDocuments.load({ appId: v.appId, version: v.version })).slice(0, n);
    },
  },

  AppDocument: {
    id: (d) => d.documentId,
    // The owner was checked at `Account.apps`, the only way to an app version.
    usage: (d, { days }, ctx) =>
      ctx.loaders.documentUsage.load({
        appId: d.appId,
        version: d.version,
        hash: d.hash,
        days: usageDays(days),
      }),
  },

  ApiKey: {
    owner: async (k, _args, ctx) => {
      if (!(await seesAdminFields(ctx))) return null;
      const ownerId = ownerIdOf(k);
      return ownerId === null ? null : ctx.loaders.account.load(ownerId);
    },
    usage: async (k, { minutes }, ctx) => {
      // Who first (as REST checks the session before the body), then the argument.
      await keyOwnerOrReviewer(ctx, k);
      return ctx.loaders.keyUsage.load({ keyId: k.id, minutes: usageMinutes(minutes) });
    },
    operations: async (k, { days }, ctx) => {
      await keyOwnerOrReviewer(ctx, k);
      return ctx.loaders.keyOperations.load({ keyId: k.id, days: usageDays(days) });
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
