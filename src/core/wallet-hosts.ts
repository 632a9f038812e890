/**
 * The wallet frames trusted by default (`WALLET_HOST_ORIGINS`'s default, docs/provider.md): the hosts `/provider.js`
 * accepts and the pages' CSP lets frame them. The configuration reads the variable (src/config.ts); the routes take
 * what start-up hands them and fall back to this, never to the environment.
 */
export const DEFAULT_WALLET_HOST_ORIGINS: readonly string[] = ['https://wallet.coinwallet.app'];
