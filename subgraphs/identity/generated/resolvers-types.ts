import type { GraphQLResolveInfo, GraphQLScalarType, GraphQLScalarTypeConfig } from 'graphql';
import type { NameOrPublicName as NameOrPublicNameModel, IdentityContext } from '../context.ts';
import type { Resolution as ResolutionModel, ProofChallenge as ProofChallengeModel } from '../../../src/names/types.ts';
import type { PrimaryName as PrimaryNameModel } from '../../../src/names/primary.ts';
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
  /** The account id (uuid). */
  id: Scalars['ID']['output'];
  /** Names held by this account, by name. Only the account itself sees them; others get a FORBIDDEN error. */
  names: Array<NameRecord>;
};

/** The name is public but has no address linked for the asset. REST: `404 ADDRESS_NOT_LINKED`. */
export type AddressNotLinked = NameResolutionError & {
  __typename?: 'AddressNotLinked';
  /** Uppercase ticker of the asset. */
  asset: Scalars['String']['output'];
  /** Always `ADDRESS_NOT_LINKED`. */
  code: Scalars['String']['output'];
  /** For example `alice.coin has no DOGE address linked`. */
  message: Scalars['String']['output'];
  /** The name, normalised (trimmed, lowercase). */
  name: Scalars['String']['output'];
};

/**
 * A coin tracked by the aggregation engine. All money figures are converted from USD to the requested quote currency
 * at read time; a figure that cannot be verified (or converted) is null, never guessed or zero.
 */
export type Coin = {
  __typename?: 'Coin';
  /** The coin id, CoinGecko style (for example `litecoin`). */
  id: Scalars['ID']['output'];
};

/** An address linked to a name for one asset. */
export type LinkedAddress = {
  __typename?: 'LinkedAddress';
  /** The address, in the asset's format. */
  address: Scalars['String']['output'];
  /** Uppercase ticker of the asset (for example `LTC`). */
  asset: Scalars['String']['output'];
  /** The asset's coin in the markets subgraph; null when the markets catalog does not track it. */
  coin?: Maybe<Coin>;
  /** When the address was linked. */
  updatedAt: Scalars['DateTime']['output'];
};

/** The root mutation type: every subgraph adds its changes; each field says who may call it. */
export type Mutation = {
  __typename?: 'Mutation';
  /** Stops `name` being the primary name of any `asset` address (`PRIMARY_NAME_NOT_SET` when it is none's); the addresses it was. */
  clearPrimaryName: Array<Scalars['String']['output']>;
  /** Links `address` for `asset` after checking the signature of the challenge `nonce` names. */
  linkAddress: NameRecord;
  /** Registers a free name for the signed-in account. */
  registerName: NameRecord;
  /** Issues a challenge proving control of `address`, to sign before `linkAddress`. */
  requestAddressChallenge: ProofChallenge;
  /**
   * Issues a challenge proving control of `address`, to sign before `setPrimaryName`. The name must already resolve to
   * `address` for `asset` (`PRIMARY_NEEDS_LINK` otherwise).
   */
  requestPrimaryNameChallenge: ProofChallenge;
  /** Makes a name private (not resolvable by others) or public. */
  setNamePrivacy: NameRecord;
  /** Makes `name` the primary name of `address` after checking the signature of the challenge `nonce` names. */
  setPrimaryName: PrimaryName;
  /**
   * Transfers a name to another account: give exactly one of `toAddress` (an LTC address; its account is created if
   * new) and `toAccountId`. The result is the name as it now is.
   */
  transferName: NameRecord;
  /** Unlinks the address of `asset` (ADDRESS_NOT_LINKED when there is none). */
  unlinkAddress: NameRecord;
};


/** The root mutation type: every subgraph adds its changes; each field says who may call it. */
export type MutationClearPrimaryNameArgs = {
  asset: Scalars['String']['input'];
  name: Scalars['String']['input'];
};


/** The root mutation type: every subgraph adds its changes; each field says who may call it. */
export type MutationLinkAddressArgs = {
  address: Scalars['String']['input'];
  asset: Scalars['String']['input'];
  name: Scalars['String']['input'];
  nonce: Scalars['String']['input'];
  signature: Scalars['String']['input'];
};


/** The root mutation type: every subgraph adds its changes; each field says who may call it. */
export type MutationRegisterNameArgs = {
  name: Scalars['String']['input'];
};


/** The root mutation type: every subgraph adds its changes; each field says who may call it. */
export type MutationRequestAddressChallengeArgs = {
  address: Scalars['String']['input'];
  asset: Scalars['String']['input'];
  name: Scalars['String']['input'];
};


/** The root mutation type: every subgraph adds its changes; each field says who may call it. */
export type MutationRequestPrimaryNameChallengeArgs = {
  address: Scalars['String']['input'];
  asset: Scalars['String']['input'];
  name: Scalars['String']['input'];
};


/** The root mutation type: every subgraph adds its changes; each field says who may call it. */
export type MutationSetNamePrivacyArgs = {
  name: Scalars['String']['input'];
  private: Scalars['Boolean']['input'];
};


/** The root mutation type: every subgraph adds its changes; each field says who may call it. */
export type MutationSetPrimaryNameArgs = {
  address: Scalars['String']['input'];
  asset: Scalars['String']['input'];
  name: Scalars['String']['input'];
  nonce: Scalars['String']['input'];
  signature: Scalars['String']['input'];
};


/** The root mutation type: every subgraph adds its changes; each field says who may call it. */
export type MutationTransferNameArgs = {
  name: Scalars['String']['input'];
  toAccountId?: InputMaybe<Scalars['ID']['input']>;
  toAddress?: InputMaybe<Scalars['String']['input']>;
};


/** The root mutation type: every subgraph adds its changes; each field says who may call it. */
export type MutationUnlinkAddressArgs = {
  asset: Scalars['String']['input'];
  name: Scalars['String']['input'];
};

/**
 * No public name of that name: it was never registered, or it is private. The two answers are identical apart from
 * the name echoed, so a private name's existence never shows. REST: `404 NAME_NOT_FOUND`.
 */
export type NameNotFound = NameResolutionError & {
  __typename?: 'NameNotFound';
  /** Always `NAME_NOT_FOUND`. */
  code: Scalars['String']['output'];
  /** For example `no public name "alice.coin" is registered`. */
  message: Scalars['String']['output'];
  /** The name asked for, normalised (trimmed, lowercase). */
  name: Scalars['String']['output'];
};

/** A name and a coin to resolve, one item of `resolveNames`. */
export type NameQuery = {
  /** Uppercase ticker (for example `LTC`). */
  asset: Scalars['String']['input'];
  /** The full name with its suffix (for example `alice.cw`). */
  name: Scalars['String']['input'];
};

/** A registered name and its linked addresses. */
export type NameRecord = {
  __typename?: 'NameRecord';
  /** Linked addresses, by asset ticker. */
  addresses: Array<LinkedAddress>;
  /** When the name was registered. Null unless the viewer holds the name. */
  createdAt?: Maybe<Scalars['DateTime']['output']>;
  /** The full name with its suffix (for example `alice.cw`). */
  name: Scalars['String']['output'];
  /** Whether the name is private (not resolvable by others). Null unless the viewer holds the name. */
  private?: Maybe<Scalars['Boolean']['output']>;
  /** Last change of privacy or holder. Null unless the viewer holds the name. */
  updatedAt?: Maybe<Scalars['DateTime']['output']>;
};

/** A public resolution: the address a name has linked for an asset. */
export type NameResolution = {
  __typename?: 'NameResolution';
  /** The linked address. */
  address: Scalars['String']['output'];
  /** Uppercase ticker of the asset. */
  asset: Scalars['String']['output'];
  /** The asset's coin in the markets subgraph; null when the markets catalog does not track it. */
  coin?: Maybe<Coin>;
  /** The full name with its suffix. */
  name: Scalars['String']['output'];
  /** When the address was linked. */
  updatedAt: Scalars['DateTime']['output'];
};

/**
 * Why a well-formed resolution has no address: the REST API's error for the same request (`GET /api/resolve/{name}`),
 * as data. Every error member of `NameResolutionResult` implements it, so `... on NameResolutionError { code message }`
 * also covers members added later.
 */
export type NameResolutionError = {
  /** The stable code, the one the REST API answers with (`NAME_NOT_FOUND`, `ADDRESS_NOT_LINKED`). */
  code: Scalars['String']['output'];
  /** What happened and what the caller can do, as the REST API says it. */
  message: Scalars['String']['output'];
};

/**
 * What `nameResolution` answers: the address (`NameResolution`), or why there is none (`NameNotFound`,
 * `AddressNotLinked`). Select `__typename` and a fragment per member you handle, plus
 * `... on NameResolutionError { code message }` for the rest.
 */
export type NameResolutionResult = AddressNotLinked | NameNotFound | NameResolution;

/**
 * An address's primary name: the name its holder chose to be known by for one coin (reverse resolution). Served only
 * while the name is public and still resolves to this address for this coin (forward-verified).
 */
export type PrimaryName = {
  __typename?: 'PrimaryName';
  /** The address, in the form it is stored in (validated and normalised for the coin). */
  address: Scalars['String']['output'];
  /** Uppercase ticker of the coin. */
  asset: Scalars['String']['output'];
  /** The coin in the markets subgraph; null when the markets catalog does not track it. */
  coin?: Maybe<Coin>;
  /** The full name with its suffix. */
  name: Scalars['String']['output'];
  /** When the name was made the address's primary name. */
  updatedAt: Scalars['DateTime']['output'];
};

/** A single-use proof-of-control challenge: sign `challenge` with the address being linked, then call `linkAddress`. */
export type ProofChallenge = {
  __typename?: 'ProofChallenge';
  /** The exact text to sign. */
  challenge: Scalars['String']['output'];
  /** After this time the challenge is refused (5 minutes after issue). */
  expiresAt: Scalars['DateTime']['output'];
  /** Names this challenge in `linkAddress`. */
  nonce: Scalars['String']['output'];
};

/** The root query type: every subgraph adds its entry points. */
export type Query = {
  __typename?: 'Query';
  /** A public name and its addresses; null when it does not exist or is private. */
  name?: Maybe<NameRecord>;
  /**
   * The address `name` has linked for `asset`, or why there is none: `NameNotFound` (no public name of that name:
   * missing and private names answer alike) or `AddressNotLinked`. Null only beside an error: a malformed name or
   * asset (`INVALID_NAME`, `INVALID_PARAMETER`, `MISSING_PARAMETER`), or the identity subgraph failing.
   */
  nameResolution?: Maybe<NameResolutionResult>;
  /**
   * The primary name of `address` for `asset` (reverse resolution); null when it has none that is public and still
   * resolves to it. A malformed address or asset is an error (`INVALID_ADDRESS`, `INVALID_PARAMETER`…).
   */
  primaryName?: Maybe<PrimaryName>;
  /**
   * The address `name` has linked for `asset`. Null when the name does not exist, is private, or has no address for
   * the asset; a malformed name or asset is an error.
   * @deprecated Use `nameResolution`: it says why there is no address (`NameNotFound` or `AddressNotLinked`) where this field answers null.
   */
  resolveName?: Maybe<NameResolution>;
  /**
   * Several resolutions in one field (at most 100), in the order asked: each item is what `nameResolution` answers for
   * its pair. An item with a malformed name or asset is null, with an error at its index (`INVALID_NAME`,
   * `INVALID_PARAMETER`); the others still answer. The pairs are read from the store together.
   */
  resolveNames: Array<Maybe<NameResolutionResult>>;
};


/** The root query type: every subgraph adds its entry points. */
export type QueryNameArgs = {
  name: Scalars['String']['input'];
};


/** The root query type: every subgraph adds its entry points. */
export type QueryNameResolutionArgs = {
  asset: Scalars['String']['input'];
  name: Scalars['String']['input'];
};


/** The root query type: every subgraph adds its entry points. */
export type QueryPrimaryNameArgs = {
  address: Scalars['String']['input'];
  asset: Scalars['String']['input'];
};


/** The root query type: every subgraph adds its entry points. */
export type QueryResolveNameArgs = {
  asset: Scalars['String']['input'];
  name: Scalars['String']['input'];
};


/** The root query type: every subgraph adds its entry points. */
export type QueryResolveNamesArgs = {
  names: Array<NameQuery>;
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

/** Mapping of union types */
export type ResolversUnionTypes<_RefType extends Record<string, unknown>> = ResolversObject<{
  NameResolutionResult:
    | ( AddressNotLinked )
    | ( NameNotFound )
    | ( ResolutionModel )
  ;
}>;

/** Mapping of interface types */
export type ResolversInterfaceTypes<_RefType extends Record<string, unknown>> = ResolversObject<{
  NameResolutionError:
    | ( AddressNotLinked )
    | ( NameNotFound )
  ;
}>;

/** Mapping between all available schema types and the resolvers types */
export type ResolversTypes = ResolversObject<{
  Account: ResolverTypeWrapper<Omit<Account, 'names'> & { names: Array<ResolversTypes['NameRecord']> }>;
  ID: ResolverTypeWrapper<Scalars['ID']['output']>;
  AddressNotLinked: ResolverTypeWrapper<AddressNotLinked>;
  String: ResolverTypeWrapper<Scalars['String']['output']>;
  Coin: ResolverTypeWrapper<Coin>;
  DateTime: ResolverTypeWrapper<Scalars['DateTime']['output']>;
  LinkedAddress: ResolverTypeWrapper<LinkedAddress>;
  Mutation: ResolverTypeWrapper<Record<PropertyKey, never>>;
  Boolean: ResolverTypeWrapper<Scalars['Boolean']['output']>;
  NameNotFound: ResolverTypeWrapper<NameNotFound>;
  NameQuery: NameQuery;
  NameRecord: ResolverTypeWrapper<NameOrPublicNameModel>;
  NameResolution: ResolverTypeWrapper<ResolutionModel>;
  NameResolutionError: ResolverTypeWrapper<ResolversInterfaceTypes<ResolversTypes>['NameResolutionError']>;
  NameResolutionResult: ResolverTypeWrapper<ResolversUnionTypes<ResolversTypes>['NameResolutionResult']>;
  PrimaryName: ResolverTypeWrapper<PrimaryNameModel>;
  ProofChallenge: ResolverTypeWrapper<ProofChallengeModel>;
  Query: ResolverTypeWrapper<Record<PropertyKey, never>>;
}>;

/** Mapping between all available schema types and the resolvers parents */
export type ResolversParentTypes = ResolversObject<{
  Account: Omit<Account, 'names'> & { names: Array<ResolversParentTypes['NameRecord']> } | FederationReferenceTypes['Account'];
  ID: Scalars['ID']['output'];
  AddressNotLinked: AddressNotLinked;
  String: Scalars['String']['output'];
  Coin: Coin;
  DateTime: Scalars['DateTime']['output'];
  LinkedAddress: LinkedAddress;
  Mutation: Record<PropertyKey, never>;
  Boolean: Scalars['Boolean']['output'];
  NameNotFound: NameNotFound;
  NameQuery: NameQuery;
  NameRecord: NameOrPublicNameModel;
  NameResolution: ResolutionModel;
  NameResolutionError: ResolversInterfaceTypes<ResolversParentTypes>['NameResolutionError'];
  NameResolutionResult: ResolversUnionTypes<ResolversParentTypes>['NameResolutionResult'];
  PrimaryName: PrimaryNameModel;
  ProofChallenge: ProofChallengeModel;
  Query: Record<PropertyKey, never>;
}>;

export type AccountResolvers<ContextType = IdentityContext, ParentType extends ResolversParentTypes['Account'] = ResolversParentTypes['Account'], FederationReferenceType extends FederationReferenceTypes['Account'] = FederationReferenceTypes['Account']> = ResolversObject<{
  __resolveReference?: ReferenceResolver<Maybe<ResolversTypes['Account']> | FederationReferenceType, FederationReferenceType, ContextType>;
  id?: Resolver<ResolversTypes['ID'], ParentType, ContextType>;
  names?: Resolver<Array<ResolversTypes['NameRecord']>, ParentType, ContextType>;
}>;

export type AddressNotLinkedResolvers<ContextType = IdentityContext, ParentType extends ResolversParentTypes['AddressNotLinked'] = ResolversParentTypes['AddressNotLinked']> = ResolversObject<{
  asset?: Resolver<ResolversTypes['String'], ParentType, ContextType>;
  code?: Resolver<ResolversTypes['String'], ParentType, ContextType>;
  message?: Resolver<ResolversTypes['String'], ParentType, ContextType>;
  name?: Resolver<ResolversTypes['String'], ParentType, ContextType>;
  __isTypeOf?: IsTypeOfResolverFn<ParentType, ContextType>;
}>;

export type CoinResolvers<ContextType = IdentityContext, ParentType extends ResolversParentTypes['Coin'] = ResolversParentTypes['Coin']> = ResolversObject<{
  id?: Resolver<ResolversTypes['ID'], ParentType, ContextType>;
}>;

export interface DateTimeScalarConfig extends GraphQLScalarTypeConfig<ResolversTypes['DateTime'], any> {
  name: 'DateTime';
}

export type LinkedAddressResolvers<ContextType = IdentityContext, ParentType extends ResolversParentTypes['LinkedAddress'] = ResolversParentTypes['LinkedAddress']> = ResolversObject<{
  address?: Resolver<ResolversTypes['String'], ParentType, ContextType>;
  asset?: Resolver<ResolversTypes['String'], ParentType, ContextType>;
  coin?: Resolver<Maybe<ResolversTypes['Coin']>, ParentType, ContextType>;
  updatedAt?: Resolver<ResolversTypes['DateTime'], ParentType, ContextType>;
}>;

export type MutationResolvers<ContextType = IdentityContext, ParentType extends ResolversParentTypes['Mutation'] = ResolversParentTypes['Mutation']> = ResolversObject<{
  clearPrimaryName?: Resolver<Array<ResolversTypes['String']>, ParentType, ContextType, RequireFields<MutationClearPrimaryNameArgs, 'asset' | 'name'>>;
  linkAddress?: Resolver<ResolversTypes['NameRecord'], ParentType, ContextType, RequireFields<MutationLinkAddressArgs, 'address' | 'asset' | 'name' | 'nonce' | 'signature'>>;
  registerName?: Resolver<ResolversTypes['NameRecord'], ParentType, ContextType, RequireFields<MutationRegisterNameArgs, 'name'>>;
  requestAddressChallenge?: Resolver<ResolversTypes['ProofChallenge'], ParentType, ContextType, RequireFields<MutationRequestAddressChallengeArgs, 'address' | 'asset' | 'name'>>;
  requestPrimaryNameChallenge?: Resolver<ResolversTypes['ProofChallenge'], ParentType, ContextType, RequireFields<MutationRequestPrimaryNameChallengeArgs, 'address' | 'asset' | 'name'>>;
  setNamePrivacy?: Resolver<ResolversTypes['NameRecord'], ParentType, ContextType, RequireFields<MutationSetNamePrivacyArgs, 'name' | 'private'>>;
  setPrimaryName?: Resolver<ResolversTypes['PrimaryName'], ParentType, ContextType, RequireFields<MutationSetPrimaryNameArgs, 'address' | 'asset' | 'name' | 'nonce' | 'signature'>>;
  transferName?: Resolver<ResolversTypes['NameRecord'], ParentType, ContextType, RequireFields<MutationTransferNameArgs, 'name'>>;
  unlinkAddress?: Resolver<ResolversTypes['NameRecord'], ParentType, ContextType, RequireFields<MutationUnlinkAddressArgs, 'asset' | 'name'>>;
}>;

export type NameNotFoundResolvers<ContextType = IdentityContext, ParentType extends ResolversParentTypes['NameNotFound'] = ResolversParentTypes['NameNotFound']> = ResolversObject<{
  code?: Resolver<ResolversTypes['String'], ParentType, ContextType>;
  message?: Resolver<ResolversTypes['String'], ParentType, ContextType>;
  name?: Resolver<ResolversTypes['String'], ParentType, ContextType>;
  __isTypeOf?: IsTypeOfResolverFn<ParentType, ContextType>;
}>;

export type NameRecordResolvers<ContextType = IdentityContext, ParentType extends ResolversParentTypes['NameRecord'] = ResolversParentTypes['NameRecord']> = ResolversObject<{
  addresses?: Resolver<Array<ResolversTypes['LinkedAddress']>, ParentType, ContextType>;
  createdAt?: Resolver<Maybe<ResolversTypes['DateTime']>, ParentType, ContextType>;
  name?: Resolver<ResolversTypes['String'], ParentType, ContextType>;
  private?: Resolver<Maybe<ResolversTypes['Boolean']>, ParentType, ContextType>;
  updatedAt?: Resolver<Maybe<ResolversTypes['DateTime']>, ParentType, ContextType>;
}>;

export type NameResolutionResolvers<ContextType = IdentityContext, ParentType extends ResolversParentTypes['NameResolution'] = ResolversParentTypes['NameResolution']> = ResolversObject<{
  address?: Resolver<ResolversTypes['String'], ParentType, ContextType>;
  asset?: Resolver<ResolversTypes['String'], ParentType, ContextType>;
  coin?: Resolver<Maybe<ResolversTypes['Coin']>, ParentType, ContextType>;
  name?: Resolver<ResolversTypes['String'], ParentType, ContextType>;
  updatedAt?: Resolver<ResolversTypes['DateTime'], ParentType, ContextType>;
  __isTypeOf?: IsTypeOfResolverFn<ParentType, ContextType>;
}>;

export type NameResolutionErrorResolvers<ContextType = IdentityContext, ParentType extends ResolversParentTypes['NameResolutionError'] = ResolversParentTypes['NameResolutionError']> = ResolversObject<{
  __resolveType: TypeResolveFn<'AddressNotLinked' | 'NameNotFound', ParentType, ContextType>;
}>;

export type NameResolutionResultResolvers<ContextType = IdentityContext, ParentType extends ResolversParentTypes['NameResolutionResult'] = ResolversParentTypes['NameResolutionResult']> = ResolversObject<{
  __resolveType: TypeResolveFn<'AddressNotLinked' | 'NameNotFound' | 'NameResolution', ParentType, ContextType>;
}>;

export type PrimaryNameResolvers<ContextType = IdentityContext, ParentType extends ResolversParentTypes['PrimaryName'] = ResolversParentTypes['PrimaryName']> = ResolversObject<{
  address?: Resolver<ResolversTypes['String'], ParentType, ContextType>;
  asset?: Resolver<ResolversTypes['String'], ParentType, ContextType>;
  coin?: Resolver<Maybe<ResolversTypes['Coin']>, ParentType, ContextType>;
  name?: Resolver<ResolversTypes['String'], ParentType, ContextType>;
  updatedAt?: Resolver<ResolversTypes['DateTime'], ParentType, ContextType>;
}>;

export type ProofChallengeResolvers<ContextType = IdentityContext, ParentType extends ResolversParentTypes['ProofChallenge'] = ResolversParentTypes['ProofChallenge']> = ResolversObject<{
  challenge?: Resolver<ResolversTypes['String'], ParentType, ContextType>;
  expiresAt?: Resolver<ResolversTypes['DateTime'], ParentType, ContextType>;
  nonce?: Resolver<ResolversTypes['String'], ParentType, ContextType>;
}>;

export type QueryResolvers<ContextType = IdentityContext, ParentType extends ResolversParentTypes['Query'] = ResolversParentTypes['Query']> = ResolversObject<{
  name?: Resolver<Maybe<ResolversTypes['NameRecord']>, ParentType, ContextType, RequireFields<QueryNameArgs, 'name'>>;
  nameResolution?: Resolver<Maybe<ResolversTypes['NameResolutionResult']>, ParentType, ContextType, RequireFields<QueryNameResolutionArgs, 'asset' | 'name'>>;
  primaryName?: Resolver<Maybe<ResolversTypes['PrimaryName']>, ParentType, ContextType, RequireFields<QueryPrimaryNameArgs, 'address' | 'asset'>>;
  resolveName?: Resolver<Maybe<ResolversTypes['NameResolution']>, ParentType, ContextType, RequireFields<QueryResolveNameArgs, 'asset' | 'name'>>;
  resolveNames?: Resolver<Array<Maybe<ResolversTypes['NameResolutionResult']>>, ParentType, ContextType, RequireFields<QueryResolveNamesArgs, 'names'>>;
}>;

export type Resolvers<ContextType = IdentityContext> = ResolversObject<{
  Account?: AccountResolvers<ContextType>;
  AddressNotLinked?: AddressNotLinkedResolvers<ContextType>;
  Coin?: CoinResolvers<ContextType>;
  DateTime?: GraphQLScalarType;
  LinkedAddress?: LinkedAddressResolvers<ContextType>;
  Mutation?: MutationResolvers<ContextType>;
  NameNotFound?: NameNotFoundResolvers<ContextType>;
  NameRecord?: NameRecordResolvers<ContextType>;
  NameResolution?: NameResolutionResolvers<ContextType>;
  NameResolutionError?: NameResolutionErrorResolvers<ContextType>;
  NameResolutionResult?: NameResolutionResultResolvers<ContextType>;
  PrimaryName?: PrimaryNameResolvers<ContextType>;
  ProofChallenge?: ProofChallengeResolvers<ContextType>;
  Query?: QueryResolvers<ContextType>;
}>;

