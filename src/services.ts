/**
 * The composition root of the domain: every service of one process, built once by {@link createServices} and handed
 * to every transport that serves it, the REST APIs (`src/start/server.ts`) and the subgraphs (`src/start/graph.ts`).
 * So a session, a name, a dapp request, a market snapshot or a proof of reserves is one service's business whichever
 * transport asked, and no transport holds the store or builds a service (docs/architecture.md, "One composition
 * root").
 *
 * Start-up maps the configuration onto plain options (`src/start/wiring.ts`: `servicesOptions`, `marketOptions`);
 * nothing here reads it. The serving market is built here from those options, its demo source and demo refresher
 * included, as a command's market is (`src/cli/local-store.ts`). Two services come from start-up's own assemblies
 * and are handed in: the API-key service and the request statistics, with the access layer (`src/start/access.ts`:
 * Redis, the limiter and the key cache are built with them). The reserve attester stays with the proof of reserves
 * it runs (`src/start/wiring.ts`, `startProofOfReserves`): its key is resolved, and may be missing, at warm-up.
 */
import type { UsageReads } from './access/usage.ts';
import { UsageReader } from './access/usage-store.ts';
import { AccountService } from './accounts/account-service.ts';
import { AccountKeys } from './accounts/api-keys.ts';
import type { SchemaCheck } from './accounts/schema-check.ts';
import { SchemaChecks } from './accounts/schema-check-service.ts';
import { AuthService } from './accounts/auth.ts';
import { DappService } from './accounts/dapps.ts';
import type { ApiKeyService } from './accounts/keys.ts';
import { UsageViews } from './accounts/usage-views.ts';
import type { Deployment } from './bridge/model.ts';
import { BridgeService } from './bridge/service.ts';
import type { Network } from './crypto/chains.ts';
import { MarketService } from './market/service.ts';
import type { MarketServiceOptions } from './market/service.ts';
import { PartnerService } from './names/partners.ts';
import { NameService } from './names/service.ts';
import type { Db } from './store/db.ts';

export interface Services {
  /** Wallet sign-in and sessions. */
  auth: AuthService;
  /** Accounts by id, the administrators and their role changes, the apps of accounts. */
  accounts: AccountService;
  /** Name resolution, registration, links and primary names. */
  names: NameService;
  /** Partner credentials and the check of their signed requests. */
  partners: PartnerService;
  /** Dapp listing requests, their review and the store. */
  dapps: DappService;
  /** Request statistics as accounts read them: the access layer's recorder, or a reader over the store. */
  stats: UsageViews;
  /** The bridge's reads and staleness rule; null when no deployment is given. */
  bridge: BridgeService | null;
  /** Schema checks against the apps' published documents; null when no comparison is given. */
  schemaChecks: SchemaChecks | null;
  /** The market over the store: the serving one, or a command's; null when no market options are given. */
  market: MarketService | null;
}

/** The services that need the API-key service: what the accounts API and the accounts subgraph serve. */
export interface KeyServices {
  /** API keys: issue, review, revoke (the access check's own instance: one lookup cache, one revision). */
  keys: ApiKeyService;
  /** API keys scoped to their owner (`/api/account/api-keys`, `me { apiKeys }`). */
  ownKeys: AccountKeys;
}

/** What the accounts subgraph and its loaders are handed. */
export type AccountsServices = Pick<Services, 'auth' | 'accounts' | 'partners' | 'dapps' | 'stats'> &
  KeyServices;

export interface ServicesOptions {
  /** Host (and port) named in sign-in challenges, e.g. `api.coinwallet.example` (`SIGN_IN_DOMAIN`). */
  domain: string;
  /** URI named in sign-in challenges; default `http://<domain>`. */
  uri?: string | undefined;
  /** Session lifetime in ms; default 24 hours. */
  sessionTtlMs?: number | undefined;
  /** The suffix of every name (`NAME_SUFFIX`). */
  nameSuffix: string;
  /** The network name addresses are validated for (`mainnet` in production). */
  nameNetwork: Network;
  /** Clock in ms of every service built here; default `Date.now`. */
  now?: (() => number) | undefined;
  /** Dapp sites and icons may be on loopback and private hosts (`DAPP_ALLOW_PRIVATE_URLS`); default false. */
  dappAllowPrivateUrls?: boolean | undefined;
  /**
   * The active bridge deployment (`loadDeployment(BRIDGE_NETWORK)`) and its staleness threshold
   * (`BRIDGE_STALE_AFTER_MS`, default 1 hour); omitted → no bridge service.
   */
  bridge?: { deployment: Deployment; staleAfterMs?: number | undefined } | undefined;
  /** The schema comparison over the served API schema (`router/trusted/schema-check.ts`); omitted → no schema checks. */
  schemaCheck?: SchemaCheck | undefined;
  /**
   * The market's engine, sources, tick and logger (`marketOptions` in `src/start/wiring.ts` for the serving one);
   * omitted → no market service.
   */
  market?: Omit<MarketServiceOptions, 'db'> | undefined;
}

/** The access layer's parts the services are built over (`src/start/access.ts`). */
export interface AccessParts {
  keys: ApiKeyService;
  /** The process's recorder (it writes its pending counts before a read); default a reader over the store. */
  usage?: UsageReads | undefined;
}

/** The services, with each one whose options were given (`bridge`, `schemaCheck`, `market`) not null. */
export type ServicesWith<O extends ServicesOptions> = Services &
  (O extends { bridge: object } ? { bridge: BridgeService } : unknown) &
  (O extends { schemaCheck: SchemaCheck } ? { schemaChecks: SchemaChecks } : unknown) &
  (O extends { market: object } ? { market: MarketService } : unknown);

export function createServices<O extends ServicesOptions>(db: Db, opts: O): ServicesWith<O>;
export function createServices<O extends ServicesOptions>(
  db: Db,
  opts: O,
  access: AccessParts,
): ServicesWith<O> & KeyServices;
export function createServices(
  db: Db,
  opts: ServicesOptions,
  access?: AccessParts,
): Services & Partial<KeyServices> {
  const now = opts.now ?? Date.now;
  const services: Services = {
    auth: new AuthService(db, {
      domain: opts.domain,
      uri: opts.uri,
      now,
      ...(opts.sessionTtlMs !== undefined ? { sessionTtlMs: opts.sessionTtlMs } : {}),
    }),
    accounts: new AccountService(db, { now }),
    names: new NameService(db, { suffix: opts.nameSuffix, network: opts.nameNetwork, now }),
    partners: new PartnerService(db, { now }),
    dapps: new DappService(db, { now, allowPrivateHosts: opts.dappAllowPrivateUrls }),
    stats: new UsageViews(access?.usage ?? new UsageReader(db), db),
    bridge: opts.bridge
      ? new BridgeService(db, {
          deployment: opts.bridge.deployment,
          staleAfterMs: opts.bridge.staleAfterMs,
          now,
        })
      : null,
    schemaChecks: opts.schemaCheck ? new SchemaChecks(db, { check: opts.schemaCheck, now }) : null,
    market: opts.market ? new MarketService({ ...opts.market, db }) : null,
  };
  return access ? { ...services, keys: access.keys, ownKeys: new AccountKeys(access.keys) } : services;
}
