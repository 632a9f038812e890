/**
 * The one reader of the environment (src/config.ts and its sections, src/config/): every variable's default, a value
 * of each, and the message of each refused value, so that the reader's shape can change and its behaviour cannot.
 */
import { resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { CONFIG_SECTIONS, ConfigError, loadConfig, readConfigSections } from '../../src/config.ts';
import { PROJECT_ROOT } from '../../src/core/project-root.ts';

describe('loadConfig', () => {
  it('runs the embedded product with nothing set', () => {
    expect(loadConfig({})).toStrictEqual({
      port: 4000,
      host: '127.0.0.1',
      dataDir: resolve('./data'),
      databaseUrl: undefined,
      tickIntervalMs: 60_000,
      sourceTimeoutMs: 10_000,
      staleAfterMs: 900_000,
      sourcesFile: undefined,
      supplyMaxAgeMs: 604_800_000,
      miningStaleAfterMs: 7_200_000,
      miningMaxAgeMs: 86_400_000,
      demo: 'auto',
      demoSeed: 20261121,
      demoDays: 420,
      logLevel: 'info',
      logFormat: undefined,
      priceBasePath: '/v1/agg',
      redisUrl: undefined,
      routerProcesses: undefined,
      rateLimitWindowSeconds: 60,
      trustedProxies: [],
      apiRateLimits: {},
      apiKeyPepper: undefined,
      adminToken: undefined,
      nameSuffix: 'coin',
      nameNetwork: 'mainnet',
      bridgeNetwork: 'testnet',
      bridgeConfigDir: resolve(PROJECT_ROOT, 'config/bridge'),
      bridgeAttestationKey: undefined,
      bridgeStaleAfterMs: 3_600_000,
      subgraphUrls: {},
      routerSubgraphTimeoutMs: 5_000,
      routerCostLimits: {},
      costBudgets: {},
      concurrencyLimits: {},
      subscriptionLimits: {},
      subscriptionIdLimits: {},
      shedLagMs: 250,
      refusalHoldMs: 1_000,
      shedMaxInFlight: 256,
      routerPlanner: 'rust',
      readyRequiresSubgraphs: true,
      shutdownTimeoutMs: 10_000,
      heapGovernor: true,
      metricsPort: undefined,
      persistedOperations: undefined,
      signInDomain: undefined,
      dappAllowPrivateUrls: false,
      persistedOperationsMode: 'allow',
      walletHostOrigins: ['https://wallet.coinwallet.app'],
      identityOrigin: undefined,
      coinImagesDir: undefined,
      tracing: undefined,
    });
  });

  it('reads every variable', () => {
    const c = loadConfig({
      PORT: '0',
      HOST: '0.0.0.0',
      DATA_DIR: '/tmp/cw',
      DATABASE_URL: 'postgresql://u@h/db',
      TICK_INTERVAL_MS: '1000',
      SOURCE_TIMEOUT_MS: '100',
      STALE_AFTER_MS: '2000',
      SOURCES_FILE: 'sources.json',
      SUPPLY_MAX_AGE_MS: '3000',
      MINING_STALE_AFTER_MS: '4000',
      MINING_MAX_AGE_MS: '5000',
      DEMO: 'off',
      DEMO_SEED: '7',
      DEMO_DAYS: '3',
      LOG_LEVEL: 'silent',
      LOG_FORMAT: 'json',
      PRICE_BASE_PATH: '/api/v3',
      REDIS_URL: 'rediss://r:6380',
      ROUTER_PROCESSES: '3',
      RATE_LIMIT_WINDOW_SECONDS: '5',
      TRUSTED_PROXIES: ' 10.0.0.1 , 10.1.0.0/16,',
      API_RATE_LIMITS: 'sign-in=10, public=600',
      API_KEY_PEPPER: 'p'.repeat(16),
      ADMIN_TOKEN: 'a'.repeat(16),
      NAME_SUFFIX: 'ltc-1',
      NAME_NETWORK: 'testnet',
      BRIDGE_NETWORK: 'mainnet',
      BRIDGE_CONFIG_DIR: 'test/fixtures',
      BRIDGE_ATTESTATION_KEY: 'ab'.repeat(32),
      BRIDGE_STALE_AFTER_MS: '6000',
      SUBGRAPH_URLS: 'markets=http://a:1/graphql, accounts=https://b/graphql',
      ROUTER_SUBGRAPH_TIMEOUT_MS: '10',
      ROUTER_COST_LIMITS: 'keyless=500,enterprise=20000',
      COST_BUDGETS: 'free=1',
      CONCURRENCY_LIMITS: 'pro=32',
      SUBSCRIPTION_LIMITS: 'keyless=2',
      SUBSCRIPTION_ID_LIMITS: 'enterprise=250',
      SHED_LAG_MS: '0',
      REFUSAL_HOLD_MS: '0',
      SHED_MAX_IN_FLIGHT: '0',
      ROUTER_PLANNER: 'js',
      READY_REQUIRES_SUBGRAPHS: '0',
      SHUTDOWN_TIMEOUT_MS: '0',
      HEAP_GOVERNOR: 'false',
      METRICS_PORT: '9464',
      PERSISTED_OPERATIONS: 'ops.json',
      SIGN_IN_DOMAIN: 'API.Example.com:8443',
      DAPP_ALLOW_PRIVATE_URLS: 'true',
      PERSISTED_OPERATIONS_MODE: 'safelist',
      WALLET_HOST_ORIGINS: 'https://w.example.com, http://127.0.0.1:5173',
      IDENTITY_ORIGIN: 'https://id.example.com',
      COIN_IMAGES_DIR: 'logos',
      OTEL_EXPORTER_OTLP_ENDPOINT: 'http://127.0.0.1:4318/',
    });
    expect(c).toStrictEqual({
      port: 0,
      host: '0.0.0.0',
      dataDir: '/tmp/cw',
      databaseUrl: 'postgresql://u@h/db',
      tickIntervalMs: 1000,
      sourceTimeoutMs: 100,
      staleAfterMs: 2000,
      sourcesFile: 'sources.json',
      supplyMaxAgeMs: 3000,
      miningStaleAfterMs: 4000,
      miningMaxAgeMs: 5000,
      demo: 'off',
      demoSeed: 7,
      demoDays: 3,
      logLevel: 'silent',
      logFormat: 'json',
      priceBasePath: '/api/v3',
      redisUrl: 'rediss://r:6380',
      routerProcesses: 3,
      rateLimitWindowSeconds: 5,
      trustedProxies: ['10.0.0.1', '10.1.0.0/16'],
      apiRateLimits: { 'sign-in': 10, public: 600 },
      apiKeyPepper: 'p'.repeat(16),
      adminToken: 'a'.repeat(16),
      nameSuffix: 'ltc-1',
      nameNetwork: 'testnet',
      bridgeNetwork: 'mainnet',
      bridgeConfigDir: resolve(PROJECT_ROOT, 'test/fixtures'),
      bridgeAttestationKey: 'ab'.repeat(32),
      bridgeStaleAfterMs: 6000,
      subgraphUrls: { markets: 'http://a:1/graphql', accounts: 'https://b/graphql' },
      routerSubgraphTimeoutMs: 10,
      routerCostLimits: { keyless: 500, enterprise: 20_000 },
      costBudgets: { free: 1 },
      concurrencyLimits: { pro: 32 },
      subscriptionLimits: { keyless: 2 },
      subscriptionIdLimits: { enterprise: 250 },
      shedLagMs: 0,
      refusalHoldMs: 0,
      shedMaxInFlight: 0,
      routerPlanner: 'js',
      readyRequiresSubgraphs: false,
      shutdownTimeoutMs: 0,
      heapGovernor: false,
      metricsPort: 9464,
      persistedOperations: 'ops.json',
      signInDomain: 'api.example.com:8443',
      dappAllowPrivateUrls: true,
      persistedOperationsMode: 'safelist',
      walletHostOrigins: ['https://w.example.com', 'http://127.0.0.1:5173'],
      identityOrigin: 'https://id.example.com',
      coinImagesDir: resolve('logos'),
      tracing: {
        url: 'http://127.0.0.1:4318/v1/traces',
        protocol: 'http/protobuf',
        serviceName: undefined,
        sampler: 'parentbased_always_on',
        ratio: 1,
        scheduleDelayMs: 5_000,
      },
    });
  });

  it.each([
    [{ PORT: '65536' }, 'PORT must be an integer from 0 to 65535'],
    [{ PORT: '4000.5' }, 'PORT must be an integer from 0 to 65535'],
    [{ LOG_LEVEL: 'debug' }, 'LOG_LEVEL must be info, warn, error or silent'],
    [{ LOG_FORMAT: 'xml' }, 'LOG_FORMAT must be json or pretty'],
    [{ DEMO: 'on' }, 'DEMO must be auto or off'],
    [{ DATABASE_URL: 'mysql://h/db' }, 'DATABASE_URL must be a postgres:// URL'],
    [{ TICK_INTERVAL_MS: '999' }, 'TICK_INTERVAL_MS must be an integer from 1000 to 86400000'],
    [{ SOURCE_TIMEOUT_MS: 'x' }, 'SOURCE_TIMEOUT_MS must be an integer from 100 to 600000'],
    [{ STALE_AFTER_MS: '0' }, 'STALE_AFTER_MS must be an integer from 1000 to 86400000'],
    [{ SUPPLY_MAX_AGE_MS: '1' }, 'SUPPLY_MAX_AGE_MS must be an integer from 1000 to 31536000000'],
    [{ MINING_STALE_AFTER_MS: '1' }, 'MINING_STALE_AFTER_MS must be an integer from 1000 to 2592000000'],
    [{ MINING_MAX_AGE_MS: '1' }, 'MINING_MAX_AGE_MS must be an integer from 1000 to 31536000000'],
    [{ DEMO_SEED: '-1' }, 'DEMO_SEED must be an integer from 0 to 2147483647'],
    [{ DEMO_DAYS: '2' }, 'DEMO_DAYS must be an integer from 3 to 3650'],
    [{ PRICE_BASE_PATH: '/v1/agg/' }, 'PRICE_BASE_PATH must be a path such as /v1/agg (no trailing slash)'],
    [{ REDIS_URL: 'http://r' }, 'REDIS_URL must be a redis:// or rediss:// URL'],
    [{ ROUTER_PROCESSES: '0' }, 'ROUTER_PROCESSES must be an integer from 1 to 1000'],
    [{ RATE_LIMIT_WINDOW_SECONDS: '61' }, 'RATE_LIMIT_WINDOW_SECONDS must be an integer from 1 to 60'],
    [
      { API_RATE_LIMITS: 'login=5' },
      'API_RATE_LIMITS: "login=5" is not bucket=number with a bucket of challenge, sign-in, public, account, partner',
    ],
    [{ API_RATE_LIMITS: 'public=0' }, 'API_RATE_LIMITS: public must be an integer from 1 to 1000000'],
    [
      { API_KEY_PEPPER: 'short' },
      'API_KEY_PEPPER must be at least 16 characters (it keys the hashes of every API key, so it must not be ' +
        'guessable); generate one with: openssl rand -hex 32',
    ],
    [
      { ADMIN_TOKEN: 'short' },
      'ADMIN_TOKEN must be at least 16 characters (it opens every operator endpoint, so it must not be ' +
        'guessable); generate one with: openssl rand -hex 32',
    ],
    [{ NAME_SUFFIX: 'Coin' }, 'NAME_SUFFIX must be a lowercase label such as coin'],
    [{ NAME_NETWORK: 'regtest' }, 'NAME_NETWORK must be mainnet or testnet'],
    [{ BRIDGE_NETWORK: 'regtest' }, 'BRIDGE_NETWORK must be mainnet or testnet'],
    [{ BRIDGE_STALE_AFTER_MS: '1' }, 'BRIDGE_STALE_AFTER_MS must be an integer from 1000 to 31536000000'],
    [
      { SUBGRAPH_URLS: 'markets' },
      'SUBGRAPH_URLS must be name=url pairs such as markets=http://127.0.0.1:4001/graphql,identity=…',
    ],
    [
      { SUBGRAPH_URLS: 'prices=http://a/graphql' },
      'SUBGRAPH_URLS: prices is not a subgraph (markets, identity, bridge, accounts)',
    ],
    [{ SUBGRAPH_URLS: 'bridge=ftp://a' }, 'SUBGRAPH_URLS: bridge needs an http(s) URL'],
    [{ ROUTER_SUBGRAPH_TIMEOUT_MS: '9' }, 'ROUTER_SUBGRAPH_TIMEOUT_MS must be an integer from 10 to 600000'],
    [
      { ROUTER_COST_LIMITS: 'free' },
      'ROUTER_COST_LIMITS must be plan=number pairs such as free=1000,pro=5000',
    ],
    [
      { ROUTER_COST_LIMITS: 'gold=5' },
      'ROUTER_COST_LIMITS: gold is not a plan (keyless, free, pro, enterprise)',
    ],
    [{ ROUTER_COST_LIMITS: 'pro=10000001' }, 'ROUTER_COST_LIMITS: pro must be an integer from 1 to 10000000'],
    [{ COST_BUDGETS: 'free=0' }, 'COST_BUDGETS: free must be an integer from 1 to 1000000000'],
    [{ COST_BUDGETS: '=5' }, 'COST_BUDGETS must be plan=number pairs such as free=20000,pro=150000'],
    [{ CONCURRENCY_LIMITS: 'pro=1.5' }, 'CONCURRENCY_LIMITS: pro must be an integer from 1 to 10000'],
    [{ CONCURRENCY_LIMITS: 'pro' }, 'CONCURRENCY_LIMITS must be plan=number pairs such as keyless=4,pro=32'],
    [
      { SUBSCRIPTION_LIMITS: 'keyless' },
      'SUBSCRIPTION_LIMITS must be plan=number pairs such as keyless=2,pro=100',
    ],
    [
      { SUBSCRIPTION_LIMITS: 'keyless=1000001' },
      'SUBSCRIPTION_LIMITS: keyless must be an integer from 1 to 1000000',
    ],
    [
      { SUBSCRIPTION_ID_LIMITS: 'keyless' },
      'SUBSCRIPTION_ID_LIMITS must be plan=number pairs such as keyless=25,pro=250',
    ],
    [{ SUBSCRIPTION_ID_LIMITS: 'pro=251' }, 'SUBSCRIPTION_ID_LIMITS: pro must be an integer from 1 to 250'],
    [{ SHED_LAG_MS: '60001' }, 'SHED_LAG_MS must be an integer from 0 to 60000'],
    [{ REFUSAL_HOLD_MS: '-1' }, 'REFUSAL_HOLD_MS must be an integer from 0 to 60000'],
    [{ SHED_MAX_IN_FLIGHT: '1000001' }, 'SHED_MAX_IN_FLIGHT must be an integer from 0 to 1000000'],
    [{ ROUTER_PLANNER: 'rust2' }, 'ROUTER_PLANNER must be rust or js'],
    [{ READY_REQUIRES_SUBGRAPHS: 'yes' }, 'READY_REQUIRES_SUBGRAPHS must be true or false'],
    [{ SHUTDOWN_TIMEOUT_MS: '600001' }, 'SHUTDOWN_TIMEOUT_MS must be an integer from 0 to 600000'],
    [{ HEAP_GOVERNOR: 'off' }, 'HEAP_GOVERNOR must be true or false'],
    [{ METRICS_PORT: '70000' }, 'METRICS_PORT must be an integer from 0 to 65535'],
    [
      { SIGN_IN_DOMAIN: 'https://api.example.com' },
      'SIGN_IN_DOMAIN must be a host name with an optional port, such as api.coinwallet.app',
    ],
    [{ DAPP_ALLOW_PRIVATE_URLS: 'on' }, 'DAPP_ALLOW_PRIVATE_URLS must be true or false'],
    [{ PERSISTED_OPERATIONS_MODE: 'strict' }, 'PERSISTED_OPERATIONS_MODE must be allow or safelist'],
    [
      { WALLET_HOST_ORIGINS: 'https://w.example.com/' },
      'WALLET_HOST_ORIGINS: https://w.example.com/ is not an origin such as https://wallet.example.com (no path)',
    ],
    [
      { IDENTITY_ORIGIN: 'ftp://id.example.com' },
      'IDENTITY_ORIGIN: ftp://id.example.com is not an origin such as https://wallet.example.com (no path)',
    ],
    [{ OTEL_TRACES_EXPORTER: 'zipkin' }, 'OTEL_TRACES_EXPORTER must be otlp or none'],
  ] as [NodeJS.ProcessEnv, string][])('%o → ConfigError %j', (env, message) => {
    let thrown: unknown;
    try {
      loadConfig(env);
    } catch (err) {
      thrown = err;
    }
    expect(thrown).toBeInstanceOf(ConfigError);
    expect((thrown as Error).message).toBe(message);
  });

  it('takes an empty value as unset', () => {
    const empty = Object.fromEntries(
      [
        'PORT',
        'DATABASE_URL',
        'ROUTER_PROCESSES',
        'METRICS_PORT',
        'ADMIN_TOKEN',
        'NAME_SUFFIX',
        'COST_BUDGETS',
      ].map((k) => [k, '']),
    );
    expect(loadConfig(empty)).toStrictEqual(loadConfig({}));
  });

  it('is its sections side by side: each field of one section, each variable read by one section', () => {
    const read = new Map<string, Set<string>>();
    let section = '';
    const env = new Proxy({} as NodeJS.ProcessEnv, {
      get(_, name) {
        if (typeof name === 'string') read.set(name, (read.get(name) ?? new Set()).add(section));
        return undefined;
      },
    });
    const sections = readConfigSections({});
    const fields = Object.values(sections).flatMap((s) => Object.keys(s));
    expect(new Set(fields).size).toBe(fields.length);
    expect(fields.sort()).toEqual(Object.keys(loadConfig({})).sort());
    for (const [name, readSection] of Object.entries(CONFIG_SECTIONS)) {
      section = name;
      readSection(env);
    }
    expect(read.size).toBeGreaterThan(50);
    expect([...read].filter(([, by]) => by.size > 1)).toEqual([]);
  });
});
