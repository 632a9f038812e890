/**
 * The one reader of the environment: {@link readConfigSections} reads every variable once, a section per area
 * (`src/config/`), each checking its variables and naming the one that is wrong and what it accepts. A leaf: it
 * imports nothing of the areas it configures (lint: eslint.config.js), and nothing below start-up imports it;
 * start-up hands each part the plain values it needs. Where a variable names something of an area's vocabulary (a
 * plan, an `/api` bucket, a subgraph) the section holds its own list, which
 * `test/architecture/config-vocabulary.test.ts` holds equal to the area's.
 */
import { accessSection } from './config/access.ts';
import type { AccessSection } from './config/access.ts';
import { accountsSection } from './config/accounts.ts';
import type { AccountsSection } from './config/accounts.ts';
import { bridgeSection } from './config/bridge.ts';
import type { BridgeSection } from './config/bridge.ts';
import { marketSection } from './config/market.ts';
import type { MarketSection } from './config/market.ts';
import { namesSection } from './config/names.ts';
import type { NamesSection } from './config/names.ts';
import { routerSection } from './config/router.ts';
import type { RouterSection } from './config/router.ts';
import { serverSection } from './config/server.ts';
import type { ServerSection } from './config/server.ts';
import { storeSection } from './config/store.ts';
import type { StoreSection } from './config/store.ts';
import { telemetrySection } from './config/telemetry.ts';
import type { TelemetrySection } from './config/telemetry.ts';

export { ConfigError } from './config-error.ts';
export { CONFIG_API_BUCKETS, CONFIG_PLANS, parseApiLimits } from './config/access.ts';
export type { AccessSection, PlanOverrides } from './config/access.ts';
export type { AccountsSection } from './config/accounts.ts';
export type { BridgeSection } from './config/bridge.ts';
export { DEFAULT_DEMO_SEED } from './config/market.ts';
export type { MarketSection } from './config/market.ts';
export { DEFAULT_NAME_SUFFIX } from './config/names.ts';
export type { NamesSection } from './config/names.ts';
export { CONFIG_SUBGRAPHS } from './config/router.ts';
export type { RouterSection } from './config/router.ts';
export { identityOrigin, walletHostOrigins } from './config/server.ts';
export type { ServerSection } from './config/server.ts';
export type { StoreSection } from './config/store.ts';
export type { TelemetrySection } from './config/telemetry.ts';

/** The sections in the order they are read: each reads its area's variables from the environment it is given. */
export const CONFIG_SECTIONS = {
  server: serverSection,
  store: storeSection,
  market: marketSection,
  access: accessSection,
  names: namesSection,
  bridge: bridgeSection,
  accounts: accountsSection,
  router: routerSection,
  telemetry: telemetrySection,
} as const;

/** The configuration by area, as {@link readConfigSections} reads it. */
export type ConfigSections = { [K in keyof typeof CONFIG_SECTIONS]: ReturnType<(typeof CONFIG_SECTIONS)[K]> };

/**
 * Process configuration, read from the environment: every section's fields side by side (no two sections share a
 * field name). Every option has a default that runs the embedded product.
 */
export interface AppConfig
  extends
    ServerSection,
    StoreSection,
    MarketSection,
    AccessSection,
    NamesSection,
    BridgeSection,
    AccountsSection,
    RouterSection,
    TelemetrySection {}

/** Reads and checks every section; throws `ConfigError` naming the first variable found wrong and what it accepts. */
export function readConfigSections(env: NodeJS.ProcessEnv = process.env): ConfigSections {
  return Object.fromEntries(
    Object.entries(CONFIG_SECTIONS).map(([area, read]) => [area, read(env)]),
  ) as ConfigSections;
}

/** Reads and checks the configuration ({@link readConfigSections}), its sections' fields in one object. */
export function loadConfig(env: NodeJS.ProcessEnv = process.env): AppConfig {
  return Object.assign({}, ...Object.values(readConfigSections(env))) as AppConfig;
}
