/* eslint-disable */
/** Internal type. DO NOT USE DIRECTLY. */
type Exact<T extends { [key: string]: unknown }> = { [K in keyof T]: T[K] };
/** Internal type. DO NOT USE DIRECTLY. */
export type Incremental<T> = T | { [P in keyof T]?: P extends ' $fragmentName' | '__typename' ? T[P] : never };
import type { TypedDocumentNode as DocumentNode } from '@graphql-typed-document-node/core';
/** State of an API key: PENDING → APPROVED | REJECTED; APPROVED → REVOKED. */
export type ApiKeyStatus =
  /** Works on the APIs. */
  | 'APPROVED'
  /** Waiting for review; does not work yet. */
  | 'PENDING'
  /** Refused; see `rejectionReason`. */
  | 'REJECTED'
  /** Withdrawn by its owner or an administrator. */
  | 'REVOKED';

/** Fields of a dapp listing request (see docs/dapps.md for the limits). */
export type DappInput = {
  /** Tickers of the chains the dapp uses, distinct. */
  chains: Array<string>;
  /** Contact e-mail (not shown in the store). */
  contactEmail: string;
  /** Description. */
  description: string;
  /** Icon URL (`https://`). */
  icon: string;
  /** Dapp name. */
  name: string;
  /** The dapp's `https://` address. */
  site: string;
};

/** State of a dapp listing request: SUBMITTED → APPROVED → DELISTED, or SUBMITTED → REJECTED. */
export type DappStatus =
  /** Listed in the store; the site gets the wallet API. */
  | 'APPROVED'
  /** Withdrawn from the store (final). */
  | 'DELISTED'
  /** Refused (final); see `reviewNotes`. */
  | 'REJECTED'
  /** Waiting for review. */
  | 'SUBMITTED';

/** Kind of an operation counted per key. */
export type OperationKind =
  /** A trusted document of one of the key's app versions. */
  | 'DOCUMENT'
  /** A tool call on the MCP endpoint (`/mcp`). */
  | 'TOOL';

/** Plan of an API key. */
export type Plan =
  /** Up to 10,000 requests per minute, set on approval. */
  | 'ENTERPRISE'
  /** 600 requests per minute. */
  | 'FREE'
  /** 3,000 requests per minute. */
  | 'PRO';

/** Role of an account. */
export type Role =
  /** An administrator: reviews API keys and dapps. */
  | 'ADMIN'
  /** A wallet user. */
  | 'USER';

export type WebMeQueryVariables = Exact<{ [key: string]: never; }>;


export type WebMeQuery = { me: { id: string, address: string, role: Role } | null };

export type AdminWhoQueryVariables = Exact<{ [key: string]: never; }>;


export type AdminWhoQuery = { me: { id: string, address: string, role: Role } | null };

export type AdminSignOutMutationVariables = Exact<{ [key: string]: never; }>;


export type AdminSignOutMutation = { signOut: boolean };

export type AdminPendingKeysQueryVariables = Exact<{ [key: string]: never; }>;


export type AdminPendingKeysQuery = { reviewApiKeys: Array<{ id: string, prefix: string, plan: Plan, limitPerMinute: number, description: string, createdAt: string, owner: { id: string, address: string } | null }> };

export type AdminSubmittedDappsQueryVariables = Exact<{ [key: string]: never; }>;


export type AdminSubmittedDappsQuery = { reviewDapps: Array<{ id: string, name: string, site: string, origin: string, icon: string, description: string, contactEmail: string, chains: Array<string>, createdAt: string, account: { id: string, address: string } }> };

export type AdminAdminsQueryVariables = Exact<{ [key: string]: never; }>;


export type AdminAdminsQuery = { admins: Array<{ id: string, address: string, createdAt: string }> };

export type AdminApproveKeyMutationVariables = Exact<{
  id: string | number;
  reason?: string | null | undefined;
  limitPerMinute?: number | null | undefined;
}>;


export type AdminApproveKeyMutation = { approveApiKey: { id: string, prefix: string, plan: Plan, limitPerMinute: number, status: ApiKeyStatus } };

export type AdminRejectKeyMutationVariables = Exact<{
  id: string | number;
  reason: string;
}>;


export type AdminRejectKeyMutation = { rejectApiKey: { id: string, prefix: string, status: ApiKeyStatus, rejectionReason: string | null } };

export type AdminApproveDappMutationVariables = Exact<{
  id: string | number;
  notes?: string | null | undefined;
}>;


export type AdminApproveDappMutation = { approveDapp: { id: string, name: string, status: DappStatus, reviewNotes: string | null } };

export type AdminRejectDappMutationVariables = Exact<{
  id: string | number;
  notes: string;
}>;


export type AdminRejectDappMutation = { rejectDapp: { id: string, name: string, status: DappStatus, reviewNotes: string | null } };

export type AdminMarketHealthQueryVariables = Exact<{ [key: string]: never; }>;


export type AdminMarketHealthQuery = { marketHealth: { computedAt: string | null, sources: Array<{ name: string, kind: string | null, lastError: string | null, failures: number, lastSeen: string | null, ageSeconds: number | null, fresh: boolean, rejected: number }>, unverifiedSupply: Array<{ id: string, symbol: string, name: string }>, confidence: Array<{ from: number, to: number, coins: number }> }, coins: { totalCount: number } };

export type AdminServiceStatsQueryVariables = Exact<{
  minutes: number;
}>;


export type AdminServiceStatsQuery = { serviceStats: { from: string, to: string, perPlan: Array<{ minute: string, plan: string, requests: number, clientErrors: number, serverErrors: number, rateLimited: number, unauthorized: number }>, costHistogram: Array<{ upTo: number | null, count: number }> } };

export type AdminCoinListQueryVariables = Exact<{ [key: string]: never; }>;


export type AdminCoinListQuery = { coins: { edges: Array<{ node: { id: string, symbol: string, name: string } }> } };

export type AdminCoinChartQueryVariables = Exact<{
  id: string | number;
  days: number;
}>;


export type AdminCoinChartQuery = { coin: { id: string, symbol: string, name: string, price: number | null, chart: { points: Array<{ time: string, price: number | null }> } | null } | null };

export type AdminCoinCandlesQueryVariables = Exact<{
  id: string | number;
  days: number;
}>;


export type AdminCoinCandlesQuery = { coin: { id: string, candles: Array<{ time: string, open: number | null, high: number | null, low: number | null, close: number | null }> | null } | null };

export type PortalApiKeyFragment = { id: string, prefix: string, plan: Plan, limitPerMinute: number, status: ApiKeyStatus, description: string, rejectionReason: string | null, createdAt: string, reviewedAt: string | null, revokedAt: string | null, lastUsedAt: string | null };

export type PortalDappFragment = { id: string, name: string, site: string, origin: string, icon: string, description: string, contactEmail: string, chains: Array<string>, status: DappStatus, reviewNotes: string | null, createdAt: string, reviewedAt: string | null };

export type PortalMeQueryVariables = Exact<{ [key: string]: never; }>;


export type PortalMeQuery = { me: { id: string, address: string, role: Role, createdAt: string, apiKeys: Array<{ id: string, prefix: string, plan: Plan, limitPerMinute: number, status: ApiKeyStatus, description: string, rejectionReason: string | null, createdAt: string, reviewedAt: string | null, revokedAt: string | null, lastUsedAt: string | null }>, dappRequests: Array<{ id: string, name: string, site: string, origin: string, icon: string, description: string, contactEmail: string, chains: Array<string>, status: DappStatus, reviewNotes: string | null, createdAt: string, reviewedAt: string | null }> } | null };

export type PortalKeyUsageQueryVariables = Exact<{
  id: string | number;
  minutes?: number;
  days?: number;
}>;


export type PortalKeyUsageQuery = { apiKey: { id: string, usage: Array<{ minute: string, admitted: number, rateLimited: number, unauthorized: number }>, operations: Array<{ kind: OperationKind, name: string, documentId: string | null, app: string | null, version: string | null, requests: number, errors: number, refusals: number, cost: number }> } | null };

export type PortalSignOutMutationVariables = Exact<{ [key: string]: never; }>;


export type PortalSignOutMutation = { signOut: boolean };

export type PortalRequestApiKeyMutationVariables = Exact<{
  plan: Plan;
  description: string;
}>;


export type PortalRequestApiKeyMutation = { requestApiKey: { key: string, apiKey: { id: string, prefix: string, plan: Plan, limitPerMinute: number, status: ApiKeyStatus, description: string, rejectionReason: string | null, createdAt: string, reviewedAt: string | null, revokedAt: string | null, lastUsedAt: string | null } } };

export type PortalRevokeApiKeyMutationVariables = Exact<{
  id: string | number;
  reason?: string | null | undefined;
}>;


export type PortalRevokeApiKeyMutation = { revokeApiKey: { id: string, prefix: string, plan: Plan, limitPerMinute: number, status: ApiKeyStatus, description: string, rejectionReason: string | null, createdAt: string, reviewedAt: string | null, revokedAt: string | null, lastUsedAt: string | null } };

export type PortalSubmitDappMutationVariables = Exact<{
  input: DappInput;
}>;


export type PortalSubmitDappMutation = { submitDapp: { id: string, name: string, site: string, origin: string, icon: string, description: string, contactEmail: string, chains: Array<string>, status: DappStatus, reviewNotes: string | null, createdAt: string, reviewedAt: string | null } };

export type WebRequestSignInChallengeMutationVariables = Exact<{
  address: string;
}>;


export type WebRequestSignInChallengeMutation = { requestSignInChallenge: { challenge: string, nonce: string, domain: string, address: string, expiresAt: string } };

export type WebSignInMutationVariables = Exact<{
  address: string;
  signature: string;
  nonce?: string | null | undefined;
}>;


export type WebSignInMutation = { signIn: { token: string, expiresAt: string, account: { id: string, address: string, role: Role } } };

export type MiningCalculatorQueryVariables = Exact<{
  id: string | number;
  currency: string;
}>;


export type MiningCalculatorQuery = { currencies: Array<string>, coin: { id: string, symbol: string, name: string, price: number | null, lastUpdated: string | null, mining: { algorithm: string, difficulty: number | null, blockReward: number | null, blockTimeSeconds: number | null, networkHashrate: number | null, source: string, observedAt: string | null } | null } | null };

export const PortalApiKeyFragmentDoc = {"kind":"Document","definitions":[{"kind":"FragmentDefinition","name":{"kind":"Name","value":"PortalApiKey"},"typeCondition":{"kind":"NamedType","name":{"kind":"Name","value":"ApiKey"}},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"id"}},{"kind":"Field","name":{"kind":"Name","value":"prefix"}},{"kind":"Field","name":{"kind":"Name","value":"plan"}},{"kind":"Field","name":{"kind":"Name","value":"limitPerMinute"}},{"kind":"Field","name":{"kind":"Name","value":"status"}},{"kind":"Field","name":{"kind":"Name","value":"description"}},{"kind":"Field","name":{"kind":"Name","value":"rejectionReason"}},{"kind":"Field","name":{"kind":"Name","value":"createdAt"}},{"kind":"Field","name":{"kind":"Name","value":"reviewedAt"}},{"kind":"Field","name":{"kind":"Name","value":"revokedAt"}},{"kind":"Field","name":{"kind":"Name","value":"lastUsedAt"}}]}}]} as unknown as DocumentNode<PortalApiKeyFragment, unknown>;
export const PortalDappFragmentDoc = {"kind":"Document","definitions":[{"kind":"FragmentDefinition","name":{"kind":"Name","value":"PortalDapp"},"typeCondition":{"kind":"NamedType","name":{"kind":"Name","value":"DappRequest"}},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"id"}},{"kind":"Field","name":{"kind":"Name","value":"name"}},{"kind":"Field","name":{"kind":"Name","value":"site"}},{"kind":"Field","name":{"kind":"Name","value":"origin"}},{"kind":"Field","name":{"kind":"Name","value":"icon"}},{"kind":"Field","name":{"kind":"Name","value":"description"}},{"kind":"Field","name":{"kind":"Name","value":"contactEmail"}},{"kind":"Field","name":{"kind":"Name","value":"chains"}},{"kind":"Field","name":{"kind":"Name","value":"status"}},{"kind":"Field","name":{"kind":"Name","value":"reviewNotes"}},{"kind":"Field","name":{"kind":"Name","value":"createdAt"}},{"kind":"Field","name":{"kind":"Name","value":"reviewedAt"}}]}}]} as unknown as DocumentNode<PortalDappFragment, unknown>;
export const WebMeDocument = {"__meta__":{"hash":"sha256:bc8a71a18bbc9d28e5551347a9798f9788f9f6e40601549099bee4a1cf6ea395"}} as unknown as DocumentNode<WebMeQuery, WebMeQueryVariables>;
export const AdminWhoDocument = {"__meta__":{"hash":"sha256:6ae139cb77b9cf22332957edba7691f626638e1c05b55739b27349c8eeca65f0"}} as unknown as DocumentNode<AdminWhoQuery, AdminWhoQueryVariables>;
export const AdminSignOutDocument = {"__meta__":{"hash":"sha256:243cf5d9631758bcbe656fd293fb1ee7044064d4ea83baa39cbb5b22d5438f41"}} as unknown as DocumentNode<AdminSignOutMutation, AdminSignOutMutationVariables>;
export const AdminPendingKeysDocument = {"__meta__":{"hash":"sha256:5eb2016f2e9aa3e25f5d2a99fdeef5c4708da61129b88a037ed9ca506ae1bd5e"}} as unknown as DocumentNode<AdminPendingKeysQuery, AdminPendingKeysQueryVariables>;
export const AdminSubmittedDappsDocument = {"__meta__":{"hash":"sha256:43ec2deda050219125ba7ca4a0b423abfcc375085d10eaef72b9ab24782a5f0b"}} as unknown as DocumentNode<AdminSubmittedDappsQuery, AdminSubmittedDappsQueryVariables>;
export const AdminAdminsDocument = {"__meta__":{"hash":"sha256:5e397216cda3d6957f533b3ed096bdcadf756bf9bb69a13113ddaa9045316c83"}} as unknown as DocumentNode<AdminAdminsQuery, AdminAdminsQueryVariables>;
export const AdminApproveKeyDocument = {"__meta__":{"hash":"sha256:e9b11461d89955d61d49f600b5ef5bdf0297572788721de129997f0a79e2fce6"}} as unknown as DocumentNode<AdminApproveKeyMutation, AdminApproveKeyMutationVariables>;
export const AdminRejectKeyDocument = {"__meta__":{"hash":"sha256:2ef69967ce80e1bf6e4f46a8e1efcc2130b7a549d5aff88a5bf6c048834b1d2c"}} as unknown as DocumentNode<AdminRejectKeyMutation, AdminRejectKeyMutationVariables>;
export const AdminApproveDappDocument = {"__meta__":{"hash":"sha256:353aa7bb04cce8ef18c2f0b6caca494055b35f3967158598dc85b30ed606ef70"}} as unknown as DocumentNode<AdminApproveDappMutation, AdminApproveDappMutationVariables>;
export const AdminRejectDappDocument = {"__meta__":{"hash":"sha256:2c1e278ed6a2c7846f88b0deb69f907d3544f2bb7a620e3d310cd2e7093afbae"}} as unknown as DocumentNode<AdminRejectDappMutation, AdminRejectDappMutationVariables>;
export const AdminMarketHealthDocument = {"__meta__":{"hash":"sha256:d441a914829a5debbbd8312db53e558d2ccb42eb9a785f4e1b8efa5c5dbe8270"}} as unknown as DocumentNode<AdminMarketHealthQuery, AdminMarketHealthQueryVariables>;
export const AdminServiceStatsDocument = {"__meta__":{"hash":"sha256:a535ac91444b56e3e388f56187754d205501f20c770ba94deb7ace137aeef2e1"}} as unknown as DocumentNode<AdminServiceStatsQuery, AdminServiceStatsQueryVariables>;
export const AdminCoinListDocument = {"__meta__":{"hash":"sha256:536037376bd8b8d41b5c4849e2a38f63b35919725aef01a9f5d71d7a51aa0ccf"}} as unknown as DocumentNode<AdminCoinListQuery, AdminCoinListQueryVariables>;
export const AdminCoinChartDocument = {"__meta__":{"hash":"sha256:98647a7645f283bec769c9b271dfecd895ea6554a8b5a39b87db0a74c70c42bd"}} as unknown as DocumentNode<AdminCoinChartQuery, AdminCoinChartQueryVariables>;
export const AdminCoinCandlesDocument = {"__meta__":{"hash":"sha256:8232b13f24c3e43301bf7fe7d52836ba6387a0813d3749193a968c2e981ed3d2"}} as unknown as DocumentNode<AdminCoinCandlesQuery, AdminCoinCandlesQueryVariables>;
export const PortalMeDocument = {"__meta__":{"hash":"sha256:4b51a8264df6ea2bbbc03ee129716e8fe3d4905236dd2781d453a94292491d34"}} as unknown as DocumentNode<PortalMeQuery, PortalMeQueryVariables>;
export const PortalKeyUsageDocument = {"__meta__":{"hash":"sha256:c785a451bbd347bf6eebd00c55a58001f750781d833665923d115737eb48e322"}} as unknown as DocumentNode<PortalKeyUsageQuery, PortalKeyUsageQueryVariables>;
export const PortalSignOutDocument = {"__meta__":{"hash":"sha256:4e32f807d3e76ab946829bc78715548105dad837366cdca6acf20b6468fddbb0"}} as unknown as DocumentNode<PortalSignOutMutation, PortalSignOutMutationVariables>;
export const PortalRequestApiKeyDocument = {"__meta__":{"hash":"sha256:55e7e317b4247c296a09536d29b46df5a9c8a9332e48d588a2d79fa2f20e1168"}} as unknown as DocumentNode<PortalRequestApiKeyMutation, PortalRequestApiKeyMutationVariables>;
export const PortalRevokeApiKeyDocument = {"__meta__":{"hash":"sha256:7c1da07c511a75d1755e8effd88c35487f350eb8ecaf8f5cfca15e8eb221a283"}} as unknown as DocumentNode<PortalRevokeApiKeyMutation, PortalRevokeApiKeyMutationVariables>;
export const PortalSubmitDappDocument = {"__meta__":{"hash":"sha256:d0418bd92d558fb1b7a702b55de483206a134093be9757ab2cc452eb2a969558"}} as unknown as DocumentNode<PortalSubmitDappMutation, PortalSubmitDappMutationVariables>;
export const WebRequestSignInChallengeDocument = {"__meta__":{"hash":"sha256:4fecbe5eb5d28049bde00a42094bc243c66b2edeefc5b1832ceab560adca1d9c"}} as unknown as DocumentNode<WebRequestSignInChallengeMutation, WebRequestSignInChallengeMutationVariables>;
export const WebSignInDocument = {"__meta__":{"hash":"sha256:1204080808910513fbba328bb2d66b73d5f29c9febe1ec71eed9814ca02179d9"}} as unknown as DocumentNode<WebSignInMutation, WebSignInMutationVariables>;
export const MiningCalculatorDocument = {"__meta__":{"hash":"sha256:1af0ff71e2d66e0f420919425c0495ca99b66af1e2b15f298dcb3cf0d3f212ed"}} as unknown as DocumentNode<MiningCalculatorQuery, MiningCalculatorQueryVariables>;