import type { GraphQLResolveInfo, GraphQLScalarType, GraphQLScalarTypeConfig } from 'graphql';
import type { AssetMarket as AssetMarketModel, SupplyFigures as SupplyFiguresModel, SupplyReading as SupplyReadingModel, PriceChanges as PriceChangesModel } from '../../../src/engine/types.ts';
import type { CategoryMarket as CategoryMarketModel } from '../../../src/engine/categories.ts';
import type { GlobalMarket as GlobalMarketModel } from '../../../src/engine/global.ts';
import type { TrendingEntry as TrendingEntryModel } from '../../../src/engine/trending.ts';
import type { ServedTicker as ServedTickerModel } from '../../../src/market/present/tickers.ts';
import type { VenueStats as VenueStatsModel } from '../../../src/engine/trust.ts';
import type { BtcRate as BtcRateModel } from '../../../src/market/present/exchange-rates.ts';
import type { MoverRow as MoverRowModel, CoinHistoryRow as CoinHistoryRowModel, MarketsContext } from '../context.ts';
import type { NewCoin as NewCoinModel } from '../../../src/market/present/movers.ts';
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

/** One OHLC candle (daily for `candles`; daily or hourly for `candleRange`). Values are null when no rate is held. */
export type Candle = {
  __typename?: 'Candle';
  /** Closing price. */
  close?: Maybe<Scalars['Float']['output']>;
  /** Highest price. */
  high?: Maybe<Scalars['Float']['output']>;
  /** Lowest price. */
  low?: Maybe<Scalars['Float']['output']>;
  /** Opening price. */
  open?: Maybe<Scalars['Float']['output']>;
  /** Close time of the candle (the end of its UTC day or hour, also for the still open one). */
  time: Scalars['DateTime']['output'];
};

/** Width of `candleRange` candles. */
export enum CandleInterval {
  /** One candle per UTC day, stamped with the day's end. */
  Daily = 'DAILY',
  /** One candle per hour, stamped with the hour's end. */
  Hourly = 'HOURLY'
}

/** A curated category and its members' market figures; sums cover members with a verified figure. */
export type Category = {
  __typename?: 'Category';
  /** Members we track. */
  coinsCount: Scalars['Int']['output'];
  /** The category description. */
  description: Scalars['String']['output'];
  /** Category id (for example `layer-1`). */
  id: Scalars['ID']['output'];
  /** Sum of members' verified market caps; null when no member has one. */
  marketCap?: Maybe<Scalars['Float']['output']>;
  /** 24-hour percent change of the members' summed market cap at constant supply; null when no member has both. */
  marketCapChangePercentage24h?: Maybe<Scalars['Float']['output']>;
  /** Display name. */
  name: Scalars['String']['output'];
  /** Up to 3 members: market cap descending (members without one last), then volume, then id. */
  topCoins: Array<Coin>;
  /** When the figures were computed. */
  updatedAt: Scalars['DateTime']['output'];
  /** Members with a verified market cap. */
  verifiedCount: Scalars['Int']['output'];
  /** Sum of members' 24-hour volumes; null when no member has one. */
  volume24h?: Maybe<Scalars['Float']['output']>;
};


/** A curated category and its members' market figures; sums cover members with a verified figure. */
export type CategoryMarketCapArgs = {
  currency?: Scalars['String']['input'];
};


/** A curated category and its members' market figures; sums cover members with a verified figure. */
export type CategoryVolume24hArgs = {
  currency?: Scalars['String']['input'];
};

/** Order of `categories`. Nulls sort last. */
export enum CategoryOrder {
  /** Market cap ascending. */
  MarketCapAsc = 'MARKET_CAP_ASC',
  /** 24-hour market cap change ascending. */
  MarketCapChange_24HAsc = 'MARKET_CAP_CHANGE_24H_ASC',
  /** 24-hour market cap change descending. */
  MarketCapChange_24HDesc = 'MARKET_CAP_CHANGE_24H_DESC',
  /** Market cap descending. */
  MarketCapDesc = 'MARKET_CAP_DESC',
  /** Name ascending. */
  NameAsc = 'NAME_ASC',
  /** Name descending. */
  NameDesc = 'NAME_DESC'
}

/** Window of `topMovers`. */
export enum ChangeDuration {
  /** 7 days. */
  D7 = 'D7',
  /** 14 days. */
  D14 = 'D14',
  /** 30 days. */
  D30 = 'D30',
  /** 60 days. */
  D60 = 'D60',
  /** 1 hour. */
  H1 = 'H1',
  /** 24 hours. */
  H24 = 'H24',
  /** 1 year. */
  Y1 = 'Y1'
}

/** A chart: points oldest first, the current value last. */
export type Chart = {
  __typename?: 'Chart';
  /** The points, oldest first. */
  points: Array<ChartPoint>;
};

/** Spacing of chart points. */
export enum ChartInterval {
  /** Chosen from `days`: 5-minute up to 2 days, hourly up to 95 days, daily beyond. */
  Auto = 'AUTO',
  /** Daily points at 00:00 UTC. */
  Daily = 'DAILY',
  /** 5-minute points (the last 2 days are held at this resolution). */
  FiveMinutes = 'FIVE_MINUTES',
  /** Hourly points (the last 95 days are held at this resolution). */
  Hourly = 'HOURLY'
}

/** One chart point. */
export type ChartPoint = {
  __typename?: 'ChartPoint';
  /** Market cap at the close; null while supply was unverified or when it cannot be converted. */
  marketCap?: Maybe<Scalars['Float']['output']>;
  /** Closing price; null when it cannot be converted. */
  price?: Maybe<Scalars['Float']['output']>;
  /** Bucket start (UTC aligned), or the time of the current value for the last point. */
  time: Scalars['DateTime']['output'];
  /** 24-hour volume at the close; null when unknown or when it cannot be converted. */
  volume?: Maybe<Scalars['Float']['output']>;
};

/**
 * A coin tracked by the aggregation engine. All money figures are converted from USD to the requested quote currency
 * at read time; a figure that cannot be verified (or converted) is null, never guessed or zero.
 */
export type Coin = {
  __typename?: 'Coin';
  /** All-time high; null when the history holds no price. */
  ath?: Maybe<PriceExtreme>;
  /** All-time low; null when the history holds no price. */
  atl?: Maybe<PriceExtreme>;
  /**
   * OHLC candles between two times, oldest first: DAILY (spans up to 3,650 days) or HOURLY (spans up to 31 days within
   * the last 95 days); the still open candle last when the range reaches now. Each candle is converted with the rate
   * at its start; a candle whose rate is unknown is left out. REST: `/coins/{id}/ohlc/range`.
   */
  candleRange: Array<Candle>;
  /**
   * Daily OHLC candles, oldest first, the still open day last. Null when the coin has no history. Converted with the
   * rate of each candle's day.
   */
  candles?: Maybe<Array<Candle>>;
  /** Percent changes of the USD price over the standard windows. */
  changes: PriceChanges;
  /**
   * Price, market cap and volume history. Resolution follows `days` as the price API's market_chart does (5-minute up to
   * 2 days, hourly up to 95 days, daily beyond; CoinGecko: 1 and 90) unless `interval` says otherwise. Each point is
   * converted with the rate of its own time.
   */
  chart?: Maybe<Chart>;
  /** Confidence in the aggregate price, in [0, 1]; null when the price is null. */
  confidence?: Maybe<Scalars['Float']['output']>;
  /** Fully diluted valuation: price × max supply. Null when the max supply is unknown or uncapped. */
  fullyDilutedValuation?: Maybe<Scalars['Float']['output']>;
  /** Highest aggregate price of the last 24 hours; null when history does not reach back 24 hours. */
  high24h?: Maybe<Scalars['Float']['output']>;
  /**
   * The coin as of 00:00 UTC of `date`: the close of its last observation before then (its daily bar of the day
   * before). REST: `/coins/{id}/history`.
   */
  history: CoinHistory;
  /** The coin id, CoinGecko style (for example `litecoin`). */
  id: Scalars['ID']['output'];
  /** Time of the newest eligible ticker; null when none is eligible. */
  lastUpdated?: Maybe<Scalars['DateTime']['output']>;
  /** When we first observed the coin (the open of its first daily bar); null without history. */
  listedAt?: Maybe<Scalars['DateTime']['output']>;
  /** Lowest aggregate price of the last 24 hours; null when history does not reach back 24 hours. */
  low24h?: Maybe<Scalars['Float']['output']>;
  /**
   * Market cap: price × verified circulating supply. Null unless two independent sources agree on the circulating
   * supply.
   */
  marketCap?: Maybe<Scalars['Float']['output']>;
  /** Absolute market cap change over 24 hours; null when the market cap is unverified. */
  marketCapChange24h?: Maybe<Scalars['Float']['output']>;
  /** Market cap change over 24 hours in percent; null when the market cap is unverified. */
  marketCapChangePercentage24h?: Maybe<Scalars['Float']['output']>;
  /** Proof-of-work network figures (for the mining calculator); null for coins that are not mined here. */
  mining?: Maybe<MiningInfo>;
  /** Display name (for example `Litecoin`). */
  name: Scalars['String']['output'];
  /** Aggregate price: the volume-weighted median of eligible tickers. Null when no ticker is eligible. */
  price?: Maybe<Scalars['Float']['output']>;
  /** Absolute price change over 24 hours; null when history does not reach back 24 hours. */
  priceChange24h?: Maybe<Scalars['Float']['output']>;
  /** 1-based rank by market cap among coins with a verified market cap; null when the market cap is unverified. */
  rank?: Maybe<Scalars['Int']['output']>;
  /** Hourly closes over the last 7 days, oldest first; a point is null when it cannot be converted. */
  sparkline7d: Array<Maybe<Scalars['Float']['output']>>;
  /** Supply figures after verification. */
  supply: Supply;
  /** Lowercase ticker symbol (for example `ltc`). */
  symbol: Scalars['String']['output'];
  /**
   * The venues' markets of this coin with the engine's verdict on each, `TRUST_SCORE_DESC` first by default.
   * REST: `/coins/{id}/tickers`.
   */
  tickers: Array<Ticker>;
  /** Distinct venues among the eligible tickers. */
  venues: Scalars['Int']['output'];
  /** Volume of the last 24 hours over eligible tickers. Null when the price is null. */
  volume24h?: Maybe<Scalars['Float']['output']>;
};


/**
 * A coin tracked by the aggregation engine. All money figures are converted from USD to the requested quote currency
 * at read time; a figure that cannot be verified (or converted) is null, never guessed or zero.
 */
export type CoinAthArgs = {
  currency?: Scalars['String']['input'];
};


/**
 * A coin tracked by the aggregation engine. All money figures are converted from USD to the requested quote currency
 * at read time; a figure that cannot be verified (or converted) is null, never guessed or zero.
 */
export type CoinAtlArgs = {
  currency?: Scalars['String']['input'];
};


/**
 * A coin tracked by the aggregation engine. All money figures are converted from USD to the requested quote currency
 * at read time; a figure that cannot be verified (or converted) is null, never guessed or zero.
 */
export type CoinCandleRangeArgs = {
  currency?: Scalars['String']['input'];
  from: Scalars['DateTime']['input'];
  interval: CandleInterval;
  to: Scalars['DateTime']['input'];
};


/**
 * A coin tracked by the aggregation engine. All money figures are converted from USD to the requested quote currency
 * at read time; a figure that cannot be verified (or converted) is null, never guessed or zero.
 */
export type CoinCandlesArgs = {
  currency?: Scalars['String']['input'];
  days: Scalars['Int']['input'];
};


/**
 * A coin tracked by the aggregation engine. All money figures are converted from USD to the requested quote currency
 * at read time; a figure that cannot be verified (or converted) is null, never guessed or zero.
 */
export type CoinChartArgs = {
  currency?: Scalars['String']['input'];
  days: Scalars['Int']['input'];
  interval?: InputMaybe<ChartInterval>;
};


/**
 * A coin tracked by the aggregation engine. All money figures are converted from USD to the requested quote currency
 * at read time; a figure that cannot be verified (or converted) is null, never guessed or zero.
 */
export type CoinFullyDilutedValuationArgs = {
  currency?: Scalars['String']['input'];
};


/**
 * A coin tracked by the aggregation engine. All money figures are converted from USD to the requested quote currency
 * at read time; a figure that cannot be verified (or converted) is null, never guessed or zero.
 */
export type CoinHigh24hArgs = {
  currency?: Scalars['String']['input'];
};


/**
 * A coin tracked by the aggregation engine. All money figures are converted from USD to the requested quote currency
 * at read time; a figure that cannot be verified (or converted) is null, never guessed or zero.
 */
export type CoinHistoryArgs = {
  date: Scalars['String']['input'];
};


/**
 * A coin tracked by the aggregation engine. All money figures are converted from USD to the requested quote currency
 * at read time; a figure that cannot be verified (or converted) is null, never guessed or zero.
 */
export type CoinLow24hArgs = {
  currency?: Scalars['String']['input'];
};


/**
 * A coin tracked by the aggregation engine. All money figures are converted from USD to the requested quote currency
 * at read time; a figure that cannot be verified (or converted) is null, never guessed or zero.
 */
export type CoinMarketCapArgs = {
  currency?: Scalars['String']['input'];
};


/**
 * A coin tracked by the aggregation engine. All money figures are converted from USD to the requested quote currency
 * at read time; a figure that cannot be verified (or converted) is null, never guessed or zero.
 */
export type CoinMarketCapChange24hArgs = {
  currency?: Scalars['String']['input'];
};


/**
 * A coin tracked by the aggregation engine. All money figures are converted from USD to the requested quote currency
 * at read time; a figure that cannot be verified (or converted) is null, never guessed or zero.
 */
export type CoinPriceArgs = {
  currency?: Scalars['String']['input'];
};


/**
 * A coin tracked by the aggregation engine. All money figures are converted from USD to the requested quote currency
 * at read time; a figure that cannot be verified (or converted) is null, never guessed or zero.
 */
export type CoinPriceChange24hArgs = {
  currency?: Scalars['String']['input'];
};


/**
 * A coin tracked by the aggregation engine. All money figures are converted from USD to the requested quote currency
 * at read time; a figure that cannot be verified (or converted) is null, never guessed or zero.
 */
export type CoinSparkline7dArgs = {
  currency?: Scalars['String']['input'];
};


/**
 * A coin tracked by the aggregation engine. All money figures are converted from USD to the requested quote currency
 * at read time; a figure that cannot be verified (or converted) is null, never guessed or zero.
 */
export type CoinTickersArgs = {
  exchangeIds?: InputMaybe<Array<Scalars['ID']['input']>>;
  first?: InputMaybe<Scalars['Int']['input']>;
  order?: InputMaybe<TickerOrder>;
};


/**
 * A coin tracked by the aggregation engine. All money figures are converted from USD to the requested quote currency
 * at read time; a figure that cannot be verified (or converted) is null, never guessed or zero.
 */
export type CoinVolume24hArgs = {
  currency?: Scalars['String']['input'];
};

/** A page of coins (Relay cursor connection). */
export type CoinConnection = {
  __typename?: 'CoinConnection';
  /** The coins of this page, with their cursors. */
  edges: Array<CoinEdge>;
  /** Where this page sits in the whole list. */
  pageInfo: PageInfo;
  /** Number of coins matching the filter, over all pages. */
  totalCount: Scalars['Int']['output'];
};

/** A coin and its cursor. */
export type CoinEdge = {
  __typename?: 'CoinEdge';
  /** Opaque cursor; pass it as `after` to continue after this coin. */
  cursor: Scalars['String']['output'];
  /** The coin. */
  node: Coin;
};

/** A coin as of 00:00 UTC of a date. Figures are null when the coin has no observation in the 24 hours before. */
export type CoinHistory = {
  __typename?: 'CoinHistory';
  /** The day asked for, `yyyy-mm-dd`. */
  date: Scalars['String']['output'];
  /** The market cap then; null while supply was unverified. */
  marketCap?: Maybe<Scalars['Float']['output']>;
  /** When the observation was made (before 00:00 UTC of `date`); null without one. */
  observedAt?: Maybe<Scalars['DateTime']['output']>;
  /** The price then, at the currency's rate of that moment. */
  price?: Maybe<Scalars['Float']['output']>;
  /** The 24-hour volume then. */
  volume?: Maybe<Scalars['Float']['output']>;
};


/** A coin as of 00:00 UTC of a date. Figures are null when the coin has no observation in the 24 hours before. */
export type CoinHistoryMarketCapArgs = {
  currency?: Scalars['String']['input'];
};


/** A coin as of 00:00 UTC of a date. Figures are null when the coin has no observation in the 24 hours before. */
export type CoinHistoryPriceArgs = {
  currency?: Scalars['String']['input'];
};


/** A coin as of 00:00 UTC of a date. Figures are null when the coin has no observation in the 24 hours before. */
export type CoinHistoryVolumeArgs = {
  currency?: Scalars['String']['input'];
};

/** Order of `coins`. Nulls sort last in every order. */
export enum CoinOrder {
  /** Largest 24-hour price rise first. */
  Gainers = 'GAINERS',
  /** Id ascending. */
  IdAsc = 'ID_ASC',
  /** Id descending. */
  IdDesc = 'ID_DESC',
  /** Largest 24-hour price fall first. */
  Losers = 'LOSERS',
  /** Market cap ascending. */
  MarketCapAsc = 'MARKET_CAP_ASC',
  /** Rank order: coins with a market cap by rank, then the rest by volume. */
  MarketCapDesc = 'MARKET_CAP_DESC',
  /** 24-hour volume ascending. */
  VolumeAsc = 'VOLUME_ASC',
  /** 24-hour volume descending. */
  VolumeDesc = 'VOLUME_DESC'
}

/** A band of price confidence and how many coins fall in it. */
export type ConfidenceBand = {
  __typename?: 'ConfidenceBand';
  /** Priced coins whose confidence is in the band. */
  coins: Scalars['Int']['output'];
  /** Lower bound of the band (inclusive), in [0, 1]. */
  from: Scalars['Float']['output'];
  /** Upper bound of the band (exclusive, except 1 for the last band). */
  to: Scalars['Float']['output'];
};

/** CoinGecko's kind of a currency in `exchangeRates`. */
export enum CurrencyType {
  /** Gold or silver. */
  Commodity = 'COMMODITY',
  /** A crypto currency or unit (BTC, ETH, bits, sats). */
  Crypto = 'CRYPTO',
  /** A national currency (and the IMF SDR). */
  Fiat = 'FIAT'
}

/** One coin's share of the total market cap. */
export type Dominance = {
  __typename?: 'Dominance';
  /** Share in percent. */
  percentage: Scalars['Float']['output'];
  /** Lowercase symbol of the coin. */
  symbol: Scalars['String']['output'];
};

/**
 * A venue we aggregate from, with figures from its tickers in the current snapshot. Facts we hold no source for (year,
 * country, links) are not offered. REST: `/exchanges/{id}`.
 */
export type Exchange = {
  __typename?: 'Exchange';
  /** Distinct base coins among its tickers. */
  coins: Scalars['Int']['output'];
  /** The venue id (a ccxt exchange id, or a demo venue's). */
  id: Scalars['ID']['output'];
  /** Tickers the engine judged (used, outliers, stale). */
  judgedTickers: Scalars['Int']['output'];
  /** CEX or DEX. */
  kind: VenueKind;
  /** Display name (the id for live venues). */
  name: Scalars['String']['output'];
  /** 24-hour volume over its tickers used in a price only (outliers left out); null when it has none. */
  normalizedVolume24h?: Maybe<Scalars['Float']['output']>;
  /** Its tickers (markets). */
  pairs: Scalars['Int']['output'];
  /** Its tickers, `TRUST_SCORE_DESC` first by default. REST: `/exchanges/{id}/tickers`. */
  tickers: Array<Ticker>;
  /** Our trust score 0–10: round(10 × used ÷ judged tickers); null when none was judged. */
  trustScore?: Maybe<Scalars['Int']['output']>;
  /** 1-based rank by trust score, then volume; null without a trust score. */
  trustScoreRank?: Maybe<Scalars['Int']['output']>;
  /** Tickers used in a price. */
  usedTickers: Scalars['Int']['output'];
  /** 24-hour volume over its fresh, converted tickers (used and outliers); null when it has none. */
  volume24h?: Maybe<Scalars['Float']['output']>;
};


/**
 * A venue we aggregate from, with figures from its tickers in the current snapshot. Facts we hold no source for (year,
 * country, links) are not offered. REST: `/exchanges/{id}`.
 */
export type ExchangeNormalizedVolume24hArgs = {
  currency?: Scalars['String']['input'];
};


/**
 * A venue we aggregate from, with figures from its tickers in the current snapshot. Facts we hold no source for (year,
 * country, links) are not offered. REST: `/exchanges/{id}`.
 */
export type ExchangeTickersArgs = {
  coinIds?: InputMaybe<Array<Scalars['ID']['input']>>;
  first?: InputMaybe<Scalars['Int']['input']>;
  order?: InputMaybe<TickerOrder>;
};


/**
 * A venue we aggregate from, with figures from its tickers in the current snapshot. Facts we hold no source for (year,
 * country, links) are not offered. REST: `/exchanges/{id}`.
 */
export type ExchangeVolume24hArgs = {
  currency?: Scalars['String']['input'];
};

/** How much of a currency one bitcoin buys. */
export type ExchangeRate = {
  __typename?: 'ExchangeRate';
  /** The currency code (lowercase). */
  code: Scalars['String']['output'];
  /** The currency's name. */
  name: Scalars['String']['output'];
  /** Fiat, crypto or commodity. */
  type: CurrencyType;
  /** Its sign (`$`, `€`) or uppercase code. */
  unit: Scalars['String']['output'];
  /** Units of the currency per bitcoin; null when our bitcoin price or the currency's rate is unknown. */
  value?: Maybe<Scalars['Float']['output']>;
};

/** The market-wide chart: sums over the coins verified at each point. */
export type GlobalChart = {
  __typename?: 'GlobalChart';
  /** Points oldest first; the current totals last. */
  points: Array<GlobalChartPoint>;
};

/** One point of `globalChart`. */
export type GlobalChartPoint = {
  __typename?: 'GlobalChartPoint';
  /** Sum of the market caps of the coins whose market cap was verified then; null when none was or no rate is held. */
  marketCap?: Maybe<Scalars['Float']['output']>;
  /** Bucket start (UTC aligned), or the time of the current totals for the last point. */
  time: Scalars['DateTime']['output'];
  /** Sum of those same coins' 24-hour volumes; null likewise. */
  volume?: Maybe<Scalars['Float']['output']>;
};

/** Market-wide totals. Totals count only coins with a verified market cap, and say how many. */
export type GlobalMarket = {
  __typename?: 'GlobalMarket';
  /** Coins with an aggregate price. */
  activeCryptocurrencies: Scalars['Int']['output'];
  /** 24-hour percent change of the summed market cap (USD); null when no coin has both figures. */
  marketCapChangePercentage24hUsd?: Maybe<Scalars['Float']['output']>;
  /** Share of the total market cap of the top 10 verified coins, largest first. */
  marketCapPercentage: Array<Dominance>;
  /** Sum of the venue counts of all coins. */
  markets: Scalars['Int']['output'];
  /** Sum of the verified coins' market caps; null when there is none or it cannot be converted. */
  totalMarketCap?: Maybe<Scalars['Float']['output']>;
  /** Sum of the verified coins' 24-hour volumes; null when none has a volume or it cannot be converted. */
  totalVolume?: Maybe<Scalars['Float']['output']>;
  /** When the figures were computed. */
  updatedAt: Scalars['DateTime']['output'];
  /** Coins with a verified market cap: the set the totals are computed over. */
  verifiedCoins: Scalars['Int']['output'];
};


/** Market-wide totals. Totals count only coins with a verified market cap, and say how many. */
export type GlobalMarketTotalMarketCapArgs = {
  currency?: Scalars['String']['input'];
};


/** Market-wide totals. Totals count only coins with a verified market cap, and say how many. */
export type GlobalMarketTotalVolumeArgs = {
  currency?: Scalars['String']['input'];
};

/** Health of the market data, for dashboards. */
export type MarketHealth = {
  __typename?: 'MarketHealth';
  /** When the snapshot these figures describe was computed; null before the first aggregation. */
  computedAt?: Maybe<Scalars['DateTime']['output']>;
  /** How many priced coins fall in each price-confidence band. */
  confidence: Array<ConfidenceBand>;
  /** Each ingestion source with its freshness and rejected records. */
  sources: Array<SourceHealth>;
  /** Tracked coins whose circulating supply is not verified by two agreeing sources (their market cap is null). */
  unverifiedSupply: Array<Coin>;
};

/** A coin's row of `Subscription.markets`, in the requested order. Nulls as in `Coin`. */
export type MarketRow = {
  __typename?: 'MarketRow';
  /** Price change over 24 hours in percent, in the quote currency: null when the history does not reach back 24 hours. */
  change24h?: Maybe<Scalars['Float']['output']>;
  /** Confidence in the aggregate price, in [0, 1]: null when the price is null. */
  confidence?: Maybe<Scalars['Float']['output']>;
  /** The quote currency of the figures (lowercase). */
  currency: Scalars['String']['output'];
  /** The coin id (for example `litecoin`). */
  id: Scalars['ID']['output'];
  /** Market cap, as `Coin.marketCap`: null unless two independent sources agree on the circulating supply. */
  marketCap?: Maybe<Scalars['Float']['output']>;
  /** Display name (for example `Litecoin`). */
  name: Scalars['String']['output'];
  /** 1-based position in the requested order. */
  position: Scalars['Int']['output'];
  /** Aggregate price, as `Coin.price`: null when no ticker is eligible or the currency has no rate. */
  price?: Maybe<Scalars['Float']['output']>;
  /** 1-based rank by verified market cap, as `Coin.rank`: null when the market cap is unverified. */
  rank?: Maybe<Scalars['Int']['output']>;
  /** Lowercase ticker symbol (for example `ltc`). */
  symbol: Scalars['String']['output'];
  /** Time of the newest eligible ticker: null when none is eligible. */
  updatedAt?: Maybe<Scalars['DateTime']['output']>;
  /** Volume of the last 24 hours, as `Coin.volume24h`: null when the price is null. */
  volume24h?: Maybe<Scalars['Float']['output']>;
};

/**
 * Proof-of-work network figures of a mined coin, each with where and when it was observed. A figure that is not known
 * is null, never a guess.
 */
export type MiningInfo = {
  __typename?: 'MiningInfo';
  /** Proof-of-work algorithm, for example `scrypt`. */
  algorithm: Scalars['String']['output'];
  /** Coins paid per block (subsidy, without fees) at `observedAt`; null when unknown. */
  blockReward?: Maybe<Scalars['Float']['output']>;
  /** Seconds between blocks: the mean spacing of the chain's recent blocks as a node reports them (the target spacing on a chain in equilibrium), or the demo's target; null when unknown. */
  blockTimeSeconds?: Maybe<Scalars['Float']['output']>;
  /** Network difficulty at `observedAt`; null when unknown. */
  difficulty?: Maybe<Scalars['Float']['output']>;
  /** Height of the chain's newest block when observed; null when the source does not say. */
  height?: Maybe<Scalars['Int']['output']>;
  /** Network hashrate in hashes per second: as the node reports it, else estimated from difficulty and block time; null when neither is known. */
  networkHashrate?: Maybe<Scalars['Float']['output']>;
  /** When the figures were observed; null when unknown. */
  observedAt?: Maybe<Scalars['DateTime']['output']>;
  /** Where the figures come from (a node such as `node:ltc`, or `demo` for the seeded demo dataset). */
  source: Scalars['String']['output'];
  /** True when the figures are older than the freshness window (2 hours by default): the source has stopped answering. Figures older than a day are not served at all. */
  stale: Scalars['Boolean']['output'];
  /** Time of that newest block; null when unknown. */
  tipTime?: Maybe<Scalars['DateTime']['output']>;
};

/** A coin whose price moved, in the currency `topMovers` was asked in. */
export type Mover = {
  __typename?: 'Mover';
  /** Percent change of its price over the duration. */
  change: Scalars['Float']['output'];
  /** The coin. */
  coin: Coin;
  /** Its price now; null when the currency's rate is unknown. */
  price?: Maybe<Scalars['Float']['output']>;
  /** Its 24-hour volume; null when the currency's rate is unknown. */
  volume24h?: Maybe<Scalars['Float']['output']>;
};

/** The largest rises and falls. REST: `/coins/top_gainers_losers`. */
export type Movers = {
  __typename?: 'Movers';
  /** Largest rises first (change > 0), at most 30. */
  gainers: Array<Mover>;
  /** Largest falls first (change < 0), at most 30. */
  losers: Array<Mover>;
};

/** A coin we began tracking, and when. REST: `/coins/list/new`. */
export type NewCoin = {
  __typename?: 'NewCoin';
  /** The coin. */
  coin: Coin;
  /** Our first observation of it. */
  listedAt: Scalars['DateTime']['output'];
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

/** Percent changes of the USD price; a window is null when the history does not reach back that far. */
export type PriceChanges = {
  __typename?: 'PriceChanges';
  /** Change over 7 days, percent. */
  d7?: Maybe<Scalars['Float']['output']>;
  /** Change over 14 days, percent. */
  d14?: Maybe<Scalars['Float']['output']>;
  /** Change over 30 days, percent. */
  d30?: Maybe<Scalars['Float']['output']>;
  /** Change over 60 days, percent. */
  d60?: Maybe<Scalars['Float']['output']>;
  /** Change over 200 days, percent. */
  d200?: Maybe<Scalars['Float']['output']>;
  /** Change over 1 hour, percent. */
  h1?: Maybe<Scalars['Float']['output']>;
  /** Change over 24 hours, percent. */
  h24?: Maybe<Scalars['Float']['output']>;
  /** Change over 1 year, percent. */
  y1?: Maybe<Scalars['Float']['output']>;
};

/** An extreme price and when it happened. */
export type PriceExtreme = {
  __typename?: 'PriceExtreme';
  /** When the price was reached. */
  date: Scalars['DateTime']['output'];
  /** The price in the requested currency; null when no rate of that currency is held. */
  value?: Maybe<Scalars['Float']['output']>;
};

/** One coin's live price figures in one quote currency: an item of `Subscription.prices`. Nulls as in `Coin`. */
export type PriceUpdate = {
  __typename?: 'PriceUpdate';
  /**
   * Price change over 24 hours in percent, in the quote currency (the price API's `<currency>_24h_change`); null when
   * the history does not reach back 24 hours or a rate is missing.
   */
  change24h?: Maybe<Scalars['Float']['output']>;
  /** Confidence in the aggregate price, in [0, 1], as `Coin.confidence`: null when the price is null. */
  confidence?: Maybe<Scalars['Float']['output']>;
  /** The quote currency of the figures (lowercase). */
  currency: Scalars['String']['output'];
  /** The coin id (for example `litecoin`). */
  id: Scalars['ID']['output'];
  /** Aggregate price, as `Coin.price`: null when no ticker is eligible or the currency has no rate. */
  price?: Maybe<Scalars['Float']['output']>;
  /** Lowercase ticker symbol (for example `ltc`). */
  symbol: Scalars['String']['output'];
  /** Time of the newest eligible ticker, as `Coin.lastUpdated`: null when none is eligible. */
  updatedAt?: Maybe<Scalars['DateTime']['output']>;
};

/** The root query type: every subgraph adds its entry points. */
export type Query = {
  __typename?: 'Query';
  /** Every category with its market figures. */
  categories: Array<Category>;
  /** One coin by id; null when it is not tracked. */
  coin?: Maybe<Coin>;
  /** Coins, a page at a time. */
  coins: CoinConnection;
  /** Supported quote currency codes (lowercase), for the `currency` arguments. */
  currencies: Array<Scalars['String']['output']>;
  /** One venue; null when no venue has that id. */
  exchange?: Maybe<Exchange>;
  /** Every supported currency against bitcoin. REST: `/exchange_rates`. */
  exchangeRates: Array<ExchangeRate>;
  /** The venues we aggregate from, ranked by trust score, then volume. REST: `/exchanges`. */
  exchanges: Array<Exchange>;
  /** Market-wide totals. */
  global: GlobalMarket;
  /**
   * Market-wide market cap and volume over the last `days` (as `Coin.chart`: 5-minute up to 2 days, hourly up
   * to 95 days, daily beyond), each point at the rate of its time. REST: `/global/market_cap_chart`.
   */
  globalChart: GlobalChart;
  /** Health of the market data: ingestion freshness per source, unverified supplies, the confidence distribution. */
  marketHealth: MarketHealth;
  /** The coins we began tracking most recently, newest first. */
  newCoins: Array<NewCoin>;
  /** Coins and categories matching a text. */
  search: SearchResult;
  /**
   * The 30 largest price rises and falls over `duration` in `currency`, among coins with a 24-hour volume of at least
   * 50,000 USD.
   */
  topMovers: Movers;
  /** Trending coins, at most 15. */
  trending: Array<TrendingCoin>;
};


/** The root query type: every subgraph adds its entry points. */
export type QueryCategoriesArgs = {
  order?: InputMaybe<CategoryOrder>;
};


/** The root query type: every subgraph adds its entry points. */
export type QueryCoinArgs = {
  id: Scalars['ID']['input'];
};


/** The root query type: every subgraph adds its entry points. */
export type QueryCoinsArgs = {
  after?: InputMaybe<Scalars['String']['input']>;
  category?: InputMaybe<Scalars['String']['input']>;
  first?: InputMaybe<Scalars['Int']['input']>;
  ids?: InputMaybe<Array<Scalars['ID']['input']>>;
  order?: InputMaybe<CoinOrder>;
};


/** The root query type: every subgraph adds its entry points. */
export type QueryExchangeArgs = {
  id: Scalars['ID']['input'];
};


/** The root query type: every subgraph adds its entry points. */
export type QueryGlobalChartArgs = {
  currency?: Scalars['String']['input'];
  days: Scalars['Int']['input'];
};


/** The root query type: every subgraph adds its entry points. */
export type QueryNewCoinsArgs = {
  first?: InputMaybe<Scalars['Int']['input']>;
};


/** The root query type: every subgraph adds its entry points. */
export type QuerySearchArgs = {
  query: Scalars['String']['input'];
};


/** The root query type: every subgraph adds its entry points. */
export type QueryTopMoversArgs = {
  currency?: Scalars['String']['input'];
  duration?: InputMaybe<ChangeDuration>;
  topCoins?: InputMaybe<TopCoins>;
};

/** Result of `search`. */
export type SearchResult = {
  __typename?: 'SearchResult';
  /** Categories whose id or name contains the query. */
  categories: Array<Category>;
  /** Coins matching on id, symbol or name: exact matches first, then prefixes, then substrings; at most 25. */
  coins: Array<Coin>;
};

/** One ingestion source's freshness. */
export type SourceHealth = {
  __typename?: 'SourceHealth';
  /** Seconds since `lastSeen`; null when it never delivered. */
  ageSeconds?: Maybe<Scalars['Int']['output']>;
  /** Failed polls (and failed parts of polls) since start. */
  failures: Scalars['Int']['output'];
  /** True when its newest record is younger than the stale threshold (15 minutes by default). */
  fresh: Scalars['Boolean']['output'];
  /** Kind of source: `ccxt`, `node`, `explorer`, `fx`, `solana`, `replay` or `dex`; null for one seen only in rejected records. */
  kind?: Maybe<Scalars['String']['output']>;
  /** The last poll's error; null when it answered whole. */
  lastError?: Maybe<Scalars['String']['output']>;
  /** Time of the newest record from this source; null when it never delivered. */
  lastSeen?: Maybe<Scalars['DateTime']['output']>;
  /** Source name (a venue, a node such as `node:ltc`, an explorer, an FX feed or a recording). */
  name: Scalars['String']['output'];
  /** Records rejected at validation since start. */
  rejected: Scalars['Int']['output'];
};

/**
 * Live market data, pushed by the router over GraphQL subscriptions: Server-Sent Events (the `graphql-sse` protocol)
 * or WebSocket (the `graphql-ws` protocol) at `/graphql`. The first event is the current state; after it, an event
 * follows an engine tick only when what the subscriber selected changed. See docs/graph.md ("Subscriptions").
 */
export type Subscription = {
  __typename?: 'Subscription';
  /**
   * The first `first` coins in `order` with their market figures, ranked as `coins` ranks them; pushed whole after
   * each tick in which a selected figure of them, or their order, changed.
   */
  markets: Array<MarketRow>;
  /**
   * Price, 24-hour change, confidence and update time of each coin of `ids` in `currency`, in the order of `ids`
   * (a repeated id once; ids the engine does not track are left out, as in `coins(ids:)`). The first event holds
   * every coin; each later event only the coins whose selected figures changed in that tick (select `id`).
   */
  prices: Array<PriceUpdate>;
};


/**
 * Live market data, pushed by the router over GraphQL subscriptions: Server-Sent Events (the `graphql-sse` protocol)
 * or WebSocket (the `graphql-ws` protocol) at `/graphql`. The first event is the current state; after it, an event
 * follows an engine tick only when what the subscriber selected changed. See docs/graph.md ("Subscriptions").
 */
export type SubscriptionMarketsArgs = {
  currency?: Scalars['String']['input'];
  first: Scalars['Int']['input'];
  order?: InputMaybe<CoinOrder>;
};


/**
 * Live market data, pushed by the router over GraphQL subscriptions: Server-Sent Events (the `graphql-sse` protocol)
 * or WebSocket (the `graphql-ws` protocol) at `/graphql`. The first event is the current state; after it, an event
 * follows an engine tick only when what the subscriber selected changed. See docs/graph.md ("Subscriptions").
 */
export type SubscriptionPricesArgs = {
  currency: Scalars['String']['input'];
  ids: Array<Scalars['ID']['input']>;
};

/** Supply figures of a coin after verification (see docs/methodology.md). */
export type Supply = {
  __typename?: 'Supply';
  /** Verified circulating supply; null unless two independent sources agree within tolerance. */
  circulating?: Maybe<Scalars['Float']['output']>;
  /** Max supply when known; null when unknown and for uncapped coins. */
  max?: Maybe<Scalars['Float']['output']>;
  /** True when a source states that the supply has no cap. */
  maxInfinite: Scalars['Boolean']['output'];
  /** The reason in words (which source, how far apart); null when verified. */
  reason?: Maybe<Scalars['String']['output']>;
  /** Number of distinct sources that reported a circulating figure. */
  sourceCount: Scalars['Int']['output'];
  /** Each source's latest reading, by source id. */
  sources: Array<SupplyReading>;
  /** Why `circulating` is verified or null. */
  status: SupplyStatus;
  /** Total supply when a source reports it; null otherwise. */
  total?: Maybe<Scalars['Float']['output']>;
  /** Time of the newest supply observation used; null when none. */
  updatedAt?: Maybe<Scalars['DateTime']['output']>;
  /** Whether `circulating` is verified (true exactly when it is non-null). */
  verified: Scalars['Boolean']['output'];
};

/** One source's latest circulating-supply reading of a coin. */
export type SupplyReading = {
  __typename?: 'SupplyReading';
  /** True when this reading is among the agreeing ones the verified figure is the median of. */
  agrees: Scalars['Boolean']['output'];
  /** How the source obtains it: `node`, `explorer`, `emission`, `issuer` or `aggregator`. */
  kind: Scalars['String']['output'];
  /** When the source observed it. */
  observedAt: Scalars['DateTime']['output'];
  /** Source id, for example `node:ltc` or `cryptoid:ltc`. */
  source: Scalars['String']['output'];
  /** The circulating supply this source reports, in coins. */
  value: Scalars['Float']['output'];
};

/** Why a coin's circulating supply is verified, or is not (then its market cap is null). */
export enum SupplyStatus {
  /** No source reported a circulating supply recently. */
  NoSource = 'NO_SOURCE',
  /** Only one source reports a circulating supply. */
  SingleSource = 'SINGLE_SOURCE',
  /** The sources disagree beyond the tolerance (or two equal groups of them do). */
  SourcesDisagree = 'SOURCES_DISAGREE',
  /** Two or more independent sources agree within the tolerance (1 %). */
  Verified = 'VERIFIED'
}

/** One venue's market of a coin, as the engine saw it at the last aggregation. */
export type Ticker = {
  __typename?: 'Ticker';
  /** Uppercase symbol of the base coin (for example `LTC`). */
  base: Scalars['String']['output'];
  /** Bid–ask spread in percent of the ask; null without a bid and an ask (DEX pools). */
  bidAskSpreadPercentage?: Maybe<Scalars['Float']['output']>;
  /** The base coin. */
  coin: Coin;
  /** Last price in `currency`; null when the quote or the currency cannot be converted. */
  convertedLast?: Maybe<Scalars['Float']['output']>;
  /** 24-hour volume in `currency`; null when it cannot be converted. */
  convertedVolume?: Maybe<Scalars['Float']['output']>;
  /** The venue. */
  exchange: Exchange;
  /** True when dropped as an outlier, false when used; null when not judged for outliers. */
  isAnomaly?: Maybe<Scalars['Boolean']['output']>;
  /** True when older than the staleness limit (15 minutes). */
  isStale: Scalars['Boolean']['output'];
  /** Last price, in quote units. */
  last: Scalars['Float']['output'];
  /** Uppercase quote code (for example `USDT`). */
  target: Scalars['String']['output'];
  /** The quote's coin when the quote is a coin (for example Tether for `USDT`); null for fiat quotes. */
  targetCoin?: Maybe<Coin>;
  /** The venue's time of the quote. */
  timestamp: Scalars['DateTime']['output'];
  /** Trust from the verdict; null when the ticker was not judged (`UNPRICED`, `IGNORED`). */
  trustScore?: Maybe<TrustScore>;
  /** The engine's decision on this ticker. */
  verdict: TickerVerdict;
  /** 24-hour volume, in base units. */
  volume: Scalars['Float']['output'];
};


/** One venue's market of a coin, as the engine saw it at the last aggregation. */
export type TickerConvertedLastArgs = {
  currency?: Scalars['String']['input'];
};


/** One venue's market of a coin, as the engine saw it at the last aggregation. */
export type TickerConvertedVolumeArgs = {
  currency?: Scalars['String']['input'];
};

/** Order of ticker lists. Nulls sort last in every order; ties by USD volume. */
export enum TickerOrder {
  /** Base symbol, then quote code. */
  BaseTarget = 'BASE_TARGET',
  /** The base coin's market cap, smallest first. */
  MarketCapAsc = 'MARKET_CAP_ASC',
  /** The base coin's market cap, largest first. */
  MarketCapDesc = 'MARKET_CAP_DESC',
  /** Red, yellow, green, then unjudged. */
  TrustScoreAsc = 'TRUST_SCORE_ASC',
  /** Green, yellow, red, then unjudged. */
  TrustScoreDesc = 'TRUST_SCORE_DESC',
  /** 24-hour volume in USD, smallest first. */
  VolumeAsc = 'VOLUME_ASC',
  /** 24-hour volume in USD, largest first. */
  VolumeDesc = 'VOLUME_DESC'
}

/** What the engine did with a ticker at the last aggregation (docs/methodology.md). */
export enum TickerVerdict {
  /** Not used: quoted in the coin itself. */
  Ignored = 'IGNORED',
  /** Dropped: out of line with the other venues (the MAD rule, or the two-ticker rule). */
  Outlier = 'OUTLIER',
  /** Dropped: older than the staleness limit (15 minutes), timestamped in the future, or invalid. */
  Stale = 'STALE',
  /** Not used: its quote could not be converted to USD. */
  Unpriced = 'UNPRICED',
  /** Part of the aggregate price. */
  Used = 'USED'
}

/** Which coins `topMovers` considers, by market-cap rank. */
export enum TopCoins {
  /** Every coin, also those without a verified market cap (no rank). */
  All = 'ALL',
  /** Ranks 1–300. */
  Top_300 = 'TOP_300',
  /** Ranks 1–500. */
  Top_500 = 'TOP_500',
  /** Ranks 1–1000. */
  Top_1000 = 'TOP_1000'
}

/** A trending coin: its 24-hour volume surges against its own recent daily average, weighted by the price move. */
export type TrendingCoin = {
  __typename?: 'TrendingCoin';
  /** The coin. */
  coin: Coin;
  /** 0-based position in the list. */
  score: Scalars['Int']['output'];
  /** 24-hour volume ÷ mean of the last (up to) 7 completed days' volumes. */
  surge: Scalars['Float']['output'];
  /** `surge × weight`, the sort key. */
  value: Scalars['Float']['output'];
  /** `1 + min(|24h change %|, 50) / 10`, in [1, 6]. */
  weight: Scalars['Float']['output'];
};

/** A ticker's trust, from the engine's verdict (CoinGecko's colours). */
export enum TrustScore {
  /** Used in the price, within 1 % of it, with a spread of at most 2 % when the venue quotes one. */
  Green = 'GREEN',
  /** Dropped by the engine: stale or an outlier. */
  Red = 'RED',
  /** Used in the price, but further from it or with a wider spread. */
  Yellow = 'YELLOW'
}

/** Whether a venue is an order-book exchange or a DEX. */
export enum VenueKind {
  /** A centralised exchange. */
  Cex = 'CEX',
  /** A decentralised exchange (pools). */
  Dex = 'DEX'
}

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
  Coin: Coin;
}>;

/** Mapping of federation reference types */
export type FederationReferenceTypes = ResolversObject<{
  Coin:
    ( { __typename: 'Coin' }
    & GraphQLRecursivePick<FederationTypes['Coin'], {"id":true}> );
}>;



/** Mapping between all available schema types and the resolvers types */
export type ResolversTypes = ResolversObject<{
  Candle: ResolverTypeWrapper<Candle>;
  Float: ResolverTypeWrapper<Scalars['Float']['output']>;
  CandleInterval: CandleInterval;
  Category: ResolverTypeWrapper<CategoryMarketModel>;
  Int: ResolverTypeWrapper<Scalars['Int']['output']>;
  String: ResolverTypeWrapper<Scalars['String']['output']>;
  ID: ResolverTypeWrapper<Scalars['ID']['output']>;
  CategoryOrder: CategoryOrder;
  ChangeDuration: ChangeDuration;
  Chart: ResolverTypeWrapper<Chart>;
  ChartInterval: ChartInterval;
  ChartPoint: ResolverTypeWrapper<ChartPoint>;
  Coin: ResolverTypeWrapper<AssetMarketModel>;
  CoinConnection: ResolverTypeWrapper<Omit<CoinConnection, 'edges'> & { edges: Array<ResolversTypes['CoinEdge']> }>;
  CoinEdge: ResolverTypeWrapper<Omit<CoinEdge, 'node'> & { node: ResolversTypes['Coin'] }>;
  CoinHistory: ResolverTypeWrapper<CoinHistoryRowModel>;
  CoinOrder: CoinOrder;
  ConfidenceBand: ResolverTypeWrapper<ConfidenceBand>;
  CurrencyType: CurrencyType;
  DateTime: ResolverTypeWrapper<Scalars['DateTime']['output']>;
  Dominance: ResolverTypeWrapper<Dominance>;
  Exchange: ResolverTypeWrapper<VenueStatsModel>;
  ExchangeRate: ResolverTypeWrapper<BtcRateModel>;
  GlobalChart: ResolverTypeWrapper<GlobalChart>;
  GlobalChartPoint: ResolverTypeWrapper<GlobalChartPoint>;
  GlobalMarket: ResolverTypeWrapper<GlobalMarketModel>;
  MarketHealth: ResolverTypeWrapper<Omit<MarketHealth, 'unverifiedSupply'> & { unverifiedSupply: Array<ResolversTypes['Coin']> }>;
  MarketRow: ResolverTypeWrapper<MarketRow>;
  MiningInfo: ResolverTypeWrapper<MiningInfo>;
  Boolean: ResolverTypeWrapper<Scalars['Boolean']['output']>;
  Mover: ResolverTypeWrapper<MoverRowModel>;
  Movers: ResolverTypeWrapper<Omit<Movers, 'gainers' | 'losers'> & { gainers: Array<ResolversTypes['Mover']>, losers: Array<ResolversTypes['Mover']> }>;
  NewCoin: ResolverTypeWrapper<NewCoinModel>;
  PageInfo: ResolverTypeWrapper<PageInfo>;
  PriceChanges: ResolverTypeWrapper<PriceChangesModel>;
  PriceExtreme: ResolverTypeWrapper<PriceExtreme>;
  PriceUpdate: ResolverTypeWrapper<PriceUpdate>;
  Query: ResolverTypeWrapper<Record<PropertyKey, never>>;
  SearchResult: ResolverTypeWrapper<Omit<SearchResult, 'categories' | 'coins'> & { categories: Array<ResolversTypes['Category']>, coins: Array<ResolversTypes['Coin']> }>;
  SourceHealth: ResolverTypeWrapper<SourceHealth>;
  Subscription: ResolverTypeWrapper<Record<PropertyKey, never>>;
  Supply: ResolverTypeWrapper<SupplyFiguresModel>;
  SupplyReading: ResolverTypeWrapper<SupplyReadingModel>;
  SupplyStatus: SupplyStatus;
  Ticker: ResolverTypeWrapper<ServedTickerModel>;
  TickerOrder: TickerOrder;
  TickerVerdict: TickerVerdict;
  TopCoins: TopCoins;
  TrendingCoin: ResolverTypeWrapper<TrendingEntryModel>;
  TrustScore: TrustScore;
  VenueKind: VenueKind;
}>;

/** Mapping between all available schema types and the resolvers parents */
export type ResolversParentTypes = ResolversObject<{
  Candle: Candle;
  Float: Scalars['Float']['output'];
  Category: CategoryMarketModel;
  Int: Scalars['Int']['output'];
  String: Scalars['String']['output'];
  ID: Scalars['ID']['output'];
  Chart: Chart;
  ChartPoint: ChartPoint;
  Coin: AssetMarketModel;
  CoinConnection: Omit<CoinConnection, 'edges'> & { edges: Array<ResolversParentTypes['CoinEdge']> };
  CoinEdge: Omit<CoinEdge, 'node'> & { node: ResolversParentTypes['Coin'] };
  CoinHistory: CoinHistoryRowModel;
  ConfidenceBand: ConfidenceBand;
  DateTime: Scalars['DateTime']['output'];
  Dominance: Dominance;
  Exchange: VenueStatsModel;
  ExchangeRate: BtcRateModel;
  GlobalChart: GlobalChart;
  GlobalChartPoint: GlobalChartPoint;
  GlobalMarket: GlobalMarketModel;
  MarketHealth: Omit<MarketHealth, 'unverifiedSupply'> & { unverifiedSupply: Array<ResolversParentTypes['Coin']> };
  MarketRow: MarketRow;
  MiningInfo: MiningInfo;
  Boolean: Scalars['Boolean']['output'];
  Mover: MoverRowModel;
  Movers: Omit<Movers, 'gainers' | 'losers'> & { gainers: Array<ResolversParentTypes['Mover']>, losers: Array<ResolversParentTypes['Mover']> };
  NewCoin: NewCoinModel;
  PageInfo: PageInfo;
  PriceChanges: PriceChangesModel;
  PriceExtreme: PriceExtreme;
  PriceUpdate: PriceUpdate;
  Query: Record<PropertyKey, never>;
  SearchResult: Omit<SearchResult, 'categories' | 'coins'> & { categories: Array<ResolversParentTypes['Category']>, coins: Array<ResolversParentTypes['Coin']> };
  SourceHealth: SourceHealth;
  Subscription: Record<PropertyKey, never>;
  Supply: SupplyFiguresModel;
  SupplyReading: SupplyReadingModel;
  Ticker: ServedTickerModel;
  TrendingCoin: TrendingEntryModel;
}>;

export type CandleResolvers<ContextType = MarketsContext, ParentType extends ResolversParentTypes['Candle'] = ResolversParentTypes['Candle']> = ResolversObject<{
  close?: Resolver<Maybe<ResolversTypes['Float']>, ParentType, ContextType>;
  high?: Resolver<Maybe<ResolversTypes['Float']>, ParentType, ContextType>;
  low?: Resolver<Maybe<ResolversTypes['Float']>, ParentType, ContextType>;
  open?: Resolver<Maybe<ResolversTypes['Float']>, ParentType, ContextType>;
  time?: Resolver<ResolversTypes['DateTime'], ParentType, ContextType>;
}>;

export type CategoryResolvers<ContextType = MarketsContext, ParentType extends ResolversParentTypes['Category'] = ResolversParentTypes['Category']> = ResolversObject<{
  coinsCount?: Resolver<ResolversTypes['Int'], ParentType, ContextType>;
  description?: Resolver<ResolversTypes['String'], ParentType, ContextType>;
  id?: Resolver<ResolversTypes['ID'], ParentType, ContextType>;
  marketCap?: Resolver<Maybe<ResolversTypes['Float']>, ParentType, ContextType, RequireFields<CategoryMarketCapArgs, 'currency'>>;
  marketCapChangePercentage24h?: Resolver<Maybe<ResolversTypes['Float']>, ParentType, ContextType>;
  name?: Resolver<ResolversTypes['String'], ParentType, ContextType>;
  topCoins?: Resolver<Array<ResolversTypes['Coin']>, ParentType, ContextType>;
  updatedAt?: Resolver<ResolversTypes['DateTime'], ParentType, ContextType>;
  verifiedCount?: Resolver<ResolversTypes['Int'], ParentType, ContextType>;
  volume24h?: Resolver<Maybe<ResolversTypes['Float']>, ParentType, ContextType, RequireFields<CategoryVolume24hArgs, 'currency'>>;
}>;

export type ChartResolvers<ContextType = MarketsContext, ParentType extends ResolversParentTypes['Chart'] = ResolversParentTypes['Chart']> = ResolversObject<{
  points?: Resolver<Array<ResolversTypes['ChartPoint']>, ParentType, ContextType>;
}>;

export type ChartPointResolvers<ContextType = MarketsContext, ParentType extends ResolversParentTypes['ChartPoint'] = ResolversParentTypes['ChartPoint']> = ResolversObject<{
  marketCap?: Resolver<Maybe<ResolversTypes['Float']>, ParentType, ContextType>;
  price?: Resolver<Maybe<ResolversTypes['Float']>, ParentType, ContextType>;
  time?: Resolver<ResolversTypes['DateTime'], ParentType, ContextType>;
  volume?: Resolver<Maybe<ResolversTypes['Float']>, ParentType, ContextType>;
}>;

export type CoinResolvers<ContextType = MarketsContext, ParentType extends ResolversParentTypes['Coin'] = ResolversParentTypes['Coin'], FederationReferenceType extends FederationReferenceTypes['Coin'] = FederationReferenceTypes['Coin']> = ResolversObject<{
  __resolveReference?: ReferenceResolver<Maybe<ResolversTypes['Coin']> | FederationReferenceType, FederationReferenceType, ContextType>;
  ath?: Resolver<Maybe<ResolversTypes['PriceExtreme']>, ParentType, ContextType, RequireFields<CoinAthArgs, 'currency'>>;
  atl?: Resolver<Maybe<ResolversTypes['PriceExtreme']>, ParentType, ContextType, RequireFields<CoinAtlArgs, 'currency'>>;
  candleRange?: Resolver<Array<ResolversTypes['Candle']>, ParentType, ContextType, RequireFields<CoinCandleRangeArgs, 'currency' | 'from' | 'interval' | 'to'>>;
  candles?: Resolver<Maybe<Array<ResolversTypes['Candle']>>, ParentType, ContextType, RequireFields<CoinCandlesArgs, 'currency' | 'days'>>;
  changes?: Resolver<ResolversTypes['PriceChanges'], ParentType, ContextType>;
  chart?: Resolver<Maybe<ResolversTypes['Chart']>, ParentType, ContextType, RequireFields<CoinChartArgs, 'currency' | 'days' | 'interval'>>;
  confidence?: Resolver<Maybe<ResolversTypes['Float']>, ParentType, ContextType>;
  fullyDilutedValuation?: Resolver<Maybe<ResolversTypes['Float']>, ParentType, ContextType, RequireFields<CoinFullyDilutedValuationArgs, 'currency'>>;
  high24h?: Resolver<Maybe<ResolversTypes['Float']>, ParentType, ContextType, RequireFields<CoinHigh24hArgs, 'currency'>>;
  history?: Resolver<ResolversTypes['CoinHistory'], ParentType, ContextType, RequireFields<CoinHistoryArgs, 'date'>>;
  id?: Resolver<ResolversTypes['ID'], ParentType, ContextType>;
  lastUpdated?: Resolver<Maybe<ResolversTypes['DateTime']>, ParentType, ContextType>;
  listedAt?: Resolver<Maybe<ResolversTypes['DateTime']>, ParentType, ContextType>;
  low24h?: Resolver<Maybe<ResolversTypes['Float']>, ParentType, ContextType, RequireFields<CoinLow24hArgs, 'currency'>>;
  marketCap?: Resolver<Maybe<ResolversTypes['Float']>, ParentType, ContextType, RequireFields<CoinMarketCapArgs, 'currency'>>;
  marketCapChange24h?: Resolver<Maybe<ResolversTypes['Float']>, ParentType, ContextType, RequireFields<CoinMarketCapChange24hArgs, 'currency'>>;
  marketCapChangePercentage24h?: Resolver<Maybe<ResolversTypes['Float']>, ParentType, ContextType>;
  mining?: Resolver<Maybe<ResolversTypes['MiningInfo']>, ParentType, ContextType>;
  name?: Resolver<ResolversTypes['String'], ParentType, ContextType>;
  price?: Resolver<Maybe<ResolversTypes['Float']>, ParentType, ContextType, RequireFields<CoinPriceArgs, 'currency'>>;
  priceChange24h?: Resolver<Maybe<ResolversTypes['Float']>, ParentType, ContextType, RequireFields<CoinPriceChange24hArgs, 'currency'>>;
  rank?: Resolver<Maybe<ResolversTypes['Int']>, ParentType, ContextType>;
  sparkline7d?: Resolver<Array<Maybe<ResolversTypes['Float']>>, ParentType, ContextType, RequireFields<CoinSparkline7dArgs, 'currency'>>;
  supply?: Resolver<ResolversTypes['Supply'], ParentType, ContextType>;
  symbol?: Resolver<ResolversTypes['String'], ParentType, ContextType>;
  tickers?: Resolver<Array<ResolversTypes['Ticker']>, ParentType, ContextType, RequireFields<CoinTickersArgs, 'first' | 'order'>>;
  venues?: Resolver<ResolversTypes['Int'], ParentType, ContextType>;
  volume24h?: Resolver<Maybe<ResolversTypes['Float']>, ParentType, ContextType, RequireFields<CoinVolume24hArgs, 'currency'>>;
}>;

export type CoinConnectionResolvers<ContextType = MarketsContext, ParentType extends ResolversParentTypes['CoinConnection'] = ResolversParentTypes['CoinConnection']> = ResolversObject<{
  edges?: Resolver<Array<ResolversTypes['CoinEdge']>, ParentType, ContextType>;
  pageInfo?: Resolver<ResolversTypes['PageInfo'], ParentType, ContextType>;
  totalCount?: Resolver<ResolversTypes['Int'], ParentType, ContextType>;
}>;

export type CoinEdgeResolvers<ContextType = MarketsContext, ParentType extends ResolversParentTypes['CoinEdge'] = ResolversParentTypes['CoinEdge']> = ResolversObject<{
  cursor?: Resolver<ResolversTypes['String'], ParentType, ContextType>;
  node?: Resolver<ResolversTypes['Coin'], ParentType, ContextType>;
}>;

export type CoinHistoryResolvers<ContextType = MarketsContext, ParentType extends ResolversParentTypes['CoinHistory'] = ResolversParentTypes['CoinHistory']> = ResolversObject<{
  date?: Resolver<ResolversTypes['String'], ParentType, ContextType>;
  marketCap?: Resolver<Maybe<ResolversTypes['Float']>, ParentType, ContextType, RequireFields<CoinHistoryMarketCapArgs, 'currency'>>;
  observedAt?: Resolver<Maybe<ResolversTypes['DateTime']>, ParentType, ContextType>;
  price?: Resolver<Maybe<ResolversTypes['Float']>, ParentType, ContextType, RequireFields<CoinHistoryPriceArgs, 'currency'>>;
  volume?: Resolver<Maybe<ResolversTypes['Float']>, ParentType, ContextType, RequireFields<CoinHistoryVolumeArgs, 'currency'>>;
}>;

export type ConfidenceBandResolvers<ContextType = MarketsContext, ParentType extends ResolversParentTypes['ConfidenceBand'] = ResolversParentTypes['ConfidenceBand']> = ResolversObject<{
  coins?: Resolver<ResolversTypes['Int'], ParentType, ContextType>;
  from?: Resolver<ResolversTypes['Float'], ParentType, ContextType>;
  to?: Resolver<ResolversTypes['Float'], ParentType, ContextType>;
}>;

export interface DateTimeScalarConfig extends GraphQLScalarTypeConfig<ResolversTypes['DateTime'], any> {
  name: 'DateTime';
}

export type DominanceResolvers<ContextType = MarketsContext, ParentType extends ResolversParentTypes['Dominance'] = ResolversParentTypes['Dominance']> = ResolversObject<{
  percentage?: Resolver<ResolversTypes['Float'], ParentType, ContextType>;
  symbol?: Resolver<ResolversTypes['String'], ParentType, ContextType>;
}>;

export type ExchangeResolvers<ContextType = MarketsContext, ParentType extends ResolversParentTypes['Exchange'] = ResolversParentTypes['Exchange']> = ResolversObject<{
  coins?: Resolver<ResolversTypes['Int'], ParentType, ContextType>;
  id?: Resolver<ResolversTypes['ID'], ParentType, ContextType>;
  judgedTickers?: Resolver<ResolversTypes['Int'], ParentType, ContextType>;
  kind?: Resolver<ResolversTypes['VenueKind'], ParentType, ContextType>;
  name?: Resolver<ResolversTypes['String'], ParentType, ContextType>;
  normalizedVolume24h?: Resolver<Maybe<ResolversTypes['Float']>, ParentType, ContextType, RequireFields<ExchangeNormalizedVolume24hArgs, 'currency'>>;
  pairs?: Resolver<ResolversTypes['Int'], ParentType, ContextType>;
  tickers?: Resolver<Array<ResolversTypes['Ticker']>, ParentType, ContextType, RequireFields<ExchangeTickersArgs, 'first' | 'order'>>;
  trustScore?: Resolver<Maybe<ResolversTypes['Int']>, ParentType, ContextType>;
  trustScoreRank?: Resolver<Maybe<ResolversTypes['Int']>, ParentType, ContextType>;
  usedTickers?: Resolver<ResolversTypes['Int'], ParentType, ContextType>;
  volume24h?: Resolver<Maybe<ResolversTypes['Float']>, ParentType, ContextType, RequireFields<ExchangeVolume24hArgs, 'currency'>>;
}>;

export type ExchangeRateResolvers<ContextType = MarketsContext, ParentType extends ResolversParentTypes['ExchangeRate'] = ResolversParentTypes['ExchangeRate']> = ResolversObject<{
  code?: Resolver<ResolversTypes['String'], ParentType, ContextType>;
  name?: Resolver<ResolversTypes['String'], ParentType, ContextType>;
  type?: Resolver<ResolversTypes['CurrencyType'], ParentType, ContextType>;
  unit?: Resolver<ResolversTypes['String'], ParentType, ContextType>;
  value?: Resolver<Maybe<ResolversTypes['Float']>, ParentType, ContextType>;
}>;

export type GlobalChartResolvers<ContextType = MarketsContext, ParentType extends ResolversParentTypes['GlobalChart'] = ResolversParentTypes['GlobalChart']> = ResolversObject<{
  points?: Resolver<Array<ResolversTypes['GlobalChartPoint']>, ParentType, ContextType>;
}>;

export type GlobalChartPointResolvers<ContextType = MarketsContext, ParentType extends ResolversParentTypes['GlobalChartPoint'] = ResolversParentTypes['GlobalChartPoint']> = ResolversObject<{
  marketCap?: Resolver<Maybe<ResolversTypes['Float']>, ParentType, ContextType>;
  time?: Resolver<ResolversTypes['DateTime'], ParentType, ContextType>;
  volume?: Resolver<Maybe<ResolversTypes['Float']>, ParentType, ContextType>;
}>;

export type GlobalMarketResolvers<ContextType = MarketsContext, ParentType extends ResolversParentTypes['GlobalMarket'] = ResolversParentTypes['GlobalMarket']> = ResolversObject<{
  activeCryptocurrencies?: Resolver<ResolversTypes['Int'], ParentType, ContextType>;
  marketCapChangePercentage24hUsd?: Resolver<Maybe<ResolversTypes['Float']>, ParentType, ContextType>;
  marketCapPercentage?: Resolver<Array<ResolversTypes['Dominance']>, ParentType, ContextType>;
  markets?: Resolver<ResolversTypes['Int'], ParentType, ContextType>;
  totalMarketCap?: Resolver<Maybe<ResolversTypes['Float']>, ParentType, ContextType, RequireFields<GlobalMarketTotalMarketCapArgs, 'currency'>>;
  totalVolume?: Resolver<Maybe<ResolversTypes['Float']>, ParentType, ContextType, RequireFields<GlobalMarketTotalVolumeArgs, 'currency'>>;
  updatedAt?: Resolver<ResolversTypes['DateTime'], ParentType, ContextType>;
  verifiedCoins?: Resolver<ResolversTypes['Int'], ParentType, ContextType>;
}>;

export type MarketHealthResolvers<ContextType = MarketsContext, ParentType extends ResolversParentTypes['MarketHealth'] = ResolversParentTypes['MarketHealth']> = ResolversObject<{
  computedAt?: Resolver<Maybe<ResolversTypes['DateTime']>, ParentType, ContextType>;
  confidence?: Resolver<Array<ResolversTypes['ConfidenceBand']>, ParentType, ContextType>;
  sources?: Resolver<Array<ResolversTypes['SourceHealth']>, ParentType, ContextType>;
  unverifiedSupply?: Resolver<Array<ResolversTypes['Coin']>, ParentType, ContextType>;
}>;

export type MarketRowResolvers<ContextType = MarketsContext, ParentType extends ResolversParentTypes['MarketRow'] = ResolversParentTypes['MarketRow']> = ResolversObject<{
  change24h?: Resolver<Maybe<ResolversTypes['Float']>, ParentType, ContextType>;
  confidence?: Resolver<Maybe<ResolversTypes['Float']>, ParentType, ContextType>;
  currency?: Resolver<ResolversTypes['String'], ParentType, ContextType>;
  id?: Resolver<ResolversTypes['ID'], ParentType, ContextType>;
  marketCap?: Resolver<Maybe<ResolversTypes['Float']>, ParentType, ContextType>;
  name?: Resolver<ResolversTypes['String'], ParentType, ContextType>;
  position?: Resolver<ResolversTypes['Int'], ParentType, ContextType>;
  price?: Resolver<Maybe<ResolversTypes['Float']>, ParentType, ContextType>;
  rank?: Resolver<Maybe<ResolversTypes['Int']>, ParentType, ContextType>;
  symbol?: Resolver<ResolversTypes['String'], ParentType, ContextType>;
  updatedAt?: Resolver<Maybe<ResolversTypes['DateTime']>, ParentType, ContextType>;
  volume24h?: Resolver<Maybe<ResolversTypes['Float']>, ParentType, ContextType>;
}>;

export type MiningInfoResolvers<ContextType = MarketsContext, ParentType extends ResolversParentTypes['MiningInfo'] = ResolversParentTypes['MiningInfo']> = ResolversObject<{
  algorithm?: Resolver<ResolversTypes['String'], ParentType, ContextType>;
  blockReward?: Resolver<Maybe<ResolversTypes['Float']>, ParentType, ContextType>;
  blockTimeSeconds?: Resolver<Maybe<ResolversTypes['Float']>, ParentType, ContextType>;
  difficulty?: Resolver<Maybe<ResolversTypes['Float']>, ParentType, ContextType>;
  height?: Resolver<Maybe<ResolversTypes['Int']>, ParentType, ContextType>;
  networkHashrate?: Resolver<Maybe<ResolversTypes['Float']>, ParentType, ContextType>;
  observedAt?: Resolver<Maybe<ResolversTypes['DateTime']>, ParentType, ContextType>;
  source?: Resolver<ResolversTypes['String'], ParentType, ContextType>;
  stale?: Resolver<ResolversTypes['Boolean'], ParentType, ContextType>;
  tipTime?: Resolver<Maybe<ResolversTypes['DateTime']>, ParentType, ContextType>;
}>;

export type MoverResolvers<ContextType = MarketsContext, ParentType extends ResolversParentTypes['Mover'] = ResolversParentTypes['Mover']> = ResolversObject<{
  change?: Resolver<ResolversTypes['Float'], ParentType, ContextType>;
  coin?: Resolver<ResolversTypes['Coin'], ParentType, ContextType>;
  price?: Resolver<Maybe<ResolversTypes['Float']>, ParentType, ContextType>;
  volume24h?: Resolver<Maybe<ResolversTypes['Float']>, ParentType, ContextType>;
}>;

export type MoversResolvers<ContextType = MarketsContext, ParentType extends ResolversParentTypes['Movers'] = ResolversParentTypes['Movers']> = ResolversObject<{
  gainers?: Resolver<Array<ResolversTypes['Mover']>, ParentType, ContextType>;
  losers?: Resolver<Array<ResolversTypes['Mover']>, ParentType, ContextType>;
}>;

export type NewCoinResolvers<ContextType = MarketsContext, ParentType extends ResolversParentTypes['NewCoin'] = ResolversParentTypes['NewCoin']> = ResolversObject<{
  coin?: Resolver<ResolversTypes['Coin'], ParentType, ContextType>;
  listedAt?: Resolver<ResolversTypes['DateTime'], ParentType, ContextType>;
}>;

export type PageInfoResolvers<ContextType = MarketsContext, ParentType extends ResolversParentTypes['PageInfo'] = ResolversParentTypes['PageInfo']> = ResolversObject<{
  endCursor?: Resolver<Maybe<ResolversTypes['String']>, ParentType, ContextType>;
  hasNextPage?: Resolver<ResolversTypes['Boolean'], ParentType, ContextType>;
  hasPreviousPage?: Resolver<ResolversTypes['Boolean'], ParentType, ContextType>;
  startCursor?: Resolver<Maybe<ResolversTypes['String']>, ParentType, ContextType>;
}>;

export type PriceChangesResolvers<ContextType = MarketsContext, ParentType extends ResolversParentTypes['PriceChanges'] = ResolversParentTypes['PriceChanges']> = ResolversObject<{
  d7?: Resolver<Maybe<ResolversTypes['Float']>, ParentType, ContextType>;
  d14?: Resolver<Maybe<ResolversTypes['Float']>, ParentType, ContextType>;
  d30?: Resolver<Maybe<ResolversTypes['Float']>, ParentType, ContextType>;
  d60?: Resolver<Maybe<ResolversTypes['Float']>, ParentType, ContextType>;
  d200?: Resolver<Maybe<ResolversTypes['Float']>, ParentType, ContextType>;
  h1?: Resolver<Maybe<ResolversTypes['Float']>, ParentType, ContextType>;
  h24?: Resolver<Maybe<ResolversTypes['Float']>, ParentType, ContextType>;
  y1?: Resolver<Maybe<ResolversTypes['Float']>, ParentType, ContextType>;
}>;

export type PriceExtremeResolvers<ContextType = MarketsContext, ParentType extends ResolversParentTypes['PriceExtreme'] = ResolversParentTypes['PriceExtreme']> = ResolversObject<{
  date?: Resolver<ResolversTypes['DateTime'], ParentType, ContextType>;
  value?: Resolver<Maybe<ResolversTypes['Float']>, ParentType, ContextType>;
}>;

export type PriceUpdateResolvers<ContextType = MarketsContext, ParentType extends ResolversParentTypes['PriceUpdate'] = ResolversParentTypes['PriceUpdate']> = ResolversObject<{
  change24h?: Resolver<Maybe<ResolversTypes['Float']>, ParentType, ContextType>;
  confidence?: Resolver<Maybe<ResolversTypes['Float']>, ParentType, ContextType>;
  currency?: Resolver<ResolversTypes['String'], ParentType, ContextType>;
  id?: Resolver<ResolversTypes['ID'], ParentType, ContextType>;
  price?: Resolver<Maybe<ResolversTypes['Float']>, ParentType, ContextType>;
  symbol?: Resolver<ResolversTypes['String'], ParentType, ContextType>;
  updatedAt?: Resolver<Maybe<ResolversTypes['DateTime']>, ParentType, ContextType>;
}>;

export type QueryResolvers<ContextType = MarketsContext, ParentType extends ResolversParentTypes['Query'] = ResolversParentTypes['Query']> = ResolversObject<{
  categories?: Resolver<Array<ResolversTypes['Category']>, ParentType, ContextType, RequireFields<QueryCategoriesArgs, 'order'>>;
  coin?: Resolver<Maybe<ResolversTypes['Coin']>, ParentType, ContextType, RequireFields<QueryCoinArgs, 'id'>>;
  coins?: Resolver<ResolversTypes['CoinConnection'], ParentType, ContextType, RequireFields<QueryCoinsArgs, 'first' | 'order'>>;
  currencies?: Resolver<Array<ResolversTypes['String']>, ParentType, ContextType>;
  exchange?: Resolver<Maybe<ResolversTypes['Exchange']>, ParentType, ContextType, RequireFields<QueryExchangeArgs, 'id'>>;
  exchangeRates?: Resolver<Array<ResolversTypes['ExchangeRate']>, ParentType, ContextType>;
  exchanges?: Resolver<Array<ResolversTypes['Exchange']>, ParentType, ContextType>;
  global?: Resolver<ResolversTypes['GlobalMarket'], ParentType, ContextType>;
  globalChart?: Resolver<ResolversTypes['GlobalChart'], ParentType, ContextType, RequireFields<QueryGlobalChartArgs, 'currency' | 'days'>>;
  marketHealth?: Resolver<ResolversTypes['MarketHealth'], ParentType, ContextType>;
  newCoins?: Resolver<Array<ResolversTypes['NewCoin']>, ParentType, ContextType, RequireFields<QueryNewCoinsArgs, 'first'>>;
  search?: Resolver<ResolversTypes['SearchResult'], ParentType, ContextType, RequireFields<QuerySearchArgs, 'query'>>;
  topMovers?: Resolver<ResolversTypes['Movers'], ParentType, ContextType, RequireFields<QueryTopMoversArgs, 'currency' | 'duration' | 'topCoins'>>;
  trending?: Resolver<Array<ResolversTypes['TrendingCoin']>, ParentType, ContextType>;
}>;

export type SearchResultResolvers<ContextType = MarketsContext, ParentType extends ResolversParentTypes['SearchResult'] = ResolversParentTypes['SearchResult']> = ResolversObject<{
  categories?: Resolver<Array<ResolversTypes['Category']>, ParentType, ContextType>;
  coins?: Resolver<Array<ResolversTypes['Coin']>, ParentType, ContextType>;
}>;

export type SourceHealthResolvers<ContextType = MarketsContext, ParentType extends ResolversParentTypes['SourceHealth'] = ResolversParentTypes['SourceHealth']> = ResolversObject<{
  ageSeconds?: Resolver<Maybe<ResolversTypes['Int']>, ParentType, ContextType>;
  failures?: Resolver<ResolversTypes['Int'], ParentType, ContextType>;
  fresh?: Resolver<ResolversTypes['Boolean'], ParentType, ContextType>;
  kind?: Resolver<Maybe<ResolversTypes['String']>, ParentType, ContextType>;
  lastError?: Resolver<Maybe<ResolversTypes['String']>, ParentType, ContextType>;
  lastSeen?: Resolver<Maybe<ResolversTypes['DateTime']>, ParentType, ContextType>;
  name?: Resolver<ResolversTypes['String'], ParentType, ContextType>;
  rejected?: Resolver<ResolversTypes['Int'], ParentType, ContextType>;
}>;

export type SubscriptionResolvers<ContextType = MarketsContext, ParentType extends ResolversParentTypes['Subscription'] = ResolversParentTypes['Subscription']> = ResolversObject<{
  markets?: SubscriptionResolver<Array<ResolversTypes['MarketRow']>, "markets", ParentType, ContextType, RequireFields<SubscriptionMarketsArgs, 'currency' | 'first' | 'order'>>;
  prices?: SubscriptionResolver<Array<ResolversTypes['PriceUpdate']>, "prices", ParentType, ContextType, RequireFields<SubscriptionPricesArgs, 'currency' | 'ids'>>;
}>;

export type SupplyResolvers<ContextType = MarketsContext, ParentType extends ResolversParentTypes['Supply'] = ResolversParentTypes['Supply']> = ResolversObject<{
  circulating?: Resolver<Maybe<ResolversTypes['Float']>, ParentType, ContextType>;
  max?: Resolver<Maybe<ResolversTypes['Float']>, ParentType, ContextType>;
  maxInfinite?: Resolver<ResolversTypes['Boolean'], ParentType, ContextType>;
  reason?: Resolver<Maybe<ResolversTypes['String']>, ParentType, ContextType>;
  sourceCount?: Resolver<ResolversTypes['Int'], ParentType, ContextType>;
  sources?: Resolver<Array<ResolversTypes['SupplyReading']>, ParentType, ContextType>;
  status?: Resolver<ResolversTypes['SupplyStatus'], ParentType, ContextType>;
  total?: Resolver<Maybe<ResolversTypes['Float']>, ParentType, ContextType>;
  updatedAt?: Resolver<Maybe<ResolversTypes['DateTime']>, ParentType, ContextType>;
  verified?: Resolver<ResolversTypes['Boolean'], ParentType, ContextType>;
}>;

export type SupplyReadingResolvers<ContextType = MarketsContext, ParentType extends ResolversParentTypes['SupplyReading'] = ResolversParentTypes['SupplyReading']> = ResolversObject<{
  agrees?: Resolver<ResolversTypes['Boolean'], ParentType, ContextType>;
  kind?: Resolver<ResolversTypes['String'], ParentType, ContextType>;
  observedAt?: Resolver<ResolversTypes['DateTime'], ParentType, ContextType>;
  source?: Resolver<ResolversTypes['String'], ParentType, ContextType>;
  value?: Resolver<ResolversTypes['Float'], ParentType, ContextType>;
}>;

export type TickerResolvers<ContextType = MarketsContext, ParentType extends ResolversParentTypes['Ticker'] = ResolversParentTypes['Ticker']> = ResolversObject<{
  base?: Resolver<ResolversTypes['String'], ParentType, ContextType>;
  bidAskSpreadPercentage?: Resolver<Maybe<ResolversTypes['Float']>, ParentType, ContextType>;
  coin?: Resolver<ResolversTypes['Coin'], ParentType, ContextType>;
  convertedLast?: Resolver<Maybe<ResolversTypes['Float']>, ParentType, ContextType, RequireFields<TickerConvertedLastArgs, 'currency'>>;
  convertedVolume?: Resolver<Maybe<ResolversTypes['Float']>, ParentType, ContextType, RequireFields<TickerConvertedVolumeArgs, 'currency'>>;
  exchange?: Resolver<ResolversTypes['Exchange'], ParentType, ContextType>;
  isAnomaly?: Resolver<Maybe<ResolversTypes['Boolean']>, ParentType, ContextType>;
  isStale?: Resolver<ResolversTypes['Boolean'], ParentType, ContextType>;
  last?: Resolver<ResolversTypes['Float'], ParentType, ContextType>;
  target?: Resolver<ResolversTypes['String'], ParentType, ContextType>;
  targetCoin?: Resolver<Maybe<ResolversTypes['Coin']>, ParentType, ContextType>;
  timestamp?: Resolver<ResolversTypes['DateTime'], ParentType, ContextType>;
  trustScore?: Resolver<Maybe<ResolversTypes['TrustScore']>, ParentType, ContextType>;
  verdict?: Resolver<ResolversTypes['TickerVerdict'], ParentType, ContextType>;
  volume?: Resolver<ResolversTypes['Float'], ParentType, ContextType>;
}>;

export type TrendingCoinResolvers<ContextType = MarketsContext, ParentType extends ResolversParentTypes['TrendingCoin'] = ResolversParentTypes['TrendingCoin']> = ResolversObject<{
  coin?: Resolver<ResolversTypes['Coin'], ParentType, ContextType>;
  score?: Resolver<ResolversTypes['Int'], ParentType, ContextType>;
  surge?: Resolver<ResolversTypes['Float'], ParentType, ContextType>;
  value?: Resolver<ResolversTypes['Float'], ParentType, ContextType>;
  weight?: Resolver<ResolversTypes['Float'], ParentType, ContextType>;
}>;

export type Resolvers<ContextType = MarketsContext> = ResolversObject<{
  Candle?: CandleResolvers<ContextType>;
  Category?: CategoryResolvers<ContextType>;
  Chart?: ChartResolvers<ContextType>;
  ChartPoint?: ChartPointResolvers<ContextType>;
  Coin?: CoinResolvers<ContextType>;
  CoinConnection?: CoinConnectionResolvers<ContextType>;
  CoinEdge?: CoinEdgeResolvers<ContextType>;
  CoinHistory?: CoinHistoryResolvers<ContextType>;
  ConfidenceBand?: ConfidenceBandResolvers<ContextType>;
  DateTime?: GraphQLScalarType;
  Dominance?: DominanceResolvers<ContextType>;
  Exchange?: ExchangeResolvers<ContextType>;
  ExchangeRate?: ExchangeRateResolvers<ContextType>;
  GlobalChart?: GlobalChartResolvers<ContextType>;
  GlobalChartPoint?: GlobalChartPointResolvers<ContextType>;
  GlobalMarket?: GlobalMarketResolvers<ContextType>;
  MarketHealth?: MarketHealthResolvers<ContextType>;
  MarketRow?: MarketRowResolvers<ContextType>;
  MiningInfo?: MiningInfoResolvers<ContextType>;
  Mover?: MoverResolvers<ContextType>;
  Movers?: MoversResolvers<ContextType>;
  NewCoin?: NewCoinResolvers<ContextType>;
  PageInfo?: PageInfoResolvers<ContextType>;
  PriceChanges?: PriceChangesResolvers<ContextType>;
  PriceExtreme?: PriceExtremeResolvers<ContextType>;
  PriceUpdate?: PriceUpdateResolvers<ContextType>;
  Query?: QueryResolvers<ContextType>;
  SearchResult?: SearchResultResolvers<ContextType>;
  SourceHealth?: SourceHealthResolvers<ContextType>;
  Subscription?: SubscriptionResolvers<ContextType>;
  Supply?: SupplyResolvers<ContextType>;
  SupplyReading?: SupplyReadingResolvers<ContextType>;
  Ticker?: TickerResolvers<ContextType>;
  TrendingCoin?: TrendingCoinResolvers<ContextType>;
}>;

