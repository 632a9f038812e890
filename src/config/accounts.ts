/** The accounts section: the operator's token, the domain sign-in challenges name, and what dapp listings may link. */
import { ConfigError } from '../config-error.ts';
import { bool, secret } from './read.ts';

export interface AccountsSection {
  /**
   * `ADMIN_TOKEN`: bearer token for operator endpoints, at least 16 characters; embedded mode generates one at
   * `DATA_DIR/secrets/admin-token`.
   */
  adminToken: string | undefined;
  /**
   * `SIGN_IN_DOMAIN`: the domain named in wallet sign-in challenges (EIP-4361's `domain`), default `HOST:PORT`.
   * Set it to the public host name behind a proxy, and to the same value in every process of a scale-out deployment.
   */
  signInDomain: string | undefined;
  /**
   * `DAPP_ALLOW_PRIVATE_URLS`, default `false`: dapp listings may name sites and icons on loopback, private and
   * link-local hosts (`localhost`, `127.0.0.1`, `10.x`, `[::1]`…). For developing against a local dapp only: in
   * production a listing must point at a public host (docs/dapps.md).
   */
  dappAllowPrivateUrls: boolean;
}

export function accountsSection(env: NodeJS.ProcessEnv): AccountsSection {
  return {
    adminToken: secret(env, 'ADMIN_TOKEN', 'it opens every operator endpoint'),
    signInDomain: signInDomain(env.SIGN_IN_DOMAIN),
    dappAllowPrivateUrls: bool(env, 'DAPP_ALLOW_PRIVATE_URLS', false),
  };
}

function signInDomain(v: string | undefined): string | undefined {
  if (v === undefined || v === '') return undefined;
  if (!/^[a-z0-9.-]+(:\d{1,5})?$/i.test(v))
    throw new ConfigError(
      'SIGN_IN_DOMAIN must be a host name with an optional port, such as api.coinwallet.app',
    );
  return v.toLowerCase();
}
