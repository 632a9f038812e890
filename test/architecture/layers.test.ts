/**
 * The layers are enforced by lint (`eslint.config.js`, docs/architecture.md): each forbidden direction is an error
 * on a file placed where it would be, and the allowed directions are not.
 */
import { ESLint } from 'eslint';
import { describe, expect, it } from 'vitest';

const eslint = new ESLint();

async function refusals(filePath: string, code: string): Promise<string[]> {
  const [result] = await eslint.lintText(code, { filePath });
  return (result?.messages ?? []).filter((m) => m.ruleId === 'no-restricted-imports').map((m) => m.message);
}

describe('layer rules', () => {
  it.each([
    [
      'src/market/x.ts',
      "import type { FastifyInstance } from 'fastify';\nexport type X = FastifyInstance;\n",
    ],
    ['src/names/x.ts', "import { GraphQLError } from 'graphql';\nexport const x = GraphQLError;\n"],
    [
      'src/accounts/x.ts',
      "import { commonErrors } from '../rest/errors.ts';\nexport const x = commonErrors;\n",
    ],
    [
      'src/engine/x.ts',
      "import { createRouter } from '../../router/index.ts';\nexport const x = createRouter;\n",
    ],
    [
      'src/access/x.ts',
      "import { fromApiError } from '../../subgraphs/shared/errors.ts';\nexport const x = fromApiError;\n",
    ],
    [
      'subgraphs/markets/x.ts',
      "import { commonErrors } from '../../src/rest/errors.ts';\nexport const x = commonErrors;\n",
    ],
    [
      'subgraphs/markets/x.ts',
      "import { createRouter } from '../../router/index.ts';\nexport const x = createRouter;\n",
    ],
    [
      'src/rest/x.ts',
      "import { fromApiError } from '../../subgraphs/shared/errors.ts';\nexport const x = fromApiError;\n",
    ],
    ['src/kit/x.ts', "import { readFileSync } from 'node:fs';\nexport const x = readFileSync;\n"],
    ['src/web/pages/x.tsx', "import { openDb } from '../../store/open.ts';\nexport const x = openDb;\n"],
    ['src/provider/x.ts', "import Fastify from 'fastify';\nexport const x = Fastify;\n"],
    [
      'router/plugins/x.ts',
      "import { createServer } from '../../src/server/app.ts';\nexport const x = createServer;\n",
    ],
    [
      'router/x.ts',
      "import { routerOptions } from '../src/start/wiring.ts';\nexport const x = routerOptions;\n",
    ],
    [
      'src/market/x.ts',
      "import { startProduct } from '../start/product.ts';\nexport const x = startProduct;\n",
    ],
    [
      'src/access/x.ts',
      "import { ApiKeyService } from '../accounts/keys.ts';\nexport const x = ApiKeyService;\n",
    ],
    ['src/access/x.ts', "import Fastify from 'fastify';\nexport const x = Fastify;\n"],
    // The host imports neither REST nor the router; nothing imports it but start-up.
    [
      'src/server/host.ts',
      "import { mountRouter } from '../../router/http.ts';\nexport const x = mountRouter;\n",
    ],
    [
      'src/server/host/x.ts',
      "import { priceApi } from '../../rest/price/index.ts';\nexport const x = priceApi;\n",
    ],
    [
      'src/server/json-body.ts',
      "import { commonErrors } from '../rest/errors.ts';\nexport const x = commonErrors;\n",
    ],
    [
      'src/rest/x.ts',
      "import { createHttpHost } from '../server/host.ts';\nexport const x = createHttpHost;\n",
    ],
    [
      'src/rest/x.ts',
      "import { registerHealth } from '../server/health.ts';\nexport const x = registerHealth;\n",
    ],
    [
      'src/server/home/x.ts',
      "import { createHttpHost } from '../host.ts';\nexport const x = createHttpHost;\n",
    ],
    [
      'src/server/x.ts',
      "import { everyResponse } from './every-response.ts';\nexport const x = everyResponse;\n",
    ],
    [
      'src/dapp-browser/x.ts',
      "import { requestId } from '../server/host/request-id.ts';\nexport const x = requestId;\n",
    ],
    [
      'src/services.ts',
      "import { createHttpHost } from './server/host.ts';\nexport const x = createHttpHost;\n",
    ],
    [
      'src/market/x.ts',
      "import { createHttpHost } from '../server/host.ts';\nexport const x = createHttpHost;\n",
    ],
    [
      'router/x.ts',
      "import { createHttpHost } from '../src/server/host.ts';\nexport const x = createHttpHost;\n",
    ],
    [
      'subgraphs/markets/x.ts',
      "import { createHttpHost } from '../../src/server/host.ts';\nexport const x = createHttpHost;\n",
    ],
  ])('%s: a forbidden import is an error', async (file, code) => {
    expect((await refusals(file, code)).length).toBeGreaterThan(0);
  });

  it.each([
    ['src/rest/x.ts', "import { ApiError } from '../core/errors.ts';\nexport const x = ApiError;\n"],
    [
      'subgraphs/markets/x.ts',
      "import { ApiError } from '../../src/core/errors.ts';\nexport const x = ApiError;\n",
    ],
    ['src/market/x.ts', "import { ApiError } from '../core/errors.ts';\nexport const x = ApiError;\n"],
    ['src/web/pages/x.tsx', "import { createSdk } from '../../kit/sdk.ts';\nexport const x = createSdk;\n"],
    ['router/x.ts', "import { silentLogger } from '../src/core/log.ts';\nexport const x = silentLogger;\n"],
    [
      'src/start/x.ts',
      "import { createRouter } from '../../router/index.ts';\nexport const x = createRouter;\n",
    ],
    // Start-up builds the host and hands it what it mounts; the host's files import each other.
    [
      'src/start/x.ts',
      "import { createHttpHost } from '../server/host.ts';\nexport const x = createHttpHost;\n",
    ],
    [
      'src/cli/x.ts',
      "import { createHttpHost } from '../server/host.ts';\nexport const x = createHttpHost;\n",
    ],
    [
      'src/dapp-browser/server.ts',
      "import { createHttpHost } from '../server/host.ts';\nexport const x = createHttpHost;\n",
    ],
    [
      'src/server/host.ts',
      "import { everyResponse } from './every-response.ts';\nexport const x = everyResponse;\n",
    ],
    [
      'src/server/host/x.ts',
      "import { ApiError } from '../../core/errors.ts';\nexport const x = ApiError;\n",
    ],
    ['src/server/home/x.ts', "import { sendEtagged } from '../etagged.ts';\nexport const x = sendEtagged;\n"],
  ])('%s: an import along the layers passes', async (file, code) => {
    expect(await refusals(file, code)).toEqual([]);
  });
});

describe('transports receive services, never the store', () => {
  const store = (path: string) => `import type { Db } from '${path}';\nexport type X = Db;\n`;
  it.each([
    ['src/rest/names/x.ts', store('../../store/db.ts')],
    ['src/rest/x.ts', "import { openDb } from '../store/open.ts';\nexport const x = openDb;\n"],
    ['subgraphs/identity/x.ts', store('../../src/store/db.ts')],
    [
      'subgraphs/bridge/x.ts',
      "import { cachedRead } from '../../src/store/read-cache.ts';\nexport const x = cachedRead;\n",
    ],
    ['router/x.ts', store('../src/store/db.ts')],
    ['router/plugins/x.ts', store('../../src/store/db.ts')],
    // No exception for the outage: what a client is told then is the shared kernel's (src/core/store-outage.ts).
    [
      'subgraphs/shared/x.ts',
      "import { isOutage } from '../../src/store/unavailable.ts';\nexport const x = isOutage;\n",
    ],
    [
      'router/x.ts',
      "import { StoreUnavailableError } from '../src/store/unavailable.ts';\nexport const x = StoreUnavailableError;\n",
    ],
    ['src/rest/x.ts', "import { outageOr } from '../store/unavailable.ts';\nexport const x = outageOr;\n"],
  ])('%s: an import of the store, even of a type, is an error', async (file, code) => {
    expect(await refusals(file, code)).toEqual([expect.stringContaining('never the store')]);
  });

  it.each([
    // What a client is told when the store does not answer is the shared kernel's: transports render it from there.
    [
      'subgraphs/shared/x.ts',
      "import { storeErrors } from '../../src/core/store-outage.ts';\nexport const x = storeErrors;\n",
    ],
    [
      'router/x.ts',
      "import { isStoreUnavailable } from '../src/core/store-outage.ts';\nexport const x = isStoreUnavailable;\n",
    ],
    [
      'src/server/host/x.ts',
      "import { clientErrorOf } from '../../core/store-outage.ts';\nexport const x = clientErrorOf;\n",
    ],
    // A service is what a transport is handed; start-up and the domain build over the store.
    [
      'src/rest/x.ts',
      "import type { BridgeService } from '../bridge/service.ts';\nexport type X = BridgeService;\n",
    ],
    ['src/start/x.ts', store('../store/db.ts')],
    ['src/services.ts', store('./store/db.ts')],
    ['src/names/x.ts', store('../store/db.ts')],
  ])('%s: passes', async (file, code) => {
    expect(await refusals(file, code)).toEqual([]);
  });
});

describe('files are found from the project root (the build runs from dist/)', () => {
  const located = async (filePath: string, code: string): Promise<string[]> => {
    const [result] = await eslint.lintText(code, { filePath });
    return (result?.messages ?? []).filter((m) => m.ruleId === 'no-restricted-syntax').map((m) => m.message);
  };

  it.each([
    ['src/store/x.ts', "export const x = new URL('./migrations', import.meta.url);\n"],
    ['subgraphs/markets/x.ts', 'export const x = import.meta.dirname;\n'],
    ['router/x.ts', 'export const x = import.meta.filename;\n'],
  ])('%s: a path relative to the module is an error', async (file, code) => {
    expect(await located(file, code)).toEqual([expect.stringContaining('projectPath()')]);
  });

  it('projectPath() passes', async () => {
    const code =
      "import { projectPath } from '../core/project-root.ts';\nexport const x = projectPath('schema');\n";
    expect(await located('src/store/x.ts', code)).toEqual([]);
  });
});

describe('start-up alone reads the configuration and imports the demo; the store imports no domain', () => {
  const config = (path: string): string =>
    `import { loadConfig } from '${path}';\nexport const x = loadConfig;\n`;
  const demo = (path: string): string =>
    `import { DEMO_VENUES } from '${path}';\nexport const x = DEMO_VENUES;\n`;

  it.each([
    // The domain imports no configuration: it takes plain options.
    ['src/market/x.ts', "import type { AppConfig } from '../config.ts';\nexport type X = AppConfig;\n"],
    ['src/engine/sub/x.ts', config('../../config.ts')],
    ['src/store/x.ts', config('../config.ts')],
    ['src/access/x.ts', "import { ConfigError } from '../config-error.ts';\nexport const x = ConfigError;\n"],
    [
      'src/core/x.ts',
      "import { tracingConfig } from '../tracing-config.ts';\nexport const x = tracingConfig;\n",
    ],
    // Nor does anything else below start-up.
    ['src/rest/x.ts', config('../config.ts')],
    ['src/server/home/x.ts', config('../../config.ts')],
    ['src/services.ts', config('./config.ts')],
    ['router/x.ts', config('../src/config.ts')],
    ['subgraphs/markets/x.ts', config('../../src/config.ts')],
    ['src/web/pages/x.tsx', config('../../config.ts')],
    // Demo is imported only by start-up.
    ['src/market/present/x.ts', demo('../../demo/venues.ts')],
    [
      'src/store/x.ts',
      "import { ensureDemoMining } from '../demo/mining.ts';\nexport const x = ensureDemoMining;\n",
    ],
    ['src/rest/x.ts', demo('../demo/venues.ts')],
    ['src/server/x.ts', demo('../demo/venues.ts')],
    ['router/x.ts', "import { mulberry32 } from '../src/demo/random.ts';\nexport const x = mulberry32;\n"],
    ['subgraphs/markets/x.ts', demo('../../src/demo/venues.ts')],
    // The store imports no domain.
    [
      'src/store/x.ts',
      "import type { MiningFigures } from '../market/mining.ts';\nexport type X = MiningFigures;\n",
    ],
    [
      'src/store/x.ts',
      "import { DEFAULT_PRICE_RULES } from '../engine/price.ts';\nexport const x = DEFAULT_PRICE_RULES;\n",
    ],
    [
      'src/store/x.ts',
      "import { ApiKeyService } from '../accounts/keys.ts';\nexport const x = ApiKeyService;\n",
    ],
    ['src/store/x.ts', "import { PLANS } from '../access/plans.ts';\nexport const x = PLANS;\n"],
    [
      'src/store/sub/x.ts',
      "import { NameService } from '../../names/service.ts';\nexport const x = NameService;\n",
    ],
    // The configuration reader imports no area.
    [
      'src/config.ts',
      "import { API_BUCKETS } from './access/api-limits.ts';\nexport const x = API_BUCKETS;\n",
    ],
    [
      'src/config.ts',
      "import { SUBGRAPH_NAMES } from '../subgraphs/shared/subgraph.ts';\nexport const x = SUBGRAPH_NAMES;\n",
    ],
    ['src/config.ts', "import { DEMO_NOTICE } from './demo/dataset.ts';\nexport const x = DEMO_NOTICE;\n"],
    ['src/config/x.ts', "import { PLANS } from '../access/plans.ts';\nexport const x = PLANS;\n"],
    [
      'src/config/x.ts',
      "import { createServices } from '../services.ts';\nexport const x = createServices;\n",
    ],
    [
      'src/config/sub/x.ts',
      "import { ConfigError } from '../../names/errors.ts';\nexport const x = ConfigError;\n",
    ],
    // Nor does anything below start-up import one of its sections.
    ['src/rest/x.ts', config('../config/server.ts')],
    ['router/x.ts', config('../src/config/access.ts')],
    ['src/access/x.ts', config('../config/access.ts')],
    ['src/tracing-config.ts', "import { withSpan } from './start/tracing.ts';\nexport const x = withSpan;\n"],
  ])('%s: a forbidden import is an error', async (file, code) => {
    expect((await refusals(file, code)).length).toBeGreaterThan(0);
  });

  it.each([
    ['src/start/x.ts', "import type { AppConfig } from '../config.ts';\nexport type X = AppConfig;\n"],
    ['src/cli/x.ts', config('../config.ts')],
    ['src/start/x.ts', config('../config/server.ts')],
    [
      'src/start/x.ts',
      "import { createDemoSource } from '../demo/live.ts';\nexport const x = createDemoSource;\n",
    ],
    ['src/cli/x.ts', demo('../demo/venues.ts')],
    ['src/demo/x.ts', "import { mulberry32 } from './random.ts';\nexport const x = mulberry32;\n"],
    ['src/store/x.ts', "import type { Bar } from '../engine/types.ts';\nexport type X = Bar;\n"],
    [
      'src/store/x.ts',
      "import type { MiningRecord } from '../ingest/types.ts';\nexport type X = MiningRecord;\n",
    ],
    ['src/store/x.ts', "import { ASSETS } from '../catalog/assets.ts';\nexport const x = ASSETS;\n"],
    [
      'src/market/x.ts',
      "import { DEMO_VENUE_NAMES } from '../catalog/venues.ts';\nexport const x = DEMO_VENUE_NAMES;\n",
    ],
    [
      'src/config.ts',
      "import { PROJECT_ROOT } from './core/project-root.ts';\nexport const x = PROJECT_ROOT;\n",
    ],
    ['src/config.ts', "import { ConfigError } from './config-error.ts';\nexport const x = ConfigError;\n"],
    // The reader's sections, named as the areas they configure.
    [
      'src/config.ts',
      "import { accessSection } from './config/access.ts';\nexport const x = accessSection;\n",
    ],
    ['src/config/x.ts', "import { int } from './read.ts';\nexport const x = int;\n"],
    ['src/config/x.ts', "import { ConfigError } from '../config-error.ts';\nexport const x = ConfigError;\n"],
    [
      'src/tracing-config.ts',
      "import { ConfigError } from './config-error.ts';\nexport const x = ConfigError;\n",
    ],
  ])('%s: an import along the layers passes', async (file, code) => {
    expect(await refusals(file, code)).toEqual([]);
  });

  const envReads = async (filePath: string, code: string): Promise<string[]> => {
    const [result] = await eslint.lintText(code, { filePath });
    return (result?.messages ?? [])
      .filter((m) => m.ruleId === 'no-restricted-properties')
      .map((m) => m.message);
  };
  const env = "export const x = process.env['ROUTER_PLANNER'];\n";

  it.each([
    'router/x.ts',
    'src/rest/x.ts',
    'src/server/home/x.ts',
    'src/market/x.ts',
    'subgraphs/markets/x.ts',
    'src/config/x.ts',
  ])('%s: reading the environment is an error (one reader: src/config.ts)', async (file) => {
    expect(await envReads(file, env)).toEqual([
      expect.stringContaining('only src/config.ts reads the environment'),
    ]);
  });

  it.each(['src/config.ts', 'src/start/x.ts', 'src/cli/x.ts'])(
    '%s: reading the environment passes',
    async (file) => {
      expect(await envReads(file, env)).toEqual([]);
    },
  );
});
