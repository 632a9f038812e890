import type { LoadShedder } from '../../access/overload.ts';
import type { EngineConfig } from '../../engine/snapshot.ts';
import type { MarketService } from '../../market/service.ts';

/** What the price API needs: the market engine (current snapshot in memory, history in SQL) and its catalog. */
export interface PriceApiOptions {
  market: MarketService;
  engine: EngineConfig;
  /** The demo-data notice while the product serves generated data (shown as `public_notice`), else null. */
  notice: () => string | null;
  /** Clock, for tests; default `Date.now`. */
  now?: () => number;
  /** Refuses new builds of answers while the process is overloaded (`src/access/overload.ts`); default none. */
  shedder?: Pick<LoadShedder, 'begin'> | undefined;
  /**
   * Handed the function that makes this API's OpenAPI document, once registered (the server's combined document,
   * `src/rest/openapi/`, includes it); default none.
   */
  onDocument?: ((document: () => Record<string, unknown>) => void) | undefined;
}

/** Default base path of the price API (`PRICE_BASE_PATH`). */
export const DEFAULT_PRICE_BASE = '/v1/agg';
