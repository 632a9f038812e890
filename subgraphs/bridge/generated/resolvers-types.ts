import type { GraphQLResolveInfo, GraphQLScalarType, GraphQLScalarTypeConfig } from 'graphql';
import type { Deployment as DeploymentModel, Chain as ChainModel, BridgeAsset as BridgeAssetModel, Lane as LaneModel } from '../../../src/bridge/model.ts';
import type { StoredSnapshot as StoredSnapshotModel } from '../../../src/bridge/snapshots.ts';
import type { ReserveReport as ReserveReportModel, AssetReserves as AssetReservesModel } from '../../../src/bridge/report.ts';
import type { ReserveBalance as ReserveBalanceModel } from '../../../src/bridge/chain-data.ts';
import type { BridgeContext } from '../context.ts';
export type Maybe<T> = T | null;
export type InputMaybe<T> = Maybe<T>;
export type Omit<T, K extends keyof T> = Pick<T, Exclude<keyof T, K>>;
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

/** Reserves and liabilities of one coin. */
export type AssetReserves = {
  __typename?: 'AssetReserves';
  /** The coin in the markets subgraph; null when the markets catalog does not track it. */
  coin?: Maybe<Coin>;
  /** Decimals of the base unit. */
  decimals: Scalars['Int']['output'];
  /** Wrapped supply owed to holders. */
  liabilities: Liabilities;
  /** reserves / liabilities, rounded down; null when liabilities are 0. */
  ratio?: Maybe<Scalars['String']['output']>;
  /** Coins held. */
  reserves: Reserves;
  /** Ticker of the coin; amounts are in its base units. */
  ticker: Scalars['String']['output'];
};

/** A signed report. */
export type Attestation = {
  __typename?: 'Attestation';
  /** Always `ed25519`. */
  algorithm: Scalars['String']['output'];
  /** The exact canonical JSON of the report that was signed. */
  canonical: Scalars['String']['output'];
  /** Hex public key of the signer. */
  publicKey: Scalars['String']['output'];
  /** Hex ed25519 signature over `canonical`. */
  signature: Scalars['String']['output'];
};

/** The ed25519 key that signs reports. */
export type AttestationKey = {
  __typename?: 'AttestationKey';
  /** Always `ed25519`. */
  algorithm: Scalars['String']['output'];
  /** Whether the deployment file pins the key (compare it with the one you pinned out of band). */
  pinned: Scalars['Boolean']['output'];
  /** Hex public key; null for a from-secret deployment before its first snapshot. */
  publicKey?: Maybe<Scalars['String']['output']>;
  /** The report schema tag a signature covers. */
  schema: Scalars['String']['output'];
};

/** A chain the bridge spans. */
export type BridgeChain = {
  __typename?: 'BridgeChain';
  /** The bridge program (withdrawals burn through it) on Solana; null on UTXO chains. */
  bridgeProgram?: Maybe<Scalars['String']['output']>;
  /** Solana cluster (`devnet`, `testnet`, `mainnet-beta`); null on UTXO chains. */
  cluster?: Maybe<Scalars['String']['output']>;
  /** Chain slug (for example `luckycoin-testnet`). */
  id: Scalars['String']['output'];
  /** Kind of chain. */
  kind: ChainKind;
  /** Display name. */
  name: Scalars['String']['output'];
  /** The coin's ticker on a UTXO chain; null on Solana. */
  ticker?: Maybe<Scalars['String']['output']>;
};

/** A coin of a UTXO chain and its wrapped SPL token. */
export type BridgeCoin = {
  __typename?: 'BridgeCoin';
  /** The coin in the markets subgraph; null when the markets catalog does not track it. */
  coin?: Maybe<Coin>;
  /** Decimals of the base unit. */
  decimals: Scalars['Int']['output'];
  /** The coin's lanes. */
  lanes: Array<BridgeLane>;
  /** Name of the coin. */
  name: Scalars['String']['output'];
  /** The UTXO chain the coin lives on. */
  nativeChain: BridgeChain;
  /** True when all the coin's lanes are paused. */
  paused: Scalars['Boolean']['output'];
  /** Addresses holding the coins that back the wrapped supply. */
  reserveAddresses: Array<Scalars['String']['output']>;
  /** Ticker of the coin (for example `LKY`). */
  ticker: Scalars['String']['output'];
  /** The wrapped token. */
  wrapped: WrappedToken;
};

/** Attestation and proof-of-reserves settings. */
export type BridgeConfig = {
  __typename?: 'BridgeConfig';
  /** The key that signs proof-of-reserves reports. */
  attestation: AttestationKey;
  /** Digits after the point of `ratio`. */
  ratioDecimals: Scalars['Int']['output'];
  /** Seconds after which a snapshot is served as stale. */
  staleAfterSeconds: Scalars['Int']['output'];
};

/** The active bridge deployment. */
export type BridgeDeployment = {
  __typename?: 'BridgeDeployment';
  /** The chains the bridge spans. */
  chains: Array<BridgeChain>;
  /** The bridged coins with their lanes. */
  coins: Array<BridgeCoin>;
  /** The attestation key and proof-of-reserves settings. */
  config: BridgeConfig;
  /** Free text for clients (for example that addresses are examples). */
  label: Scalars['String']['output'];
  /** Every lane of every coin. */
  lanes: Array<BridgeLane>;
  /** The network of this deployment. */
  network: BridgeNetwork;
  /** The latest signed proof of reserves; null before the first snapshot. */
  proofOfReserves?: Maybe<ProofOfReserves>;
  /** Deployment version (for example `2026.1.0-testnet`). */
  version: Scalars['String']['output'];
};

/** One direction of one coin. */
export type BridgeLane = {
  __typename?: 'BridgeLane';
  /** Ticker of the coin. */
  asset: Scalars['String']['output'];
  /** Confirmations (blocks, or slots on Solana) a transfer needs on `from`. */
  confirmations: Scalars['Int']['output'];
  /** Where wrap deposits are sent; null for unwrap lanes. */
  depositAddress?: Maybe<Scalars['String']['output']>;
  /** Direction. */
  direction: LaneDirection;
  /** Fee: `fixed + amount × percent / 100`. */
  fees: LaneFees;
  /** Chain id transfers come from. */
  from: Scalars['String']['output'];
  /** Lane id (for example `lky-wrap`). */
  id: Scalars['String']['output'];
  /** Largest amount, base units. */
  maxAmount: Scalars['String']['output'];
  /** Smallest amount, base units. */
  minAmount: Scalars['String']['output'];
  /** Why the lane is paused; null when active. */
  pausedReason?: Maybe<Scalars['String']['output']>;
  /** Status. */
  status: LaneStatus;
  /** Chain id transfers go to. */
  to: Scalars['String']['output'];
};

/** A bridge network. */
export enum BridgeNetwork {
  /** The production deployment. */
  Mainnet = 'mainnet',
  /** The test deployment. */
  Testnet = 'testnet'
}

/** Kind of a chain. */
export enum ChainKind {
  /** Solana. */
  Solana = 'solana',
  /** A Bitcoin-derived chain (Base58Check addresses). */
  Utxo = 'utxo'
}

/**
 * A coin tracked by the aggregation engine. All money figures are converted from USD to the requested quote currency
 * at read time; a figure that cannot be verified (or converted) is null, never guessed or zero.
 */
export type Coin = {
  __typename?: 'Coin';
  /** The coin id, CoinGecko style (for example `litecoin`). */
  id: Scalars['ID']['output'];
};

/** Direction of a lane. */
export enum LaneDirection {
  /** Wrapped token → coin. */
  Unwrap = 'unwrap',
  /** Coin → wrapped token. */
  Wrap = 'wrap'
}

/** Fee terms of a lane. */
export type LaneFees = {
  __typename?: 'LaneFees';
  /** Fixed part, base units. */
  fixed: Scalars['String']['output'];
  /** Percentage of the amount (`0.25` = 0.25 %). */
  percent: Scalars['Float']['output'];
};

/** Status of a lane. */
export enum LaneStatus {
  /** Transfers are processed. */
  Active = 'active',
  /** Transfers are not processed; see `pausedReason`. */
  Paused = 'paused'
}

/** Wrapped supply on Solana. */
export type Liabilities = {
  __typename?: 'Liabilities';
  /** Chain id. */
  chain: Scalars['String']['output'];
  /** SPL mint. */
  mint: Scalars['String']['output'];
  /** Solana slot of the observation. */
  slot: Scalars['Int']['output'];
  /** Token supply, base units. */
  supply: Scalars['String']['output'];
  /** Wrapped token ticker. */
  ticker: Scalars['String']['output'];
  /** Time of the observation. */
  time: Scalars['DateTime']['output'];
};

/** The latest proof-of-reserves snapshot and its attestation. */
export type ProofOfReserves = {
  __typename?: 'ProofOfReserves';
  /** Age of the figures in seconds: now minus `dataAsOf`. */
  ageSeconds: Scalars['Int']['output'];
  /** The signature and the exact bytes it covers. */
  attestation: Attestation;
  /**
   * When the figures were observed: the oldest reserve-balance or wrapped-supply observation in the report, or the
   * signing time if that is earlier. A fresh signature over old data is still old data.
   */
  dataAsOf: Scalars['DateTime']['output'];
  /** The report that was signed. */
  report: ReserveReport;
  /** Snapshot id. */
  snapshotId: Scalars['Int']['output'];
  /** True when the figures are older than `staleAfterSeconds` (measured from `dataAsOf`). */
  stale: Scalars['Boolean']['output'];
  /** Staleness threshold in seconds. */
  staleAfterSeconds: Scalars['Int']['output'];
};

/** The root query type: every subgraph adds its entry points. */
export type Query = {
  __typename?: 'Query';
  /** The active deployment. */
  bridge: BridgeDeployment;
};

/** Where a report's data came from. */
export enum ReportSource {
  /** Live chain data. */
  Live = 'live',
  /** Recorded (demo or test) chain data. */
  Recorded = 'recorded'
}

/** Balance of one reserve address. */
export type ReserveBalance = {
  __typename?: 'ReserveBalance';
  /** The address. */
  address: Scalars['String']['output'];
  /** Balance, base units. */
  balance: Scalars['String']['output'];
  /** Block height of the observation. */
  height: Scalars['Int']['output'];
  /** Block time of the observation. */
  time: Scalars['DateTime']['output'];
};

/** Reserves against wrapped supply, per coin. */
export type ReserveReport = {
  __typename?: 'ReserveReport';
  /** Per coin. */
  assets: Array<AssetReserves>;
  /** Deployment version. */
  deploymentVersion: Scalars['String']['output'];
  /** When the snapshot was taken. */
  generatedAt: Scalars['DateTime']['output'];
  /** Network name. */
  network: Scalars['String']['output'];
  /** Schema tag (`coinwallet.bridge.proof-of-reserves/v1`). */
  schema: Scalars['String']['output'];
  /** Hex public key the report claims signed it. */
  signer: Scalars['String']['output'];
  /** Recorded or live data. */
  source: ReportSource;
};

/** Coins held on the native chain. */
export type Reserves = {
  __typename?: 'Reserves';
  /** Balance of each reserve address. */
  addresses: Array<ReserveBalance>;
  /** Chain id. */
  chain: Scalars['String']['output'];
  /** Sum of balances, base units. */
  total: Scalars['String']['output'];
};

/** A wrapped SPL token. */
export type WrappedToken = {
  __typename?: 'WrappedToken';
  /** The chain of the token. */
  chain: BridgeChain;
  /** Decimals of the base unit. */
  decimals: Scalars['Int']['output'];
  /** The SPL mint address. */
  mint: Scalars['String']['output'];
  /** Name. */
  name: Scalars['String']['output'];
  /** Ticker (for example `wLKY`). */
  ticker: Scalars['String']['output'];
};

export type WithIndex<TObject> = TObject & Record<string, any>;
export type ResolversObject<TObject> = WithIndex<TObject>;

export type ResolverTypeWrapper<T> = Promise<T> | T;


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





/** Mapping between all available schema types and the resolvers types */
export type ResolversTypes = ResolversObject<{
  AssetReserves: ResolverTypeWrapper<AssetReservesModel>;
  Int: ResolverTypeWrapper<Scalars['Int']['output']>;
  String: ResolverTypeWrapper<Scalars['String']['output']>;
  Attestation: ResolverTypeWrapper<Attestation>;
  AttestationKey: ResolverTypeWrapper<AttestationKey>;
  Boolean: ResolverTypeWrapper<Scalars['Boolean']['output']>;
  BridgeChain: ResolverTypeWrapper<ChainModel>;
  BridgeCoin: ResolverTypeWrapper<BridgeAssetModel>;
  BridgeConfig: ResolverTypeWrapper<BridgeConfig>;
  BridgeDeployment: ResolverTypeWrapper<DeploymentModel>;
  BridgeLane: ResolverTypeWrapper<LaneModel>;
  BridgeNetwork: null;
  ChainKind: null;
  Coin: ResolverTypeWrapper<Coin>;
  ID: ResolverTypeWrapper<Scalars['ID']['output']>;
  DateTime: ResolverTypeWrapper<Scalars['DateTime']['output']>;
  LaneDirection: null;
  LaneFees: ResolverTypeWrapper<LaneFees>;
  Float: ResolverTypeWrapper<Scalars['Float']['output']>;
  LaneStatus: null;
  Liabilities: ResolverTypeWrapper<Liabilities>;
  ProofOfReserves: ResolverTypeWrapper<StoredSnapshotModel>;
  Query: ResolverTypeWrapper<Record<PropertyKey, never>>;
  ReportSource: null;
  ReserveBalance: ResolverTypeWrapper<ReserveBalanceModel>;
  ReserveReport: ResolverTypeWrapper<ReserveReportModel>;
  Reserves: ResolverTypeWrapper<Omit<Reserves, 'addresses'> & { addresses: Array<ResolversTypes['ReserveBalance']> }>;
  WrappedToken: ResolverTypeWrapper<Omit<WrappedToken, 'chain'> & { chain: ResolversTypes['BridgeChain'] }>;
}>;

/** Mapping between all available schema types and the resolvers parents */
export type ResolversParentTypes = ResolversObject<{
  AssetReserves: AssetReservesModel;
  Int: Scalars['Int']['output'];
  String: Scalars['String']['output'];
  Attestation: Attestation;
  AttestationKey: AttestationKey;
  Boolean: Scalars['Boolean']['output'];
  BridgeChain: ChainModel;
  BridgeCoin: BridgeAssetModel;
  BridgeConfig: BridgeConfig;
  BridgeDeployment: DeploymentModel;
  BridgeLane: LaneModel;
  Coin: Coin;
  ID: Scalars['ID']['output'];
  DateTime: Scalars['DateTime']['output'];
  LaneFees: LaneFees;
  Float: Scalars['Float']['output'];
  Liabilities: Liabilities;
  ProofOfReserves: StoredSnapshotModel;
  Query: Record<PropertyKey, never>;
  ReserveBalance: ReserveBalanceModel;
  ReserveReport: ReserveReportModel;
  Reserves: Omit<Reserves, 'addresses'> & { addresses: Array<ResolversParentTypes['ReserveBalance']> };
  WrappedToken: Omit<WrappedToken, 'chain'> & { chain: ResolversParentTypes['BridgeChain'] };
}>;

export type AssetReservesResolvers<ContextType = BridgeContext, ParentType extends ResolversParentTypes['AssetReserves'] = ResolversParentTypes['AssetReserves']> = ResolversObject<{
  coin?: Resolver<Maybe<ResolversTypes['Coin']>, ParentType, ContextType>;
  decimals?: Resolver<ResolversTypes['Int'], ParentType, ContextType>;
  liabilities?: Resolver<ResolversTypes['Liabilities'], ParentType, ContextType>;
  ratio?: Resolver<Maybe<ResolversTypes['String']>, ParentType, ContextType>;
  reserves?: Resolver<ResolversTypes['Reserves'], ParentType, ContextType>;
  ticker?: Resolver<ResolversTypes['String'], ParentType, ContextType>;
}>;

export type AttestationResolvers<ContextType = BridgeContext, ParentType extends ResolversParentTypes['Attestation'] = ResolversParentTypes['Attestation']> = ResolversObject<{
  algorithm?: Resolver<ResolversTypes['String'], ParentType, ContextType>;
  canonical?: Resolver<ResolversTypes['String'], ParentType, ContextType>;
  publicKey?: Resolver<ResolversTypes['String'], ParentType, ContextType>;
  signature?: Resolver<ResolversTypes['String'], ParentType, ContextType>;
}>;

export type AttestationKeyResolvers<ContextType = BridgeContext, ParentType extends ResolversParentTypes['AttestationKey'] = ResolversParentTypes['AttestationKey']> = ResolversObject<{
  algorithm?: Resolver<ResolversTypes['String'], ParentType, ContextType>;
  pinned?: Resolver<ResolversTypes['Boolean'], ParentType, ContextType>;
  publicKey?: Resolver<Maybe<ResolversTypes['String']>, ParentType, ContextType>;
  schema?: Resolver<ResolversTypes['String'], ParentType, ContextType>;
}>;

export type BridgeChainResolvers<ContextType = BridgeContext, ParentType extends ResolversParentTypes['BridgeChain'] = ResolversParentTypes['BridgeChain']> = ResolversObject<{
  bridgeProgram?: Resolver<Maybe<ResolversTypes['String']>, ParentType, ContextType>;
  cluster?: Resolver<Maybe<ResolversTypes['String']>, ParentType, ContextType>;
  id?: Resolver<ResolversTypes['String'], ParentType, ContextType>;
  kind?: Resolver<ResolversTypes['ChainKind'], ParentType, ContextType>;
  name?: Resolver<ResolversTypes['String'], ParentType, ContextType>;
  ticker?: Resolver<Maybe<ResolversTypes['String']>, ParentType, ContextType>;
}>;

export type BridgeCoinResolvers<ContextType = BridgeContext, ParentType extends ResolversParentTypes['BridgeCoin'] = ResolversParentTypes['BridgeCoin']> = ResolversObject<{
  coin?: Resolver<Maybe<ResolversTypes['Coin']>, ParentType, ContextType>;
  decimals?: Resolver<ResolversTypes['Int'], ParentType, ContextType>;
  lanes?: Resolver<Array<ResolversTypes['BridgeLane']>, ParentType, ContextType>;
  name?: Resolver<ResolversTypes['String'], ParentType, ContextType>;
  nativeChain?: Resolver<ResolversTypes['BridgeChain'], ParentType, ContextType>;
  paused?: Resolver<ResolversTypes['Boolean'], ParentType, ContextType>;
  reserveAddresses?: Resolver<Array<ResolversTypes['String']>, ParentType, ContextType>;
  ticker?: Resolver<ResolversTypes['String'], ParentType, ContextType>;
  wrapped?: Resolver<ResolversTypes['WrappedToken'], ParentType, ContextType>;
}>;

export type BridgeConfigResolvers<ContextType = BridgeContext, ParentType extends ResolversParentTypes['BridgeConfig'] = ResolversParentTypes['BridgeConfig']> = ResolversObject<{
  attestation?: Resolver<ResolversTypes['AttestationKey'], ParentType, ContextType>;
  ratioDecimals?: Resolver<ResolversTypes['Int'], ParentType, ContextType>;
  staleAfterSeconds?: Resolver<ResolversTypes['Int'], ParentType, ContextType>;
}>;

export type BridgeDeploymentResolvers<ContextType = BridgeContext, ParentType extends ResolversParentTypes['BridgeDeployment'] = ResolversParentTypes['BridgeDeployment']> = ResolversObject<{
  chains?: Resolver<Array<ResolversTypes['BridgeChain']>, ParentType, ContextType>;
  coins?: Resolver<Array<ResolversTypes['BridgeCoin']>, ParentType, ContextType>;
  config?: Resolver<ResolversTypes['BridgeConfig'], ParentType, ContextType>;
  label?: Resolver<ResolversTypes['String'], ParentType, ContextType>;
  lanes?: Resolver<Array<ResolversTypes['BridgeLane']>, ParentType, ContextType>;
  network?: Resolver<ResolversTypes['BridgeNetwork'], ParentType, ContextType>;
  proofOfReserves?: Resolver<Maybe<ResolversTypes['ProofOfReserves']>, ParentType, ContextType>;
  version?: Resolver<ResolversTypes['String'], ParentType, ContextType>;
}>;

export type BridgeLaneResolvers<ContextType = BridgeContext, ParentType extends ResolversParentTypes['BridgeLane'] = ResolversParentTypes['BridgeLane']> = ResolversObject<{
  asset?: Resolver<ResolversTypes['String'], ParentType, ContextType>;
  confirmations?: Resolver<ResolversTypes['Int'], ParentType, ContextType>;
  depositAddress?: Resolver<Maybe<ResolversTypes['String']>, ParentType, ContextType>;
  direction?: Resolver<ResolversTypes['LaneDirection'], ParentType, ContextType>;
  fees?: Resolver<ResolversTypes['LaneFees'], ParentType, ContextType>;
  from?: Resolver<ResolversTypes['String'], ParentType, ContextType>;
  id?: Resolver<ResolversTypes['String'], ParentType, ContextType>;
  maxAmount?: Resolver<ResolversTypes['String'], ParentType, ContextType>;
  minAmount?: Resolver<ResolversTypes['String'], ParentType, ContextType>;
  pausedReason?: Resolver<Maybe<ResolversTypes['String']>, ParentType, ContextType>;
  status?: Resolver<ResolversTypes['LaneStatus'], ParentType, ContextType>;
  to?: Resolver<ResolversTypes['String'], ParentType, ContextType>;
}>;

export type BridgeNetworkResolvers = { MAINNET: 'mainnet', TESTNET: 'testnet' };

export type ChainKindResolvers = { SOLANA: 'solana', UTXO: 'utxo' };

export type CoinResolvers<ContextType = BridgeContext, ParentType extends ResolversParentTypes['Coin'] = ResolversParentTypes['Coin']> = ResolversObject<{
  id?: Resolver<ResolversTypes['ID'], ParentType, ContextType>;
}>;

export interface DateTimeScalarConfig extends GraphQLScalarTypeConfig<ResolversTypes['DateTime'], any> {
  name: 'DateTime';
}

export type LaneDirectionResolvers = { UNWRAP: 'unwrap', WRAP: 'wrap' };

export type LaneFeesResolvers<ContextType = BridgeContext, ParentType extends ResolversParentTypes['LaneFees'] = ResolversParentTypes['LaneFees']> = ResolversObject<{
  fixed?: Resolver<ResolversTypes['String'], ParentType, ContextType>;
  percent?: Resolver<ResolversTypes['Float'], ParentType, ContextType>;
}>;

export type LaneStatusResolvers = { ACTIVE: 'active', PAUSED: 'paused' };

export type LiabilitiesResolvers<ContextType = BridgeContext, ParentType extends ResolversParentTypes['Liabilities'] = ResolversParentTypes['Liabilities']> = ResolversObject<{
  chain?: Resolver<ResolversTypes['String'], ParentType, ContextType>;
  mint?: Resolver<ResolversTypes['String'], ParentType, ContextType>;
  slot?: Resolver<ResolversTypes['Int'], ParentType, ContextType>;
  supply?: Resolver<ResolversTypes['String'], ParentType, ContextType>;
  ticker?: Resolver<ResolversTypes['String'], ParentType, ContextType>;
  time?: Resolver<ResolversTypes['DateTime'], ParentType, ContextType>;
}>;

export type ProofOfReservesResolvers<ContextType = BridgeContext, ParentType extends ResolversParentTypes['ProofOfReserves'] = ResolversParentTypes['ProofOfReserves']> = ResolversObject<{
  ageSeconds?: Resolver<ResolversTypes['Int'], ParentType, ContextType>;
  attestation?: Resolver<ResolversTypes['Attestation'], ParentType, ContextType>;
  dataAsOf?: Resolver<ResolversTypes['DateTime'], ParentType, ContextType>;
  report?: Resolver<ResolversTypes['ReserveReport'], ParentType, ContextType>;
  snapshotId?: Resolver<ResolversTypes['Int'], ParentType, ContextType>;
  stale?: Resolver<ResolversTypes['Boolean'], ParentType, ContextType>;
  staleAfterSeconds?: Resolver<ResolversTypes['Int'], ParentType, ContextType>;
}>;

export type QueryResolvers<ContextType = BridgeContext, ParentType extends ResolversParentTypes['Query'] = ResolversParentTypes['Query']> = ResolversObject<{
  bridge?: Resolver<ResolversTypes['BridgeDeployment'], ParentType, ContextType>;
}>;

export type ReportSourceResolvers = { LIVE: 'live', RECORDED: 'recorded' };

export type ReserveBalanceResolvers<ContextType = BridgeContext, ParentType extends ResolversParentTypes['ReserveBalance'] = ResolversParentTypes['ReserveBalance']> = ResolversObject<{
  address?: Resolver<ResolversTypes['String'], ParentType, ContextType>;
  balance?: Resolver<ResolversTypes['String'], ParentType, ContextType>;
  height?: Resolver<ResolversTypes['Int'], ParentType, ContextType>;
  time?: Resolver<ResolversTypes['DateTime'], ParentType, ContextType>;
}>;

export type ReserveReportResolvers<ContextType = BridgeContext, ParentType extends ResolversParentTypes['ReserveReport'] = ResolversParentTypes['ReserveReport']> = ResolversObject<{
  assets?: Resolver<Array<ResolversTypes['AssetReserves']>, ParentType, ContextType>;
  deploymentVersion?: Resolver<ResolversTypes['String'], ParentType, ContextType>;
  generatedAt?: Resolver<ResolversTypes['DateTime'], ParentType, ContextType>;
  network?: Resolver<ResolversTypes['String'], ParentType, ContextType>;
  schema?: Resolver<ResolversTypes['String'], ParentType, ContextType>;
  signer?: Resolver<ResolversTypes['String'], ParentType, ContextType>;
  source?: Resolver<ResolversTypes['ReportSource'], ParentType, ContextType>;
}>;

export type ReservesResolvers<ContextType = BridgeContext, ParentType extends ResolversParentTypes['Reserves'] = ResolversParentTypes['Reserves']> = ResolversObject<{
  addresses?: Resolver<Array<ResolversTypes['ReserveBalance']>, ParentType, ContextType>;
  chain?: Resolver<ResolversTypes['String'], ParentType, ContextType>;
  total?: Resolver<ResolversTypes['String'], ParentType, ContextType>;
}>;

export type WrappedTokenResolvers<ContextType = BridgeContext, ParentType extends ResolversParentTypes['WrappedToken'] = ResolversParentTypes['WrappedToken']> = ResolversObject<{
  chain?: Resolver<ResolversTypes['BridgeChain'], ParentType, ContextType>;
  decimals?: Resolver<ResolversTypes['Int'], ParentType, ContextType>;
  mint?: Resolver<ResolversTypes['String'], ParentType, ContextType>;
  name?: Resolver<ResolversTypes['String'], ParentType, ContextType>;
  ticker?: Resolver<ResolversTypes['String'], ParentType, ContextType>;
}>;

export type Resolvers<ContextType = BridgeContext> = ResolversObject<{
  AssetReserves?: AssetReservesResolvers<ContextType>;
  Attestation?: AttestationResolvers<ContextType>;
  AttestationKey?: AttestationKeyResolvers<ContextType>;
  BridgeChain?: BridgeChainResolvers<ContextType>;
  BridgeCoin?: BridgeCoinResolvers<ContextType>;
  BridgeConfig?: BridgeConfigResolvers<ContextType>;
  BridgeDeployment?: BridgeDeploymentResolvers<ContextType>;
  BridgeLane?: BridgeLaneResolvers<ContextType>;
  BridgeNetwork?: BridgeNetworkResolvers;
  ChainKind?: ChainKindResolvers;
  Coin?: CoinResolvers<ContextType>;
  DateTime?: GraphQLScalarType;
  LaneDirection?: LaneDirectionResolvers;
  LaneFees?: LaneFeesResolvers<ContextType>;
  LaneStatus?: LaneStatusResolvers;
  Liabilities?: LiabilitiesResolvers<ContextType>;
  ProofOfReserves?: ProofOfReservesResolvers<ContextType>;
  Query?: QueryResolvers<ContextType>;
  ReportSource?: ReportSourceResolvers;
  ReserveBalance?: ReserveBalanceResolvers<ContextType>;
  ReserveReport?: ReserveReportResolvers<ContextType>;
  Reserves?: ReservesResolvers<ContextType>;
  WrappedToken?: WrappedTokenResolvers<ContextType>;
}>;

