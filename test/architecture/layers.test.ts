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
