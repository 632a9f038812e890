/**
 * The domain services of one process, built once by {@link createServices} and handed to every transport that
 * serves them: the REST APIs (`src/start/server.ts`) and the subgraphs (`src/start/graph.ts`). So a session, a name or
 * a dapp request is one service's business whichever transport asked (no service is built inside a transport). The
 * API-key service comes with the access layer (`src/start/access.ts`), the market service with the market
 * (`src/start/wiring.ts` `marketFor`).
 */
import { AuthService } from './accounts/auth.ts';
import { DappService } from './accounts/dapps.ts';
import type { Network } from './crypto/chains.ts';
import { NameService } from './names/service.ts';
import type { Db } from './store/db.ts';

export interface Services {
  /** Wallet sign-in and sessions. */
  auth: AuthService;
  /** Name resolution, registration, links and partners. */
  names: NameService;
  /** Dapp listing requests, their review and the store. */
  dapps: DappService;
}

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
  /** Clock in ms; default `Date.now`. */
  now?: (() => number) | undefined;
  /** Dapp sites and icons may be on loopback and private hosts (`DAPP_ALLOW_PRIVATE_URLS`); default false. */
  dappAllowPrivateUrls?: boolean | undefined;
}

export function createServices(db: Db, opts: ServicesOptions): Services {
  const now = opts.now ?? Date.now;
  return {
    auth: new AuthService(db, {
      domain: opts.domain,
      uri: opts.uri,
      now,
      ...(opts.sessionTtlMs !== undefined ? { sessionTtlMs: opts.sessionTtlMs } : {}),
    }),
    names: new NameService(db, { suffix: opts.nameSuffix, network: opts.nameNetwork, now }),
    dapps: new DappService(db, { now, allowPrivateHosts: opts.dappAllowPrivateUrls }),
  };
}
