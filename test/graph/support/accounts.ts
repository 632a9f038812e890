/**
 * Shared by the accounts subgraph tests (`accounts*.test.ts`): the subgraph executed in process over the accounts REST
 * harness, sharing its database and key service; the signed-in users; the helpers that run operations; and the
 * operations more than one of those files sends. `useAccountsGraph()` registers the hooks that fill the bindings below.
 */
import { createRequire } from 'node:module';
import type * as GraphQL from 'graphql';
import type { ExecutionResult } from 'graphql';
import { afterAll, beforeAll, expect } from 'vitest';
import { AuthService } from '../../../src/accounts/auth.ts';
import { createServices } from '../../../src/services.ts';
import type { Db } from '../../../src/store/db.ts';
import { createAccountsSubgraph } from '../../../subgraphs/accounts/index.ts';
import type { AccountsSubgraph } from '../../../subgraphs/accounts/index.ts';
import { dappBody } from '../../accounts/dapps-fixture.ts';
import { ADMIN_TOKEN, DOMAIN, harness, signIn, signInAdmin, wallet } from '../../accounts/harness.ts';
import type { Harness, Res } from '../../accounts/harness.ts';

// The CommonJS build of graphql: the one @apollo/subgraph builds the schema with (see test/graph/markets.test.ts).
const { graphql } = createRequire(import.meta.url)('graphql') as typeof GraphQL;

export const HOUR = 3_600_000;

export let h: Harness;
export let sg: AccountsSubgraph;
export let admin: { token: string; id: string };
export let alice: { token: string; id: string; address: string };
export let bob: { token: string; id: string; address: string };
/** Every batch the loaders dispatched. */
export const batches: { loader: string; keys: readonly unknown[] }[] = [];

/** Signs a fresh wallet in through REST; returns its token, account id and address. */
export async function user(): Promise<{ token: string; id: string; address: string }> {
  const w = wallet();
  const token = await signIn(h, w);
  const acct = await new AuthService(h.db, { domain: DOMAIN, now: () => h.clock.now }).authenticate(token);
  return { token, id: acct.id, address: acct.address };
}

/** Registers the hooks of a test file: the harness, the subgraph, an administrator and two users before all. */
export function useAccountsGraph(): void {
  beforeAll(async () => {
    h = await harness();
    const now = () => h.clock.now;
    sg = createAccountsSubgraph({
      services: createServices(
        h.db,
        { domain: DOMAIN, nameSuffix: 'coin', nameNetwork: 'mainnet', now },
        { keys: h.keys },
      ),
      adminToken: ADMIN_TOKEN,
      now,
      hooks: { onBatch: (loader, keys) => batches.push({ loader, keys }) },
    });
    const a = await signInAdmin(h);
    admin = { token: a.token, id: a.id };
    alice = await user();
    bob = await user();
  }, 120_000);
  afterAll(async () => {
    await h?.close();
  });
}

export const headers = (token?: string): Record<string, string> =>
  token === undefined ? {} : { authorization: `Bearer ${token}` };

export async function run(
  source: string,
  opts: { token?: string; vars?: Record<string, unknown>; on?: AccountsSubgraph } = {},
): Promise<ExecutionResult> {
  const s = opts.on ?? sg;
  return graphql({
    schema: s.schema,
    source,
    variableValues: opts.vars,
    contextValue: s.contextFor({ headers: headers(opts.token) }),
  });
}

export async function ok<T = Record<string, unknown>>(
  source: string,
  opts: { token?: string; vars?: Record<string, unknown>; on?: AccountsSubgraph } = {},
): Promise<T> {
  const r = await run(source, opts);
  expect(r.errors, JSON.stringify(r.errors)).toBeUndefined();
  return r.data as T;
}

export const codes = (r: ExecutionResult): unknown[] => (r.errors ?? []).map((e) => e.extensions['code']);

export const ME = `{ me { id address role createdAt } }`;

export const REQUEST_KEY = `mutation ($plan: Plan!, $description: String!) {
  requestApiKey(plan: $plan, description: $description) {
    key
    apiKey { id prefix plan limitPerMinute status description rejectionReason createdAt reviewedAt revokedAt lastUsedAt }
  }
}`;

export type KeyRequest = {
  requestApiKey: { key: string; apiKey: { id: string; prefix: string; status: string; plan: string } };
};

export async function requestKey(token: string, description = 'my bot', plan = 'FREE') {
  return (await ok<KeyRequest>(REQUEST_KEY, { token, vars: { plan, description } })).requestApiKey;
}

export const APPROVE_KEY = `mutation ($id: ID!, $limit: Int, $reason: String) {
  approveApiKey(id: $id, limitPerMinute: $limit, reason: $reason) { id status limitPerMinute reviewedAt }
}`;

export const SUBMIT = `mutation ($input: DappInput!) {
  submitDapp(input: $input) {
    id name site origin icon description contactEmail chains status reviewNotes reviewedBy createdAt reviewedAt
    account { id }
  }
}`;
export type Submitted = {
  submitDapp: { id: string; status: string; origin: string; account: { id: string } };
};

export async function submit(
  token: string,
  n: number | string,
  over: Record<string, unknown> = {},
): Promise<string> {
  return (await ok<Submitted>(SUBMIT, { token, vars: { input: dappBody(n, over) } })).submitDapp.id;
}

/** `{ code, message }` of a REST error response. */
export const restError = (r: Res): { code: unknown; message: unknown } => {
  const e = r.body['error'] as { code?: unknown; message?: unknown } | undefined;
  return { code: e?.code, message: e?.message };
};

/** `{ code, message }` of the first GraphQL error. */
export const graphError = (r: ExecutionResult): { code: unknown; message: unknown } => ({
  code: r.errors?.[0]?.extensions['code'],
  message: r.errors?.[0]?.message,
});

export const REVIEW_KEYS = `{ reviewApiKeys { id } }`;

/**
 * A Db whose `query` calls are recorded (transactions run their statements on `tx`, not counted): the batching tests
 * (`accounts-keys.test.ts`) run a second subgraph instance over it to count the SQL statements a request costs.
 */
export function counting(db: Db): { db: Db; sql: string[] } {
  const sql: string[] = [];
  const proxy = new Proxy(db, {
    get(target, prop, receiver) {
      if (prop === 'query')
        return (text: string, params?: readonly unknown[]) => {
          sql.push(text.replace(/\s+/g, ' ').trim());
          return target.query(text, params);
        };
      const v: unknown = Reflect.get(target, prop, receiver);
      return typeof v === 'function' ? (v as (...a: unknown[]) => unknown).bind(target) : v;
    },
  });
  return { db: proxy, sql };
}
