import type { GraphQLResolveInfo, GraphQLScalarType, GraphQLScalarTypeConfig } from 'graphql';
import type { Account as AccountModel } from '../../../src/accounts/types.ts';
import type { OwnerKeyView as OwnerKeyViewModel } from '../../../src/accounts/api-keys.ts';
import type { OwnDapp as OwnDappModel, StoreDapp as StoreDappModel } from '../../../src/accounts/dapps.ts';
import type { AccountApp as AccountAppModel, AccountAppVersion as AccountAppVersionModel, VersionDocument as VersionDocumentModel, NamedKeyOperation as NamedKeyOperationModel } from '../../../src/accounts/app-usage.ts';
import type { AccountsContext } from '../context.ts';
export type Maybe<T> = T | null;
export type InputMaybe<T> = Maybe<T>;
export type Omit<T, K extends keyof T> = Pick<T, Exclude<keyof T, K>>;
export type RequireFields<T, K extends keyof T> = Omit<T, K> & { [P in K]-?: NonNullable<T[P]> };
/** All built-in and custom scalars, mapped to their actual values */
export type Scalars = {
  ID: { input: string; output: string; }
  String: { input: string; output: string; }
  Boolean: { input: boolean; output: boolean; }
  Int: { input: number; output: number; }
  Float: { input: number; output: number; }
  /** A point in time as an ISO 8601 UTC string with milliseconds, for example `2026-01-01T00:00:00.000Z`. */
  DateTime: { input: string; output: number | string; }
  _FieldSet: { input: unknown; output: unknown; }
};

/** A wallet account, identified by the LTC address it signed in with. */
export type Account = {
  __typename?: 'Account';
  /** The LTC address (bech32 lowercased). */
  address: Scalars['String']['output'];
  /** The account's API keys, newest first. Only the account itself and administrators see them (FORBIDDEN otherwise). */
  apiKeys: Array<ApiKey>;
  /** The account's apps (docs/apps.md), oldest first. Only the account itself and administrators see them. */
  apps: Array<App>;
  /** When the account was created (first sign-in). */
  createdAt: Scalars['DateTime']['output'];
  /** The account's dapp listing requests, newest first. Only the account itself and administrators see them. */
  dappRequests: Array<DappRequest>;
  /** The account id (uuid). */
  id: Scalars['ID']['output'];
  /** Role. */
  role: Role;
};

/** An API key as its owner sees it; the secret is never shown again after `requestApiKey`. */
export type ApiKey = {
  __typename?: 'ApiKey';
  /** When it was requested. */
  createdAt: Scalars['DateTime']['output'];
  /** What the key is for, as the requester wrote it. */
  description: Scalars['String']['output'];
  /** Key id. */
  id: Scalars['ID']['output'];
  /** Last use (written in batches, may lag by 10 seconds); null when never used. */
  lastUsedAt?: Maybe<Scalars['DateTime']['output']>;
  /** Requests per minute. */
  limitPerMinute: Scalars['Int']['output'];
  /**
   * Usage per operation of this key over the last `days` UTC days (1–35, default 30; today included): each MCP tool it
   * called (docs/mcp.md, "Usage per tool"), then each trusted document of its app it ran (docs/apps.md, "Usage per
   * document"), most requested first. Owner, administrators and the operator only.
   */
  operations: Array<KeyOperationUsage>;
  /** The owning account; null for a key issued by `issueApiKey` (no owner). Administrators only (null for others). */
  owner?: Maybe<Account>;
  /** Plan. */
  plan: Plan;
  /** First 12 characters of the key, for telling keys apart. */
  prefix: Scalars['String']['output'];
  /** Why it was rejected; null unless rejected. */
  rejectionReason?: Maybe<Scalars['String']['output']>;
  /** When it was approved or rejected; null before review. */
  reviewedAt?: Maybe<Scalars['DateTime']['output']>;
  /** When it was revoked; null unless revoked. */
  revokedAt?: Maybe<Scalars['DateTime']['output']>;
  /** State. */
  status: ApiKeyStatus;
  /**
   * Requests with this key per minute over the last `minutes` (1–1440, default 60), oldest first, one entry per minute
   * (zeros included): admitted, refused by the rate limit (429) and refused as unauthorized (401: pending, rejected or
   * revoked). REST and GraphQL together. Owner, administrators and the operator only.
   */
  usage: Array<KeyUsageMinute>;
};


/** An API key as its owner sees it; the secret is never shown again after `requestApiKey`. */
export type ApiKeyOperationsArgs = {
  days?: Scalars['Int']['input'];
};


/** An API key as its owner sees it; the secret is never shown again after `requestApiKey`. */
export type ApiKeyUsageArgs = {
  minutes?: Scalars['Int']['input'];
};

/** Result of `requestApiKey` and `issueApiKey`: the new key's secret beside its record. */
export type ApiKeyRequest = {
  __typename?: 'ApiKeyRequest';
  /** The key record (pending until an administrator approves it, unless issued with `approve: true`). */
  apiKey: ApiKey;
  /** The secret key. Shown this once only: store it now. */
  key: Scalars['String']['output'];
};

/** State of an API key: PENDING → APPROVED | REJECTED; APPROVED → REVOKED. */
export enum ApiKeyStatus {
  /** Works on the APIs. */
  Approved = 'approved',
  /** Waiting for review; does not work yet. */
  Pending = 'pending',
  /** Refused; see `rejectionReason`. */
  Rejected = 'rejected',
  /** Withdrawn by its owner or an administrator. */
  Revoked = 'revoked'
}

/** An app of an account (docs/apps.md): its allowed origins, the keys it uses and its published versions. */
export type App = {
  __typename?: 'App';
  /** App id (uuid). */
  id: Scalars['ID']['output'];
  /** The ids of the API keys the app uses. */
  keys: Array<Scalars['ID']['output']>;
  /** Name, unique within the account. */
  name: Scalars['String']['output'];
  /** Allowed browser origins (`https://app.example`); empty: any origin. */
  origins: Array<Scalars['String']['output']>;
  /** Published versions, newest first. */
  versions: Array<AppVersion>;
};


/** An app of an account (docs/apps.md): its allowed origins, the keys it uses and its published versions. */
export type AppVersionsArgs = {
  first?: InputMaybe<Scalars['Int']['input']>;
};

/** A trusted document of an app version. */
export type AppDocument = {
  __typename?: 'AppDocument';
  /** The id a client sends as `documentId`: `sha256:` and the SHA-256 of the body in lowercase hex. */
  id: Scalars['ID']['output'];
  /** The operation's name (the manifest's, else the body's first operation); null when it has none. */
  name?: Maybe<Scalars['String']['output']>;
  /**
   * Requests for this document under this version over the last `days` UTC days (1–35, default 30; today included),
   * by every key of the app: sent by documentId, APQ hash or identical body. A document in several active versions is
   * counted under the newest. Counted by the router as it answers, written within seconds.
   */
  usage: OperationUsage;
};


/** A trusted document of an app version. */
export type AppDocumentUsageArgs = {
  days?: Scalars['Int']['input'];
};

/** A published version of an app: an immutable set of trusted documents. */
export type AppVersion = {
  __typename?: 'AppVersion';
  /** True when its documents run on the app's trusted-only keys. */
  active: Scalars['Boolean']['output'];
  /** When it was published. */
  createdAt: Scalars['DateTime']['output'];
  /** Its trusted documents, in the manifest's order. */
  documents: Array<AppDocument>;
  /** Version label, as published. */
  version: Scalars['String']['output'];
};


/** A published version of an app: an immutable set of trusted documents. */
export type AppVersionDocumentsArgs = {
  first?: InputMaybe<Scalars['Int']['input']>;
};

/** How many operations had an estimated cost in a range. */
export type CostBucket = {
  __typename?: 'CostBucket';
  /** Operations in the bucket. */
  count: Scalars['Int']['output'];
  /** Upper bound of the bucket (inclusive); null for the last bucket (above every bound). */
  upTo?: Maybe<Scalars['Int']['output']>;
};

/** The wallet's access check for a page: whether its origin is the site of an approved dapp. */
export type DappAccess = {
  __typename?: 'DappAccess';
  /** Whether the page gets the wallet API: its origin is the site of an approved (listed) dapp. */
  allowed: Scalars['Boolean']['output'];
  /** Id of the approved dapp the origin belongs to; null when not allowed. */
  dappId?: Maybe<Scalars['ID']['output']>;
  /** The normalised origin that was checked (scheme, host and port; for example `https://app.example.com`). */
  origin: Scalars['String']['output'];
};

/** Fields of a dapp listing request (see docs/dapps.md for the limits). */
export type DappInput = {
  /** Tickers of the chains the dapp uses, distinct. */
  chains: Array<Scalars['String']['input']>;
  /** Contact e-mail (not shown in the store). */
  contactEmail: Scalars['String']['input'];
  /** Description. */
  description: Scalars['String']['input'];
  /** Icon URL (`https://`). */
  icon: Scalars['String']['input'];
  /** Dapp name. */
  name: Scalars['String']['input'];
  /** The dapp's `https://` address. */
  site: Scalars['String']['input'];
};

/** A dapp listing request as its submitter and the administrators see it. */
export type DappRequest = {
  __typename?: 'DappRequest';
  /** The submitting account. */
  account: Account;
  /** Tickers of the chains the dapp uses. */
  chains: Array<Scalars['String']['output']>;
  /** Contact e-mail of the developer. */
  contactEmail: Scalars['String']['output'];
  /** When it was submitted. */
  createdAt: Scalars['DateTime']['output'];
  /** Description. */
  description: Scalars['String']['output'];
  /** Icon URL. */
  icon: Scalars['String']['output'];
  /** Request id. */
  id: Scalars['ID']['output'];
  /** Dapp name. */
  name: Scalars['String']['output'];
  /** The site's origin: what the wallet's access check compares. */
  origin: Scalars['String']['output'];
  /** Notes of the latest review decision; null before review or when none were given. */
  reviewNotes?: Maybe<Scalars['String']['output']>;
  /** When it was last reviewed; null before review. */
  reviewedAt?: Maybe<Scalars['DateTime']['output']>;
  /** `account:<id>` or `operator` of the latest reviewer. Administrators only (null for others). */
  reviewedBy?: Maybe<Scalars['String']['output']>;
  /** The dapp's https address as given. */
  site: Scalars['String']['output'];
  /** State. */
  status: DappStatus;
};

/** State of a dapp listing request: SUBMITTED → APPROVED → DELISTED, or SUBMITTED → REJECTED. */
export enum DappStatus {
  /** Listed in the store; the site gets the wallet API. */
  Approved = 'approved',
  /** Withdrawn from the store (final). */
  Delisted = 'delisted',
  /** Refused (final); see `reviewNotes`. */
  Rejected = 'rejected',
  /** Waiting for review. */
  Submitted = 'submitted'
}

/** One operation of one API key over a window: an MCP tool by name, or a trusted document of an app version. */
export type KeyOperationUsage = {
  __typename?: 'KeyOperationUsage';
  /** The app's name (documents); null for a tool. */
  app?: Maybe<Scalars['String']['output']>;
  /** The sum of the answers' measured cost. */
  cost: Scalars['Int']['output'];
  /** The document's id (`sha256:<hex>`); null for a tool. */
  documentId?: Maybe<Scalars['ID']['output']>;
  /** Answered with GraphQL errors, or a 4xx/5xx after admission. */
  errors: Scalars['Int']['output'];
  /** Document or tool. */
  kind: OperationKind;
  /** The tool's name, or the document's operation name (its id when it has none). */
  name: Scalars['String']['output'];
  /** Refused by the key's state, its budget, its app's policy or origin. */
  refusals: Scalars['Int']['output'];
  /** Requests (answered or refused). */
  requests: Scalars['Int']['output'];
  /** The app version the document is counted under; null for a tool. */
  version?: Maybe<Scalars['String']['output']>;
};

/** One minute of one key's requests. */
export type KeyUsageMinute = {
  __typename?: 'KeyUsageMinute';
  /** Requests admitted. */
  admitted: Scalars['Int']['output'];
  /** Start of the minute. */
  minute: Scalars['DateTime']['output'];
  /** Requests refused by the rate limit (429). */
  rateLimited: Scalars['Int']['output'];
  /** Requests refused as unauthorized (401). */
  unauthorized: Scalars['Int']['output'];
};

/** The root mutation type: every subgraph adds its changes; each field says who may call it. */
export type Mutation = {
  __typename?: 'Mutation';
  /** Revokes an approved key of any account (KEY_STATE_CONFLICT from any other state). Administrators only. */
  adminRevokeApiKey: ApiKey;
  /** Approves a pending API key. Administrators only. */
  approveApiKey: ApiKey;
  /** Approves a submitted dapp: it enters the store. Administrators only. */
  approveDapp: DappRequest;
  /**
   * Creates a name-service partner credential; its secret is in this result only. Administrators only. The partner's
   * own operations (registering names and linking addresses for its users) stay on the REST API
   * (`/api/partner/*`): they are signed with HMAC over the exact HTTP request, which a GraphQL field cannot carry.
   */
  createPartner: PartnerCredential;
  /** Withdraws an approved dapp from the store. Administrators only. */
  delistDapp: DappRequest;
  /**
   * Gives the account of `address` the administrator role, creating the account if it never signed in. Granting the
   * role to an administrator changes nothing. Administrators only.
   */
  grantAdmin: Account;
  /**
   * Issues an API key owned by no account (operators and automation), pending review unless `approve` is true.
   * Administrators only.
   */
  issueApiKey: ApiKeyRequest;
  /** Rejects a pending API key. Administrators only. */
  rejectApiKey: ApiKey;
  /** Rejects a submitted dapp. Administrators only. */
  rejectDapp: DappRequest;
  /** Requests an API key for the signed-in account; pending until approved. */
  requestApiKey: ApiKeyRequest;
  /** Issues a single-use sign-in challenge for `address`, to sign before `signIn`. Public. */
  requestSignInChallenge: SignInChallenge;
  /**
   * Takes the administrator role from the account of `address` (ACCOUNT_NOT_FOUND when there is none); from a user it
   * changes nothing. Administrators only.
   */
  revokeAdmin: Account;
  /** Revokes an approved key of the signed-in account (KEY_STATE_CONFLICT from any other state). */
  revokeApiKey: ApiKey;
  /**
   * Exchanges a signed challenge for a session (creating the account on its first sign-in). Public. Refused with
   * CHALLENGE_NOT_FOUND, CHALLENGE_USED, CHALLENGE_EXPIRED, ADDRESS_MISMATCH or BAD_SIGNATURE.
   */
  signIn: Session;
  /** Ends the session of the request's bearer token; the token is refused from then on. Needs a session. */
  signOut: Scalars['Boolean']['output'];
  /** Submits a dapp listing request (at most 3 per 24 hours). */
  submitDapp: DappRequest;
};


/** The root mutation type: every subgraph adds its changes; each field says who may call it. */
export type MutationAdminRevokeApiKeyArgs = {
  id: Scalars['ID']['input'];
  reason?: InputMaybe<Scalars['String']['input']>;
};


/** The root mutation type: every subgraph adds its changes; each field says who may call it. */
export type MutationApproveApiKeyArgs = {
  id: Scalars['ID']['input'];
  limitPerMinute?: InputMaybe<Scalars['Int']['input']>;
  reason?: InputMaybe<Scalars['String']['input']>;
};


/** The root mutation type: every subgraph adds its changes; each field says who may call it. */
export type MutationApproveDappArgs = {
  id: Scalars['ID']['input'];
  notes?: InputMaybe<Scalars['String']['input']>;
};


/** The root mutation type: every subgraph adds its changes; each field says who may call it. */
export type MutationCreatePartnerArgs = {
  name: Scalars['String']['input'];
};


/** The root mutation type: every subgraph adds its changes; each field says who may call it. */
export type MutationDelistDappArgs = {
  id: Scalars['ID']['input'];
  notes: Scalars['String']['input'];
};


/** The root mutation type: every subgraph adds its changes; each field says who may call it. */
export type MutationGrantAdminArgs = {
  address: Scalars['String']['input'];
  reason?: InputMaybe<Scalars['String']['input']>;
};


/** The root mutation type: every subgraph adds its changes; each field says who may call it. */
export type MutationIssueApiKeyArgs = {
  approve?: InputMaybe<Scalars['Boolean']['input']>;
  description?: InputMaybe<Scalars['String']['input']>;
  limitPerMinute?: InputMaybe<Scalars['Int']['input']>;
  plan: Plan;
};


/** The root mutation type: every subgraph adds its changes; each field says who may call it. */
export type MutationRejectApiKeyArgs = {
  id: Scalars['ID']['input'];
  reason: Scalars['String']['input'];
};


/** The root mutation type: every subgraph adds its changes; each field says who may call it. */
export type MutationRejectDappArgs = {
  id: Scalars['ID']['input'];
  notes: Scalars['String']['input'];
};


/** The root mutation type: every subgraph adds its changes; each field says who may call it. */
export type MutationRequestApiKeyArgs = {
  description: Scalars['String']['input'];
  plan: Plan;
};


/** The root mutation type: every subgraph adds its changes; each field says who may call it. */
export type MutationRequestSignInChallengeArgs = {
  address: Scalars['String']['input'];
};


/** The root mutation type: every subgraph adds its changes; each field says who may call it. */
export type MutationRevokeAdminArgs = {
  address: Scalars['String']['input'];
  reason?: InputMaybe<Scalars['String']['input']>;
};


/** The root mutation type: every subgraph adds its changes; each field says who may call it. */
export type MutationRevokeApiKeyArgs = {
  id: Scalars['ID']['input'];
  reason?: InputMaybe<Scalars['String']['input']>;
};


/** The root mutation type: every subgraph adds its changes; each field says who may call it. */
export type MutationSignInArgs = {
  address: Scalars['String']['input'];
  nonce?: InputMaybe<Scalars['String']['input']>;
  signature: Scalars['String']['input'];
};


/** The root mutation type: every subgraph adds its changes; each field says who may call it. */
export type MutationSubmitDappArgs = {
  input: DappInput;
};

/** Kind of an operation counted per key. */
export enum OperationKind {
  /** A trusted document of one of the key's app versions. */
  Document = 'document',
  /** A tool call on the MCP endpoint (`/mcp`). */
  Tool = 'tool'
}

/** Counts of one operation over a window. */
export type OperationUsage = {
  __typename?: 'OperationUsage';
  /** The sum of the answers' measured cost. */
  cost: Scalars['Int']['output'];
  /** Answered with GraphQL errors, or a 4xx/5xx after admission. */
  errors: Scalars['Int']['output'];
  /** Refused by the key's state, its budget, its app's policy or origin. */
  refusals: Scalars['Int']['output'];
  /** Requests (answered or refused). */
  requests: Scalars['Int']['output'];
};

/** Position of a page in a cursor connection. */
export type PageInfo = {
  __typename?: 'PageInfo';
  /** Cursor of the last item of the page; null when the page is empty. */
  endCursor?: Maybe<Scalars['String']['output']>;
  /** Whether there are items after this page. */
  hasNextPage: Scalars['Boolean']['output'];
  /** Whether there are items before this page. */
  hasPreviousPage: Scalars['Boolean']['output'];
  /** Cursor of the first item of the page; null when the page is empty. */
  startCursor?: Maybe<Scalars['String']['output']>;
};

/**
 * A name-service partner: registers names and links addresses for its users through the HMAC-signed REST API
 * (`/api/partner/*`, docs/names.md), which has no GraphQL form.
 */
export type Partner = {
  __typename?: 'Partner';
  /** When the credential was created. */
  createdAt: Scalars['DateTime']['output'];
  /** Partner id (uuid): the `x-partner-id` header of its signed requests. */
  id: Scalars['ID']['output'];
  /** Name, as the administrator gave it. */
  name: Scalars['String']['output'];
};

/** Result of `createPartner`: the partner's secret beside its record. */
export type PartnerCredential = {
  __typename?: 'PartnerCredential';
  /** The partner. */
  partner: Partner;
  /** The partner secret (`cwp_…`), the key of its request signatures. Shown this once only: store it now. */
  secret: Scalars['String']['output'];
};

/** Plan of an API key. */
export enum Plan {
  /** Up to 10,000 requests per minute, set on approval. */
  Enterprise = 'enterprise',
  /** 600 requests per minute. */
  Free = 'free',
  /** 3,000 requests per minute. */
  Pro = 'pro'
}

/** One minute of one plan's requests. */
export type PlanMinute = {
  __typename?: 'PlanMinute';
  /** Answers with a 4xx status other than 401 and 429. */
  clientErrors: Scalars['Int']['output'];
  /** Start of the minute. */
  minute: Scalars['DateTime']['output'];
  /** `keyless`, `free`, `pro` or `enterprise`. */
  plan: Scalars['String']['output'];
  /** Requests refused by the rate limit (429). */
  rateLimited: Scalars['Int']['output'];
  /** Requests answered (any status). */
  requests: Scalars['Int']['output'];
  /** Answers with a 5xx status. */
  serverErrors: Scalars['Int']['output'];
  /** Requests refused as unauthorized (401). */
  unauthorized: Scalars['Int']['output'];
};

/** The root query type: every subgraph adds its entry points. */
export type Query = {
  __typename?: 'Query';
  /** Every administrator, oldest first. Administrators only. */
  admins: Array<Account>;
  /**
   * One API key by id: administrators see any key, a signed-in account its own (AUTH_REQUIRED without a session).
   * Null when there is no such key, and for a non-administrator when it is another account's.
   */
  apiKey?: Maybe<ApiKey>;
  /**
   * Whether a page at `origin` gets the wallet API (its origin is the site of an approved dapp). Public; a delisting
   * applies at once. A value that is not an http(s) URL is INVALID_PARAMETER.
   */
  dappAccess: DappAccess;
  /** The public dapp store: approved dapps. */
  dappStore: StoreDappConnection;
  /** The signed-in account; null without a session. */
  me?: Maybe<Account>;
  /** API keys for review, oldest first. Administrators only. */
  reviewApiKeys: Array<ApiKey>;
  /** Dapp listing requests for review, oldest first. Administrators only. */
  reviewDapps: Array<DappRequest>;
  /** Request and error rates per plan and the query-cost distribution over the last `minutes`. Administrators and the operator only. */
  serviceStats: ServiceStats;
};


/** The root query type: every subgraph adds its entry points. */
export type QueryApiKeyArgs = {
  id: Scalars['ID']['input'];
};


/** The root query type: every subgraph adds its entry points. */
export type QueryDappAccessArgs = {
  origin: Scalars['String']['input'];
};


/** The root query type: every subgraph adds its entry points. */
export type QueryDappStoreArgs = {
  after?: InputMaybe<Scalars['String']['input']>;
  chain?: InputMaybe<Scalars['String']['input']>;
  first?: InputMaybe<Scalars['Int']['input']>;
};


/** The root query type: every subgraph adds its entry points. */
export type QueryReviewApiKeysArgs = {
  status?: InputMaybe<ApiKeyStatus>;
};


/** The root query type: every subgraph adds its entry points. */
export type QueryReviewDappsArgs = {
  status?: InputMaybe<DappStatus>;
};


/** The root query type: every subgraph adds its entry points. */
export type QueryServiceStatsArgs = {
  minutes?: Scalars['Int']['input'];
};

/** Role of an account. */
export enum Role {
  /** An administrator: reviews API keys and dapps. */
  Admin = 'admin',
  /** A wallet user. */
  User = 'user'
}

/** Request statistics of the whole service over a window, for the administrator dashboard. */
export type ServiceStats = {
  __typename?: 'ServiceStats';
  /** GraphQL operations by estimated query cost over the window (the router's buckets). */
  costHistogram: Array<CostBucket>;
  /** Start of the window. */
  from: Scalars['DateTime']['output'];
  /** Requests per minute and plan (REST and GraphQL together), oldest first; minutes without requests are omitted. */
  perPlan: Array<PlanMinute>;
  /** End of the window. */
  to: Scalars['DateTime']['output'];
};

/** A new session: send `Authorization: Bearer <token>` to act as the account, until `expiresAt` or `signOut`. */
export type Session = {
  __typename?: 'Session';
  /** The signed-in account (created on the address's first sign-in). */
  account: Account;
  /** When the session ends (24 hours after sign-in). */
  expiresAt: Scalars['DateTime']['output'];
  /** The session token. Shown this once only (the server keeps only its hash): store it now. */
  token: Scalars['String']['output'];
};

/**
 * A sign-in challenge: sign `challenge` as a Litecoin signed message with the key of `address`, then call `signIn`
 * before `expiresAt`. Single-use.
 */
export type SignInChallenge = {
  __typename?: 'SignInChallenge';
  /** The address signing in, as the server normalised it (bech32 lowercased). */
  address: Scalars['String']['output'];
  /** The exact text to sign (Sign-In with X, CAIP-122: domain, address, URI, chain, nonce and times, one per line). */
  challenge: Scalars['String']['output'];
  /** The server's host (and port) the text names on its first line; a wallet compares it with the page asking. */
  domain: Scalars['String']['output'];
  /** After this time the challenge is refused (5 minutes after issue). */
  expiresAt: Scalars['DateTime']['output'];
  /** When the challenge was issued. */
  issuedAt: Scalars['DateTime']['output'];
  /** Names this challenge in `signIn` (32 hex characters). */
  nonce: Scalars['String']['output'];
};

/** An approved dapp in the public store. */
export type StoreDapp = {
  __typename?: 'StoreDapp';
  /** When it was approved. */
  approvedAt: Scalars['DateTime']['output'];
  /** Chain tickers. */
  chains: Array<Scalars['String']['output']>;
  /** Description. */
  description: Scalars['String']['output'];
  /** Icon URL. */
  icon: Scalars['String']['output'];
  /** Dapp id. */
  id: Scalars['ID']['output'];
  /** Name. */
  name: Scalars['String']['output'];
  /** Site origin. */
  origin: Scalars['String']['output'];
  /** Site address. */
  site: Scalars['String']['output'];
};

/** A page of the dapp store (Relay cursor connection). */
export type StoreDappConnection = {
  __typename?: 'StoreDappConnection';
  /** The dapps of this page. */
  edges: Array<StoreDappEdge>;
  /** Where this page sits in the whole list. */
  pageInfo: PageInfo;
  /** Approved dapps matching the filter, over all pages. */
  totalCount: Scalars['Int']['output'];
};

/** A store dapp and its cursor. */
export type StoreDappEdge = {
  __typename?: 'StoreDappEdge';
  /** Opaque cursor; pass it as `after` to continue after this dapp. */
  cursor: Scalars['String']['output'];
  /** The dapp. */
  node: StoreDapp;
};

export type WithIndex<TObject> = TObject & Record<string, any>;
export type ResolversObject<TObject> = WithIndex<TObject>;

export type ResolverTypeWrapper<T> = Promise<T> | T;

export type ReferenceResolver<TResult, TReference, TContext> = (
      reference: TReference,
      context: TContext,
      info: GraphQLResolveInfo
    ) => Promise<TResult> | TResult;

      type ScalarCheck<T, S> = S extends true ? T : NullableCheck<T, S>;
      type NullableCheck<T, S> = Maybe<T> extends T ? Maybe<ListCheck<NonNullable<T>, S>> : ListCheck<T, S>;
      type ListCheck<T, S> = T extends (infer U)[] ? NullableCheck<U, S>[] : GraphQLRecursivePick<T, S>;
      export type GraphQLRecursivePick<T, S> = { [K in keyof T & keyof S]: ScalarCheck<T[K], S[K]> };
    

export type ResolverWithResolve<TResult, TParent, TContext, TArgs> = {
  resolve: ResolverFn<TResult, TParent, TContext, TArgs>;
};
export type Resolver<TResult, TParent = Record<PropertyKey, never>, TContext = Record<PropertyKey, never>, TArgs = Record<PropertyKey, never>> = ResolverFn<TResult, TParent, TContext, TArgs> | ResolverWithResolve<TResult, TParent, TContext, TArgs>;

export type ResolverFn<TResult, TParent, TContext, TArgs> = (
  parent: TParent,
  args: TArgs,
  context: TContext,
  info: GraphQLResolveInfo
) => Promise<TResult> | TResult;

export type SubscriptionSubscribeFn<TResult, TParent, TContext, TArgs> = (
  parent: TParent,
  args: TArgs,
  context: TContext,
  info: GraphQLResolveInfo
) => AsyncIterable<TResult> | Promise<AsyncIterable<TResult>>;

export type SubscriptionResolveFn<TResult, TParent, TContext, TArgs> = (
  parent: TParent,
  args: TArgs,
  context: TContext,
  info: GraphQLResolveInfo
) => TResult | Promise<TResult>;

export interface SubscriptionSubscriberObject<TResult, TKey extends string, TParent, TContext, TArgs> {
  subscribe: SubscriptionSubscribeFn<{ [key in TKey]: TResult }, TParent, TContext, TArgs>;
  resolve?: SubscriptionResolveFn<TResult, { [key in TKey]: TResult }, TContext, TArgs>;
}

export interface SubscriptionResolverObject<TResult, TParent, TContext, TArgs> {
  subscribe: SubscriptionSubscribeFn<any, TParent, TContext, TArgs>;
  resolve: SubscriptionResolveFn<TResult, any, TContext, TArgs>;
}

export type SubscriptionObject<TResult, TKey extends string, TParent, TContext, TArgs> =
  | SubscriptionSubscriberObject<TResult, TKey, TParent, TContext, TArgs>
  | SubscriptionResolverObject<TResult, TParent, TContext, TArgs>;

export type SubscriptionResolver<TResult, TKey extends string, TParent = Record<PropertyKey, never>, TContext = Record<PropertyKey, never>, TArgs = Record<PropertyKey, never>> =
  | ((...args: any[]) => SubscriptionObject<TResult, TKey, TParent, TContext, TArgs>)
  | SubscriptionObject<TResult, TKey, TParent, TContext, TArgs>;

export type TypeResolveFn<TTypes, TParent = Record<PropertyKey, never>, TContext = Record<PropertyKey, never>> = (
  parent: TParent,
  context: TContext,
  info: GraphQLResolveInfo
) => Maybe<TTypes> | Promise<Maybe<TTypes>>;

export type IsTypeOfResolverFn<T = Record<PropertyKey, never>, TContext = Record<PropertyKey, never>> = (obj: T, context: TContext, info: GraphQLResolveInfo) => boolean | Promise<boolean>;

export type NextResolverFn<T> = () => Promise<T>;

export type DirectiveResolverFn<TResult = Record<PropertyKey, never>, TParent = Record<PropertyKey, never>, TContext = Record<PropertyKey, never>, TArgs = Record<PropertyKey, never>> = (
  next: NextResolverFn<TResult>,
  parent: TParent,
  args: TArgs,
  context: TContext,
  info: GraphQLResolveInfo
) => TResult | Promise<TResult>;

/** Mapping of federation types */
export type FederationTypes = ResolversObject<{
  Account: Account;
}>;

/** Mapping of federation reference types */
export type FederationReferenceTypes = ResolversObject<{
  Account:
    ( { __typename: 'Account' }
    & GraphQLRecursivePick<FederationTypes['Account'], {"id":true}> );
}>;



/** Mapping between all available schema types and the resolvers types */
export type ResolversTypes = ResolversObject<{
  Account: ResolverTypeWrapper<AccountModel>;
  String: ResolverTypeWrapper<Scalars['String']['output']>;
  ID: ResolverTypeWrapper<Scalars['ID']['output']>;
  ApiKey: ResolverTypeWrapper<OwnerKeyViewModel>;
  Int: ResolverTypeWrapper<Scalars['Int']['output']>;
  ApiKeyRequest: ResolverTypeWrapper<Omit<ApiKeyRequest, 'apiKey'> & { apiKey: ResolversTypes['ApiKey'] }>;
  ApiKeyStatus: null;
  App: ResolverTypeWrapper<AccountAppModel>;
  AppDocument: ResolverTypeWrapper<VersionDocumentModel>;
  AppVersion: ResolverTypeWrapper<AccountAppVersionModel>;
  Boolean: ResolverTypeWrapper<Scalars['Boolean']['output']>;
  CostBucket: ResolverTypeWrapper<CostBucket>;
  DappAccess: ResolverTypeWrapper<DappAccess>;
  DappInput: DappInput;
  DappRequest: ResolverTypeWrapper<OwnDappModel>;
  DappStatus: null;
  DateTime: ResolverTypeWrapper<Scalars['DateTime']['output']>;
  KeyOperationUsage: ResolverTypeWrapper<NamedKeyOperationModel>;
  KeyUsageMinute: ResolverTypeWrapper<KeyUsageMinute>;
  Mutation: ResolverTypeWrapper<Record<PropertyKey, never>>;
  OperationKind: null;
  OperationUsage: ResolverTypeWrapper<OperationUsage>;
  PageInfo: ResolverTypeWrapper<PageInfo>;
  Partner: ResolverTypeWrapper<Partner>;
  PartnerCredential: ResolverTypeWrapper<PartnerCredential>;
  Plan: null;
  PlanMinute: ResolverTypeWrapper<PlanMinute>;
  Query: ResolverTypeWrapper<Record<PropertyKey, never>>;
  Role: null;
  ServiceStats: ResolverTypeWrapper<ServiceStats>;
  Session: ResolverTypeWrapper<Omit<Session, 'account'> & { account: ResolversTypes['Account'] }>;
  SignInChallenge: ResolverTypeWrapper<SignInChallenge>;
  StoreDapp: ResolverTypeWrapper<StoreDappModel>;
  StoreDappConnection: ResolverTypeWrapper<Omit<StoreDappConnection, 'edges'> & { edges: Array<ResolversTypes['StoreDappEdge']> }>;
  StoreDappEdge: ResolverTypeWrapper<Omit<StoreDappEdge, 'node'> & { node: ResolversTypes['StoreDapp'] }>;
}>;

/** Mapping between all available schema types and the resolvers parents */
export type ResolversParentTypes = ResolversObject<{
  Account: AccountModel;
  String: Scalars['String']['output'];
  ID: Scalars['ID']['output'];
  ApiKey: OwnerKeyViewModel;
  Int: Scalars['Int']['output'];
  ApiKeyRequest: Omit<ApiKeyRequest, 'apiKey'> & { apiKey: ResolversParentTypes['ApiKey'] };
  App: AccountAppModel;
  AppDocument: VersionDocumentModel;
  AppVersion: AccountAppVersionModel;
  Boolean: Scalars['Boolean']['output'];
  CostBucket: CostBucket;
  DappAccess: DappAccess;
  DappInput: DappInput;
  DappRequest: OwnDappModel;
  DateTime: Scalars['DateTime']['output'];
  KeyOperationUsage: NamedKeyOperationModel;
  KeyUsageMinute: KeyUsageMinute;
  Mutation: Record<PropertyKey, never>;
  OperationUsage: OperationUsage;
  PageInfo: PageInfo;
  Partner: Partner;
  PartnerCredential: PartnerCredential;
  PlanMinute: PlanMinute;
  Query: Record<PropertyKey, never>;
  ServiceStats: ServiceStats;
  Session: Omit<Session, 'account'> & { account: ResolversParentTypes['Account'] };
  SignInChallenge: SignInChallenge;
  StoreDapp: StoreDappModel;
  StoreDappConnection: Omit<StoreDappConnection, 'edges'> & { edges: Array<ResolversParentTypes['StoreDappEdge']> };
  StoreDappEdge: Omit<StoreDappEdge, 'node'> & { node: ResolversParentTypes['StoreDapp'] };
}>;

export type AccountResolvers<ContextType = AccountsContext, ParentType extends ResolversParentTypes['Account'] = ResolversParentTypes['Account'], FederationReferenceType extends FederationReferenceTypes['Account'] = FederationReferenceTypes['Account']> = ResolversObject<{
  __resolveReference?: ReferenceResolver<Maybe<ResolversTypes['Account']> | FederationReferenceType, FederationReferenceType, ContextType>;
  address?: Resolver<ResolversTypes['String'], ParentType, ContextType>;
  apiKeys?: Resolver<Array<ResolversTypes['ApiKey']>, ParentType, ContextType>;
  apps?: Resolver<Array<ResolversTypes['App']>, ParentType, ContextType>;
  createdAt?: Resolver<ResolversTypes['DateTime'], ParentType, ContextType>;
  dappRequests?: Resolver<Array<ResolversTypes['DappRequest']>, ParentType, ContextType>;
  id?: Resolver<ResolversTypes['ID'], ParentType, ContextType>;
  role?: Resolver<ResolversTypes['Role'], ParentType, ContextType>;
}>;

export type ApiKeyResolvers<ContextType = AccountsContext, ParentType extends ResolversParentTypes['ApiKey'] = ResolversParentTypes['ApiKey']> = ResolversObject<{
  createdAt?: Resolver<ResolversTypes['DateTime'], ParentType, ContextType>;
  description?: Resolver<ResolversTypes['String'], ParentType, ContextType>;
  id?: Resolver<ResolversTypes['ID'], ParentType, ContextType>;
  lastUsedAt?: Resolver<Maybe<ResolversTypes['DateTime']>, ParentType, ContextType>;
  limitPerMinute?: Resolver<ResolversTypes['Int'], ParentType, ContextType>;
  operations?: Resolver<Array<ResolversTypes['KeyOperationUsage']>, ParentType, ContextType, RequireFields<ApiKeyOperationsArgs, 'days'>>;
  owner?: Resolver<Maybe<ResolversTypes['Account']>, ParentType, ContextType>;
  plan?: Resolver<ResolversTypes['Plan'], ParentType, ContextType>;
  prefix?: Resolver<ResolversTypes['String'], ParentType, ContextType>;
  rejectionReason?: Resolver<Maybe<ResolversTypes['String']>, ParentType, ContextType>;
  reviewedAt?: Resolver<Maybe<ResolversTypes['DateTime']>, ParentType, ContextType>;
  revokedAt?: Resolver<Maybe<ResolversTypes['DateTime']>, ParentType, ContextType>;
  status?: Resolver<ResolversTypes['ApiKeyStatus'], ParentType, ContextType>;
  usage?: Resolver<Array<ResolversTypes['KeyUsageMinute']>, ParentType, ContextType, RequireFields<ApiKeyUsageArgs, 'minutes'>>;
}>;

export type ApiKeyRequestResolvers<ContextType = AccountsContext, ParentType extends ResolversParentTypes['ApiKeyRequest'] = ResolversParentTypes['ApiKeyRequest']> = ResolversObject<{
  apiKey?: Resolver<ResolversTypes['ApiKey'], ParentType, ContextType>;
  key?: Resolver<ResolversTypes['String'], ParentType, ContextType>;
}>;

export type ApiKeyStatusResolvers = { APPROVED: 'approved', PENDING: 'pending', REJECTED: 'rejected', REVOKED: 'revoked' };

export type AppResolvers<ContextType = AccountsContext, ParentType extends ResolversParentTypes['App'] = ResolversParentTypes['App']> = ResolversObject<{
  id?: Resolver<ResolversTypes['ID'], ParentType, ContextType>;
  keys?: Resolver<Array<ResolversTypes['ID']>, ParentType, ContextType>;
  name?: Resolver<ResolversTypes['String'], ParentType, ContextType>;
  origins?: Resolver<Array<ResolversTypes['String']>, ParentType, ContextType>;
  versions?: Resolver<Array<ResolversTypes['AppVersion']>, ParentType, ContextType, RequireFields<AppVersionsArgs, 'first'>>;
}>;

export type AppDocumentResolvers<ContextType = AccountsContext, ParentType extends ResolversParentTypes['AppDocument'] = ResolversParentTypes['AppDocument']> = ResolversObject<{
  id?: Resolver<ResolversTypes['ID'], ParentType, ContextType>;
  name?: Resolver<Maybe<ResolversTypes['String']>, ParentType, ContextType>;
  usage?: Resolver<ResolversTypes['OperationUsage'], ParentType, ContextType, RequireFields<AppDocumentUsageArgs, 'days'>>;
}>;

export type AppVersionResolvers<ContextType = AccountsContext, ParentType extends ResolversParentTypes['AppVersion'] = ResolversParentTypes['AppVersion']> = ResolversObject<{
  active?: Resolver<ResolversTypes['Boolean'], ParentType, ContextType>;
  createdAt?: Resolver<ResolversTypes['DateTime'], ParentType, ContextType>;
  documents?: Resolver<Array<ResolversTypes['AppDocument']>, ParentType, ContextType, RequireFields<AppVersionDocumentsArgs, 'first'>>;
  version?: Resolver<ResolversTypes['String'], ParentType, ContextType>;
}>;

export type CostBucketResolvers<ContextType = AccountsContext, ParentType extends ResolversParentTypes['CostBucket'] = ResolversParentTypes['CostBucket']> = ResolversObject<{
  count?: Resolver<ResolversTypes['Int'], ParentType, ContextType>;
  upTo?: Resolver<Maybe<ResolversTypes['Int']>, ParentType, ContextType>;
}>;

export type DappAccessResolvers<ContextType = AccountsContext, ParentType extends ResolversParentTypes['DappAccess'] = ResolversParentTypes['DappAccess']> = ResolversObject<{
  allowed?: Resolver<ResolversTypes['Boolean'], ParentType, ContextType>;
  dappId?: Resolver<Maybe<ResolversTypes['ID']>, ParentType, ContextType>;
  origin?: Resolver<ResolversTypes['String'], ParentType, ContextType>;
}>;

export type DappRequestResolvers<ContextType = AccountsContext, ParentType extends ResolversParentTypes['DappRequest'] = ResolversParentTypes['DappRequest']> = ResolversObject<{
  account?: Resolver<ResolversTypes['Account'], ParentType, ContextType>;
  chains?: Resolver<Array<ResolversTypes['String']>, ParentType, ContextType>;
  contactEmail?: Resolver<ResolversTypes['String'], ParentType, ContextType>;
  createdAt?: Resolver<ResolversTypes['DateTime'], ParentType, ContextType>;
  description?: Resolver<ResolversTypes['String'], ParentType, ContextType>;
  icon?: Resolver<ResolversTypes['String'], ParentType, ContextType>;
  id?: Resolver<ResolversTypes['ID'], ParentType, ContextType>;
  name?: Resolver<ResolversTypes['String'], ParentType, ContextType>;
  origin?: Resolver<ResolversTypes['String'], ParentType, ContextType>;
  reviewNotes?: Resolver<Maybe<ResolversTypes['String']>, ParentType, ContextType>;
  reviewedAt?: Resolver<Maybe<ResolversTypes['DateTime']>, ParentType, ContextType>;
  reviewedBy?: Resolver<Maybe<ResolversTypes['String']>, ParentType, ContextType>;
  site?: Resolver<ResolversTypes['String'], ParentType, ContextType>;
  status?: Resolver<ResolversTypes['DappStatus'], ParentType, ContextType>;
}>;

export type DappStatusResolvers = { APPROVED: 'approved', DELISTED: 'delisted', REJECTED: 'rejected', SUBMITTED: 'submitted' };

export interface DateTimeScalarConfig extends GraphQLScalarTypeConfig<ResolversTypes['DateTime'], any> {
  name: 'DateTime';
}

export type KeyOperationUsageResolvers<ContextType = AccountsContext, ParentType extends ResolversParentTypes['KeyOperationUsage'] = ResolversParentTypes['KeyOperationUsage']> = ResolversObject<{
  app?: Resolver<Maybe<ResolversTypes['String']>, ParentType, ContextType>;
  cost?: Resolver<ResolversTypes['Int'], ParentType, ContextType>;
  documentId?: Resolver<Maybe<ResolversTypes['ID']>, ParentType, ContextType>;
  errors?: Resolver<ResolversTypes['Int'], ParentType, ContextType>;
  kind?: Resolver<ResolversTypes['OperationKind'], ParentType, ContextType>;
  name?: Resolver<ResolversTypes['String'], ParentType, ContextType>;
  refusals?: Resolver<ResolversTypes['Int'], ParentType, ContextType>;
  requests?: Resolver<ResolversTypes['Int'], ParentType, ContextType>;
  version?: Resolver<Maybe<ResolversTypes['String']>, ParentType, ContextType>;
}>;

export type KeyUsageMinuteResolvers<ContextType = AccountsContext, ParentType extends ResolversParentTypes['KeyUsageMinute'] = ResolversParentTypes['KeyUsageMinute']> = ResolversObject<{
  admitted?: Resolver<ResolversTypes['Int'], ParentType, ContextType>;
  minute?: Resolver<ResolversTypes['DateTime'], ParentType, ContextType>;
  rateLimited?: Resolver<ResolversTypes['Int'], ParentType, ContextType>;
  unauthorized?: Resolver<ResolversTypes['Int'], ParentType, ContextType>;
}>;

export type MutationResolvers<ContextType = AccountsContext, ParentType extends ResolversParentTypes['Mutation'] = ResolversParentTypes['Mutation']> = ResolversObject<{
  adminRevokeApiKey?: Resolver<ResolversTypes['ApiKey'], ParentType, ContextType, RequireFields<MutationAdminRevokeApiKeyArgs, 'id'>>;
  approveApiKey?: Resolver<ResolversTypes['ApiKey'], ParentType, ContextType, RequireFields<MutationApproveApiKeyArgs, 'id'>>;
  approveDapp?: Resolver<ResolversTypes['DappRequest'], ParentType, ContextType, RequireFields<MutationApproveDappArgs, 'id'>>;
  createPartner?: Resolver<ResolversTypes['PartnerCredential'], ParentType, ContextType, RequireFields<MutationCreatePartnerArgs, 'name'>>;
  delistDapp?: Resolver<ResolversTypes['DappRequest'], ParentType, ContextType, RequireFields<MutationDelistDappArgs, 'id' | 'notes'>>;
  grantAdmin?: Resolver<ResolversTypes['Account'], ParentType, ContextType, RequireFields<MutationGrantAdminArgs, 'address'>>;
  issueApiKey?: Resolver<ResolversTypes['ApiKeyRequest'], ParentType, ContextType, RequireFields<MutationIssueApiKeyArgs, 'approve' | 'plan'>>;
  rejectApiKey?: Resolver<ResolversTypes['ApiKey'], ParentType, ContextType, RequireFields<MutationRejectApiKeyArgs, 'id' | 'reason'>>;
  rejectDapp?: Resolver<ResolversTypes['DappRequest'], ParentType, ContextType, RequireFields<MutationRejectDappArgs, 'id' | 'notes'>>;
  requestApiKey?: Resolver<ResolversTypes['ApiKeyRequest'], ParentType, ContextType, RequireFields<MutationRequestApiKeyArgs, 'description' | 'plan'>>;
  requestSignInChallenge?: Resolver<ResolversTypes['SignInChallenge'], ParentType, ContextType, RequireFields<MutationRequestSignInChallengeArgs, 'address'>>;
  revokeAdmin?: Resolver<ResolversTypes['Account'], ParentType, ContextType, RequireFields<MutationRevokeAdminArgs, 'address'>>;
  revokeApiKey?: Resolver<ResolversTypes['ApiKey'], ParentType, ContextType, RequireFields<MutationRevokeApiKeyArgs, 'id'>>;
  signIn?: Resolver<ResolversTypes['Session'], ParentType, ContextType, RequireFields<MutationSignInArgs, 'address' | 'signature'>>;
  signOut?: Resolver<ResolversTypes['Boolean'], ParentType, ContextType>;
  submitDapp?: Resolver<ResolversTypes['DappRequest'], ParentType, ContextType, RequireFields<MutationSubmitDappArgs, 'input'>>;
}>;

export type OperationKindResolvers = { DOCUMENT: 'document', TOOL: 'tool' };

export type OperationUsageResolvers<ContextType = AccountsContext, ParentType extends ResolversParentTypes['OperationUsage'] = ResolversParentTypes['OperationUsage']> = ResolversObject<{
  cost?: Resolver<ResolversTypes['Int'], ParentType, ContextType>;
  errors?: Resolver<ResolversTypes['Int'], ParentType, ContextType>;
  refusals?: Resolver<ResolversTypes['Int'], ParentType, ContextType>;
  requests?: Resolver<ResolversTypes['Int'], ParentType, ContextType>;
}>;

export type PageInfoResolvers<ContextType = AccountsContext, ParentType extends ResolversParentTypes['PageInfo'] = ResolversParentTypes['PageInfo']> = ResolversObject<{
  endCursor?: Resolver<Maybe<ResolversTypes['String']>, ParentType, ContextType>;
  hasNextPage?: Resolver<ResolversTypes['Boolean'], ParentType, ContextType>;
  hasPreviousPage?: Resolver<ResolversTypes['Boolean'], ParentType, ContextType>;
  startCursor?: Resolver<Maybe<ResolversTypes['String']>, ParentType, ContextType>;
}>;

export type PartnerResolvers<ContextType = AccountsContext, ParentType extends ResolversParentTypes['Partner'] = ResolversParentTypes['Partner']> = ResolversObject<{
  createdAt?: Resolver<ResolversTypes['DateTime'], ParentType, ContextType>;
  id?: Resolver<ResolversTypes['ID'], ParentType, ContextType>;
  name?: Resolver<ResolversTypes['String'], ParentType, ContextType>;
}>;

export type PartnerCredentialResolvers<ContextType = AccountsContext, ParentType extends ResolversParentTypes['PartnerCredential'] = ResolversParentTypes['PartnerCredential']> = ResolversObject<{
  partner?: Resolver<ResolversTypes['Partner'], ParentType, ContextType>;
  secret?: Resolver<ResolversTypes['String'], ParentType, ContextType>;
}>;

export type PlanResolvers = { ENTERPRISE: 'enterprise', FREE: 'free', PRO: 'pro' };

export type PlanMinuteResolvers<ContextType = AccountsContext, ParentType extends ResolversParentTypes['PlanMinute'] = ResolversParentTypes['PlanMinute']> = ResolversObject<{
  clientErrors?: Resolver<ResolversTypes['Int'], ParentType, ContextType>;
  minute?: Resolver<ResolversTypes['DateTime'], ParentType, ContextType>;
  plan?: Resolver<ResolversTypes['String'], ParentType, ContextType>;
  rateLimited?: Resolver<ResolversTypes['Int'], ParentType, ContextType>;
  requests?: Resolver<ResolversTypes['Int'], ParentType, ContextType>;
  serverErrors?: Resolver<ResolversTypes['Int'], ParentType, ContextType>;
  unauthorized?: Resolver<ResolversTypes['Int'], ParentType, ContextType>;
}>;

export type QueryResolvers<ContextType = AccountsContext, ParentType extends ResolversParentTypes['Query'] = ResolversParentTypes['Query']> = ResolversObject<{
  admins?: Resolver<Array<ResolversTypes['Account']>, ParentType, ContextType>;
  apiKey?: Resolver<Maybe<ResolversTypes['ApiKey']>, ParentType, ContextType, RequireFields<QueryApiKeyArgs, 'id'>>;
  dappAccess?: Resolver<ResolversTypes['DappAccess'], ParentType, ContextType, RequireFields<QueryDappAccessArgs, 'origin'>>;
  dappStore?: Resolver<ResolversTypes['StoreDappConnection'], ParentType, ContextType, RequireFields<QueryDappStoreArgs, 'first'>>;
  me?: Resolver<Maybe<ResolversTypes['Account']>, ParentType, ContextType>;
  reviewApiKeys?: Resolver<Array<ResolversTypes['ApiKey']>, ParentType, ContextType, RequireFields<QueryReviewApiKeysArgs, 'status'>>;
  reviewDapps?: Resolver<Array<ResolversTypes['DappRequest']>, ParentType, ContextType, RequireFields<QueryReviewDappsArgs, 'status'>>;
  serviceStats?: Resolver<ResolversTypes['ServiceStats'], ParentType, ContextType, RequireFields<QueryServiceStatsArgs, 'minutes'>>;
}>;

export type RoleResolvers = { ADMIN: 'admin', USER: 'user' };

export type ServiceStatsResolvers<ContextType = AccountsContext, ParentType extends ResolversParentTypes['ServiceStats'] = ResolversParentTypes['ServiceStats']> = ResolversObject<{
  costHistogram?: Resolver<Array<ResolversTypes['CostBucket']>, ParentType, ContextType>;
  from?: Resolver<ResolversTypes['DateTime'], ParentType, ContextType>;
  perPlan?: Resolver<Array<ResolversTypes['PlanMinute']>, ParentType, ContextType>;
  to?: Resolver<ResolversTypes['DateTime'], ParentType, ContextType>;
}>;

export type SessionResolvers<ContextType = AccountsContext, ParentType extends ResolversParentTypes['Session'] = ResolversParentTypes['Session']> = ResolversObject<{
  account?: Resolver<ResolversTypes['Account'], ParentType, ContextType>;
  expiresAt?: Resolver<ResolversTypes['DateTime'], ParentType, ContextType>;
  token?: Resolver<ResolversTypes['String'], ParentType, ContextType>;
}>;

export type SignInChallengeResolvers<ContextType = AccountsContext, ParentType extends ResolversParentTypes['SignInChallenge'] = ResolversParentTypes['SignInChallenge']> = ResolversObject<{
  address?: Resolver<ResolversTypes['String'], ParentType, ContextType>;
  challenge?: Resolver<ResolversTypes['String'], ParentType, ContextType>;
  domain?: Resolver<ResolversTypes['String'], ParentType, ContextType>;
  expiresAt?: Resolver<ResolversTypes['DateTime'], ParentType, ContextType>;
  issuedAt?: Resolver<ResolversTypes['DateTime'], ParentType, ContextType>;
  nonce?: Resolver<ResolversTypes['String'], ParentType, ContextType>;
}>;

export type StoreDappResolvers<ContextType = AccountsContext, ParentType extends ResolversParentTypes['StoreDapp'] = ResolversParentTypes['StoreDapp']> = ResolversObject<{
  approvedAt?: Resolver<ResolversTypes['DateTime'], ParentType, ContextType>;
  chains?: Resolver<Array<ResolversTypes['String']>, ParentType, ContextType>;
  description?: Resolver<ResolversTypes['String'], ParentType, ContextType>;
  icon?: Resolver<ResolversTypes['String'], ParentType, ContextType>;
  id?: Resolver<ResolversTypes['ID'], ParentType, ContextType>;
  name?: Resolver<ResolversTypes['String'], ParentType, ContextType>;
  origin?: Resolver<ResolversTypes['String'], ParentType, ContextType>;
  site?: Resolver<ResolversTypes['String'], ParentType, ContextType>;
}>;

export type StoreDappConnectionResolvers<ContextType = AccountsContext, ParentType extends ResolversParentTypes['StoreDappConnection'] = ResolversParentTypes['StoreDappConnection']> = ResolversObject<{
  edges?: Resolver<Array<ResolversTypes['StoreDappEdge']>, ParentType, ContextType>;
  pageInfo?: Resolver<ResolversTypes['PageInfo'], ParentType, ContextType>;
  totalCount?: Resolver<ResolversTypes['Int'], ParentType, ContextType>;
}>;

export type StoreDappEdgeResolvers<ContextType = AccountsContext, ParentType extends ResolversParentTypes['StoreDappEdge'] = ResolversParentTypes['StoreDappEdge']> = ResolversObject<{
  cursor?: Resolver<ResolversTypes['String'], ParentType, ContextType>;
  node?: Resolver<ResolversTypes['StoreDapp'], ParentType, ContextType>;
}>;

export type Resolvers<ContextType = AccountsContext> = ResolversObject<{
  Account?: AccountResolvers<ContextType>;
  ApiKey?: ApiKeyResolvers<ContextType>;
  ApiKeyRequest?: ApiKeyRequestResolvers<ContextType>;
  ApiKeyStatus?: ApiKeyStatusResolvers;
  App?: AppResolvers<ContextType>;
  AppDocument?: AppDocumentResolvers<ContextType>;
  AppVersion?: AppVersionResolvers<ContextType>;
  CostBucket?: CostBucketResolvers<ContextType>;
  DappAccess?: DappAccessResolvers<ContextType>;
  DappRequest?: DappRequestResolvers<ContextType>;
  DappStatus?: DappStatusResolvers;
  DateTime?: GraphQLScalarType;
  KeyOperationUsage?: KeyOperationUsageResolvers<ContextType>;
  KeyUsageMinute?: KeyUsageMinuteResolvers<ContextType>;
  Mutation?: MutationResolvers<ContextType>;
  OperationKind?: OperationKindResolvers;
  OperationUsage?: OperationUsageResolvers<ContextType>;
  PageInfo?: PageInfoResolvers<ContextType>;
  Partner?: PartnerResolvers<ContextType>;
  PartnerCredential?: PartnerCredentialResolvers<ContextType>;
  Plan?: PlanResolvers;
  PlanMinute?: PlanMinuteResolvers<ContextType>;
  Query?: QueryResolvers<ContextType>;
  Role?: RoleResolvers;
  ServiceStats?: ServiceStatsResolvers<ContextType>;
  Session?: SessionResolvers<ContextType>;
  SignInChallenge?: SignInChallengeResolvers<ContextType>;
  StoreDapp?: StoreDappResolvers<ContextType>;
  StoreDappConnection?: StoreDappConnectionResolvers<ContextType>;
  StoreDappEdge?: StoreDappEdgeResolvers<ContextType>;
}>;

