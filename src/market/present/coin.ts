/** `/coins/{id}`: one coin in CoinGecko's `CoinGetIDResponse` shape, plus our confidence and supply extras. */
import type { AssetInfo, CategoryInfo } from '../../catalog/types.ts';
import type { MarketSnapshot } from '../../engine/snapshot.ts';
import type { AssetMarket } from '../../engine/types.ts';
import type { Precision } from './precision.ts';
import { images, iso } from './common.ts';
import { presentMarketData } from './market-data.ts';
import { presentTickers } from './tickers.ts';
import type { TickerContext } from './tickers.ts';

export interface CoinQuery {
  localization: boolean;
  tickers: boolean;
  marketData: boolean;
  sparkline: boolean;
  categoriesDetails: boolean;
}

export interface CoinContext extends TickerContext {
  info: AssetInfo | undefined;
  categories: readonly CategoryInfo[];
  currencies: readonly string[];
  notice: string | null;
}

/**
 * The coin detail. Facts we do not hold (links beyond the homepage, description, sentiment, watchlists) keep
 * CoinGecko's empty values ("" / [] ) for text and `null` for figures, never an invented value.
 */
export function presentCoin(
  ctx: CoinContext,
  m: AssetMarket,
  q: CoinQuery,
  precision: Precision,
): Record<string, unknown> {
  const snapshot: MarketSnapshot = ctx.snapshot;
  const cats = ctx.categories.filter((c) => c.members.includes(m.id));
  const info = ctx.info;
  return {
    id: m.id,
    symbol: m.symbol.toLowerCase(),
    name: m.name,
    web_slug: m.id,
    asset_platform_id: null,
    platforms: {},
    detail_platforms: {},
    block_time_in_minutes: info?.blockTimeMinutes ?? null,
    hashing_algorithm: info?.hashingAlgorithm ?? null,
    categories: cats.map((c) => c.name),
    ...(q.categoriesDetails ? { categories_details: cats.map((c) => ({ id: c.id, name: c.name })) } : {}),
    preview_listing: false,
    public_notice: ctx.notice,
    additional_notices: [],
    ...(q.localization ? { localization: { en: m.name } } : {}),
    description: { en: '' },
    links: {
      homepage: info?.homepage ? [info.homepage] : [],
      whitepaper: '',
      blockchain_site: [],
      official_forum_url: [],
      chat_url: [],
      announcement_url: [],
      snapshot_url: null,
      twitter_screen_name: '',
      facebook_username: '',
      bitcointalk_thread_identifier: null,
      telegram_channel_identifier: '',
      subreddit_url: '',
      repos_url: { github: [], bitbucket: [] },
    },
    image: images(m.id),
    country_origin: '',
    genesis_date: info?.genesisDate ?? null,
    sentiment_votes_up_percentage: null,
    sentiment_votes_down_percentage: null,
    watchlist_portfolio_users: null,
    market_cap_rank: m.rank,
    market_cap_rank_with_rehypothecated: null,
    ...(q.marketData
      ? { market_data: presentMarketData(snapshot, m, ctx.currencies, precision, q.sparkline) }
      : {}),
    status_updates: [],
    last_updated: iso(m.price.lastUpdated),
    has_supply_breakdown: false,
    ...(q.tickers ? { tickers: presentTickers(ctx, m.id) } : {}),
  };
}
