/**
 * The router's plugin contract. Each plugin acts at the earliest phase that can decide:
 *
 * - `onKey` — the key presented, from the head alone: who is calling (a WebSocket's connection, each tick of a
 *   subscription, and every request before its body is read).
 * - `onHead` — before the body is read, once the caller is known: what the head alone refuses (a spent budget).
 * - `onHttpRequest` — before anything is parsed: only the HTTP request (headers, query string, the raw operations
 *   of the body). The API key and rate limit decide here; so do batch size, token count and the safelist.
 * - `onAdmitted` — once the request is admitted whole (its body read, its answer's type acceptable): a place it
 *   holds while its operations run.
 * - `onOperation` — after parsing and validation, before the query plan runs (nothing has reached a subgraph):
 *   depth, aliases, directives and query cost.
 * - `onJoin` — an operation answered by another request's execution (in-flight deduplication): what this caller
 *   pays for it.
 * - `onSubscribe` — a subscription admitted by its operation phase, before it starts: its places per plan.
 * - `onEvent` — a subscription's event, before it is delivered: what it costs its subscriber.
 * - `onResponse` — adds extensions and headers to each operation's response (its data at hand).
 *
 * A plugin refuses by throwing a {@link ApiError}; the router answers with that error alone (no data). Only the
 * plugins of the API key, the budgets and the query cost reach the access module (`src/access`).
 */
import type { DocumentNode, FragmentDefinitionNode, GraphQLSchema, OperationDefinitionNode } from 'graphql';
import type { Caller } from '../src/access/access.ts';
import type { OnGone } from '../src/access/concurrency.ts';
import type { CallerPlan } from '../src/access/plans.ts';

/** One operation as sent (before parsing): a POST body object or the GET query parameters. */
export interface RawOperation {
  query?: string | undefined;
  operationName?: string | undefined;
  variables?: Record<string, unknown> | undefined;
  extensions?: Record<string, unknown> | undefined;
  /** A persisted document id (GraphQL-over-HTTP persisted documents; graphql-codegen's client preset). */
  documentId?: string | undefined;
}

/** What identifies a caller, read from a request's head (or a connection's): its headers, query and address. */
export interface HeadInfo {
  /** Lowercase header names. */
  headers: Readonly<Record<string, string | undefined>>;
  /** The URL's query parameters; a repeated parameter gives all its values, as Fastify's query parser does. */
  query: Readonly<Record<string, string | string[]>>;
  socketIp: string;
}

export interface HttpRequestInfo extends HeadInfo {
  method: string;
  /**
   * The operations of this request: one, or several for a batch (none for an empty batch, or when the body could not
   * be read). Plugins may rewrite them (persisted documents).
   */
  operations: RawOperation[];
  batched: boolean;
  /** The caller, when the transport already identified it before reading the body. */
  caller?: Caller;
}

/** What the router learnt about the caller of one HTTP request. */
export interface RequestState {
  /** Set by the API-key plugin. */
  caller: Caller | null;
  /** Headers every response of this request carries (`x-api-plan`, `x-ratelimit-*`). */
  headers: Record<string, string>;
  /**
   * Set by the API-key plugin when it refuses the request: the plan the refusal counts under in the usage statistics
   * (a pending, rejected or revoked key's plan; `keyless` for an unknown key or a conflict).
   */
  refusedPlan?: CallerPlan | undefined;
  /** Set by the API-key plugin when it refuses a known key (pending, rejected, revoked): its id, for the logs. */
  refusedKeyId?: string | undefined;
  /** The code of a plugin's refusal (of the request, or of one of its operations), for the logs and metrics. */
  refusal?: string | undefined;
  /** Set by the trusted-documents plugin: the operations that are documents of the key's app (usage per document). */
  documents?: Map<RawOperation, DocumentUse> | undefined;
}

/** A trusted document of the caller's app, as its usage is counted: the app, the version and the document's hash. */
export interface DocumentUse {
  kind: 'document';
  appId: string;
  version: string;
  hash: string;
}

export interface OperationInfo {
  schema: GraphQLSchema;
  document: DocumentNode;
  operation: OperationDefinitionNode;
  fragments: readonly FragmentDefinitionNode[];
  variables: Readonly<Record<string, unknown>>;
}

/** What the cost plugin knows of an operation: its estimate, and once answered what it measured. */
export interface OperationCost {
  estimated: number;
  max: number;
  plan: string;
  /** The cost of the answer itself (`router/cost/measured.ts`), once answered. */
  actual?: number;
  /** The caller's cost budget after this operation (charged at the estimate, corrected to the measured cost). */
  budget?: { limit: number; remaining: number; resetMs: number };
}

/**
 * The cost of an answer this caller did not execute itself (a joined execution's, a subscription's event): the
 * estimate it was run at and what it measured (for an event, both its measured cost); `budget` is set once charged.
 */
export interface SharedCost {
  estimated: number;
  actual: number;
  budget?: OperationCost['budget'];
}

/** Per operation: the cost estimate once known, and how to measure the answer's. */
export interface OperationState {
  cost: OperationCost | null;
  /** The answer's measured cost, from its data: set by the cost plugin. */
  measure?: ((data: unknown) => number) | undefined;
}

export interface ResponseParts {
  extensions: Record<string, unknown>;
  headers: Record<string, string>;
}

/** What a subscription asks that its places per plan bound: the coins it follows (null: not a coin list). */
export interface SubscriptionInfo {
  asked: { count: number; argument: string } | null;
}

export interface RouterPlugin {
  readonly name: string;
  /** Sets `state.caller` from the key presented in `head`, or throws the key's refusal. */
  onKey?(head: HeadInfo, state: RequestState): void | Promise<void>;
  onHead?(head: HeadInfo, state: RequestState): void | Promise<void>;
  onHttpRequest?(req: HttpRequestInfo, state: RequestState): void | Promise<void>;
  /** Returns what gives the place back, or null when the client went away while it waited (nobody to answer). */
  onAdmitted?(state: RequestState, gone: OnGone | undefined): Promise<(() => void) | null | undefined>;
  onOperation?(op: OperationInfo, state: RequestState, opState: OperationState): void | Promise<void>;
  onJoin?(state: RequestState, cost: SharedCost): Promise<void>;
  /** Returns what gives the subscription's places back when its stream ends. */
  onSubscribe?(state: RequestState, sub: SubscriptionInfo): (() => void) | undefined;
  onEvent?(state: RequestState, cost: SharedCost): Promise<void>;
  /** `data`: the answer's data (null or absent when nothing was executed). */
  onResponse?(state: RequestState, opState: OperationState, out: ResponseParts, data: unknown): void;
}
