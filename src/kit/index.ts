/**
 * `@coinwallet/kit`, the complete kit: `createSDK({ baseUrl, apiKey? })` → `connect(tickers)`, `resolve(name,
 * ticker)`, `price(ids, vsCurrencies)`, `request`, `on`, `getProvider` for the 19 coins. Guide: docs/kit.md.
 */
export * from './common.ts';
export { createSDK } from './sdk.ts';
export { KIT_COINS, KIT_TICKERS } from './tickers.ts';
