/**
 * The embedded product's HTTP server: REST, the graph and the pages of one process, mounted side by side on the one
 * host (`src/server/host.ts`). Tests build it without listening.
 */
import type { FastifyInstance, FastifyServerOptions } from 'fastify';
import type { AccountsApiOptions } from '../rest/accounts/index.ts';
import { accountsApi } from '../rest/accounts/index.ts';
import { createAuthGuards } from '../rest/accounts/guards-impl.ts';
import type { ApiLimits } from '../rest/api-limits.ts';
import type { NamesApiOptions } from '../rest/names/index.ts';
import { namesApi } from '../rest/names/index.ts';
import type { BridgeApiOptions } from '../rest/bridge/index.ts';
import { bridgeApi } from '../rest/bridge/index.ts';
import type { Router } from '../../router/index.ts';
import { mountRouter } from '../../router/http.ts';
import { DEFAULT_PRICE_BASE } from '../rest/price/deps.ts';
import { priceApi } from '../rest/price/index.ts';
import type { LoadShedder } from '../access/overload.ts';
import type { RefusalPace } from '../access/refusal-pace.ts';
import { providerRoute } from '../rest/provider-route.ts';
import type { ProviderRouteOptions } from '../rest/provider-route.ts';
import { openapiRoute } from '../rest/openapi/route.ts';
import { assetRoutes } from '../rest/assets/index.ts';
import { createHttpHost } from '../server/host.ts';
import { registerHealth } from '../server/health.ts';
import type { HealthOptions } from '../server/health.ts';
import { webRoutes } from '../server/browser/web-route.ts';
import { kitRoutes } from '../server/browser/kit-route.ts';
import { docsRoutes } from '../server/docs/route.ts';
import { homeRoutes } from '../server/home/route.ts';
import { PRODUCT_PACKAGE } from '../server/home/model.ts';

export interface ServerOptions extends HealthOptions {
  /** Base path of the price API; default `/v1/agg`. */
  priceBase?: string;
  /** The process's load shedder (`ProcessRun.shedder`): refuses new work while overloaded; default none. */
  shedder?: Pick<LoadShedder, 'begin'> | undefined;
  /** The process's pace of repeated 429s (`ProcessRun.refusalPace`); default none: each sent at once (tests). */
  refusalPace?: RefusalPace | undefined;
  /** The process's logging (`ProcessRun.fastifyOptions`: its pino); default none (tests). */
  fastifyOptions?: Pick<FastifyServerOptions, 'loggerInstance' | 'logController' | 'childLoggerFactory'>;
  /** The accounts API under `/api` (sign-in, account keys, admin, dapps); omitted → not served. */
  accounts?: AccountsApiOptions;
  /** Name resolution, registration and partner operations under `/api` (needs `accounts` for sign-in). */
  names?: Omit<NamesApiOptions, 'guards'>;
  /** The active bridge deployment's read endpoints under `/api` (`/coins`, `/config`, `/proof-of-reserves`). */
  bridge?: BridgeApiOptions;
  /** `/provider.js`: the wallet host and identity origins the configuration read; none → the routes' defaults. */
  provider?: ProviderRouteOptions;
  /** The GraphQL router, mounted at `/graphql` (embedded mode); omitted → not served. */
  graph?: Router;
  /** Where the kit packages are built (`npm run build:kits`), served as `/kits/<dir>.tgz`; default `dist/kits`. */
  kitsDir?: string | undefined;
  /** `COIN_IMAGES_DIR`: operator logos that replace the generated coin badges under `/assets/coins/`; default none. */
  coinImagesDir?: string | undefined;
  /**
   * The `/api` rate limits (per IP, per account, per partner: `src/rest/api-limits.ts`) over the access layer's
   * store; omitted → none.
   */
  apiLimits?: ApiLimits;
  /** Registers request hooks (the access layer) before any route; called inside the root scope. */
  beforeRoutes?: (app: FastifyInstance) => void | Promise<void>;
}

/** Builds the HTTP server without listening (tests use `inject`). */
export async function createServer(opts: ServerOptions): Promise<FastifyInstance> {
  const priceBase = opts.priceBase ?? DEFAULT_PRICE_BASE;
  return createHttpHost({
    logging: opts.fastifyOptions,
    refusalPace: opts.refusalPace,
    rest: async (app) => {
      await opts.beforeRoutes?.(app);
      registerHealth(app, opts);
      if (opts.accounts) {
        const limits = opts.apiLimits;
        await app.register(accountsApi, { prefix: '/api', ...opts.accounts, limits });
        if (opts.names) {
          // Same sessions and admin rights as the accounts API: a guard over the same sign-in service.
          const { auth, adminToken } = opts.accounts;
          const guards = createAuthGuards({ auth, adminToken, limits });
          await app.register(namesApi, { prefix: '/api', guards, limits, ...opts.names });
        }
      }
      if (opts.bridge)
        await app.register(bridgeApi, { prefix: '/api', ...opts.bridge, limits: opts.apiLimits });
      await app.register(providerRoute, opts.provider ?? {});
      // The images the price API's answers link to (root-relative, outside its base path: no key, no limit).
      await app.register(assetRoutes, {
        coins: opts.engine.assets,
        snapshot: () => opts.market.snapshot,
        imagesDir: opts.coinImagesDir,
      });
      let priceDocument = (): Record<string, unknown> => ({});
      await app.register(priceApi, {
        prefix: priceBase,
        market: opts.market,
        engine: opts.engine,
        notice: () => opts.dataset().notice,
        ...(opts.now ? { now: opts.now } : {}),
        shedder: opts.shedder,
        onDocument: (d) => (priceDocument = d),
      });
      // `/openapi.json`: every REST surface mounted above, in one document.
      await app.register(openapiRoute, {
        version: PRODUCT_PACKAGE.version,
        priceBase,
        priceDocument: () => priceDocument(),
      });
    },
    graph: opts.graph ? (app) => mountRouter(app, opts.graph as Router) : undefined,
    // The landing page, the documentation files and the kits' tarballs: everything `/` links to is served here.
    pages: async (app) => {
      await app.register(webRoutes, { walletHosts: opts.provider?.hostOrigins });
      await app.register(homeRoutes, {
        priceBase,
        graph: Boolean(opts.graph),
        accounts: Boolean(opts.accounts),
        names: Boolean(opts.accounts && opts.names),
        bridge: Boolean(opts.bridge),
        dataset: opts.dataset,
        kitsDir: opts.kitsDir,
        walletHosts: opts.provider?.hostOrigins,
      });
      await app.register(docsRoutes, { graphSchema: Boolean(opts.graph) });
      await app.register(kitRoutes, { kitsDir: opts.kitsDir });
    },
  });
}
