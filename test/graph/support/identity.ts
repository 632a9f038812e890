/**
 * Shared by the identity subgraph tests (`identity.test.ts`, `identity-mutations.test.ts`): the subgraph executed in
 * process over the names harness, reading through a counting `Db` proxy (its `AuthService` too), the signed-in users,
 * the operations and the helpers that run them. `useIdentityGraph()` registers the hooks that fill the bindings below.
 */
import { createRequire } from 'node:module';
import type * as GraphQL from 'graphql';
import type { ExecutionResult } from 'graphql';
import { afterAll, beforeAll, beforeEach, expect } from 'vitest';
import { AuthService } from '../../../src/accounts/auth.ts';
import { NameService } from '../../../src/names/service.ts';
import { createIdentitySubgraph } from '../../../subgraphs/identity/index.ts';
import type { IdentitySubgraph } from '../../../subgraphs/identity/index.ts';
import { DOMAIN, harness, signIn } from '../../names/harness.ts';
import type { Harness, Wallet } from '../../names/harness.ts';
import { countingDb } from '../../support/counting-db.ts';

// The CommonJS build of graphql: the one @apollo/subgraph builds the schema with. (Vite resolves a plain import to
// graphql's .mjs build, a second instance whose `graphql()` refuses the schema; Node itself loads the CJS one.)
const { graphql } = createRequire(import.meta.url)('graphql') as typeof GraphQL;

export type User = { token: string; id: string; address: string };

export let h: Harness;
export let sg: IdentitySubgraph;
export let alice: User;
export let bob: User;
/** Every statement the subgraph (and its AuthService) ran outside a transaction. */
export const statements: string[] = [];
/** Every batch the loaders dispatched. */
export const batches: { loader: string; keys: readonly unknown[] }[] = [];
/** A well-formed token that names no session (a malformed one is refused before any read). */
export const UNKNOWN_TOKEN = `cws_${'A'.repeat(43)}`;
export let n = 0;
/** A fresh name per test. */
export let name: string;

/** Registers the hooks of a test file: the harness, the subgraph and two users before all; a fresh `name` each. */
export function useIdentityGraph(): void {
  beforeAll(async () => {
    h = await harness();
    const db = h.db;
    const counted = countingDb(db, statements);
    const now = () => h.clock.now;
    sg = createIdentitySubgraph({
      auth: new AuthService(counted, { domain: DOMAIN, now }),
      names: new NameService(counted, { suffix: 'coin', network: 'mainnet', now }),
      hooks: { onBatch: (loader, keys) => batches.push({ loader, keys }) },
    });
    alice = await signIn(h);
    bob = await signIn(h);
  }, 120_000);
  afterAll(async () => {
    await h?.close();
  });
  beforeEach(() => {
    name = `graph-${++n}.coin`;
  });
}

export async function run(
  source: string,
  variableValues?: Record<string, unknown>,
  token?: string,
): Promise<ExecutionResult> {
  const headers = token === undefined ? {} : { authorization: `Bearer ${token}` };
  return graphql({ schema: sg.schema, source, variableValues, contextValue: sg.contextFor({ headers }) });
}

export async function ok<T = Record<string, unknown>>(
  source: string,
  vars?: Record<string, unknown>,
  token?: string,
): Promise<T> {
  const r = await run(source, vars, token);
  expect(r.errors, JSON.stringify(r.errors)).toBeUndefined();
  return r.data as T;
}

export const codes = (r: ExecutionResult): unknown[] => (r.errors ?? []).map((e) => e.extensions['code']);
export const iso = (ms: number): string => new Date(ms).toISOString();
/** Statements that read `table` (`FROM names` is not `FROM name_addresses`). */
export const readsOf = (table: string): number =>
  statements.filter((s) => new RegExp(`\\bFROM ${table}\\b`).test(s)).length;
export const keysOf = (loader: string): unknown[][] =>
  batches.filter((b) => b.loader === loader).map((b) => [...b.keys]);
export const reset = (): void => {
  statements.length = 0;
  batches.length = 0;
};

export type NameRec = {
  name: string;
  private: boolean | null;
  createdAt: string | null;
  updatedAt: string | null;
  addresses: { asset: string; address: string; coin: { id: string } | null; updatedAt: string }[];
};
export const RECORD = 'name private createdAt updatedAt addresses { asset address coin { id } updatedAt }';

export const REGISTER = `mutation ($name: String!) { registerName(name: $name) { ${RECORD} } }`;
export const CHALLENGE = `mutation ($name: String!, $asset: String!, $address: String!) {
  requestAddressChallenge(name: $name, asset: $asset, address: $address) { challenge nonce expiresAt }
}`;
export const LINK = `mutation ($name: String!, $asset: String!, $address: String!, $signature: String!, $nonce: String!) {
  linkAddress(name: $name, asset: $asset, address: $address, signature: $signature, nonce: $nonce) { ${RECORD} }
}`;
export const PRIVACY = `mutation ($name: String!, $private: Boolean!) { setNamePrivacy(name: $name, private: $private) { ${RECORD} } }`;
export const NAME = `query ($name: String!) { name(name: $name) { ${RECORD} } }`;

export async function register(token: string, nm = name): Promise<NameRec> {
  return (await ok<{ registerName: NameRec }>(REGISTER, { name: nm }, token)).registerName;
}

/** Links `w`'s address to `nm` through the graph: a challenge, signed by the wallet's real key, then `linkAddress`. */
export async function link(token: string, asset: string, w: Wallet, nm = name): Promise<ExecutionResult> {
  const c = await ok<{ requestAddressChallenge: { challenge: string; nonce: string; expiresAt: string } }>(
    CHALLENGE,
    { name: nm, asset, address: w.address },
    token,
  );
  const { challenge, nonce } = c.requestAddressChallenge;
  return run(LINK, { name: nm, asset, address: w.address, signature: w.sign(challenge), nonce }, token);
}
