/**
 * The `subgraphs` role: one in-memory store (test market, 40 registered names, a bridge proof-of-reserves snapshot, API
 * keys), the four subgraphs each on its own port, and the embedded variants over the same store.
 */
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { createServer } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createGatewayRuntime } from '@graphql-hive/gateway-runtime';
import { unifiedGraphHandler } from '@graphql-hive/router-runtime';
import { createAccess } from '../../src/access/access.ts';
import { ApiKeyService } from '../../src/accounts/keys.ts';
import { createMemoryLimiter } from '../../src/access/limiter.ts';
import { AuthService } from '../../src/accounts/auth.ts';
import { loadDeployment } from '../../src/bridge/deployment.ts';
import { ensureDemoSnapshot } from '../../src/bridge/snapshots.ts';
import { createSubgraphs } from '../../src/start/graph.ts';
import type { GraphDeps } from '../../src/start/graph.ts';
import { upsertAddress } from '../../src/names/name-repo.ts';
import { NameService } from '../../src/names/service.ts';
import { engineConfig } from '../../src/start/wiring.ts';
import { sourcesTransport } from '../../router/engines/hive-sources.ts';
import { createSources } from '../../router/sources/create.ts';
import { createRouter, SUPERGRAPH_URL } from '../../router/index.ts';
import { mountRouter } from '../../router/http.ts';
import { mountSubgraph } from '../../subgraphs/shared/http.ts';
import type { SubgraphName } from '../../subgraphs/shared/subgraph.ts';
import { createTestMarket } from '../../test/support/price-app.ts';
import { wallet } from '../../test/names/harness.ts';
import { createServices } from '../../src/services.ts';
import type { Ready } from './config.ts';
import { DAYS, NAME_LABEL, NAME_LABELS, PEPPER } from './config.ts';
import { fastifyApp, listen, makeKeys } from './serving.ts';
import { safelist } from './workload.ts';
export async function serveSubgraphs(): Promise<Ready> {
  const tm = await createTestMarket({ days: DAYS });
  const db = tm.db;
  // The names, each with an LTC address of its own, registered by a signed-in account (as the names API does).
  const auth = new AuthService(db, { domain: 'bench.local' });
  const w = wallet('LTC');
  const c = await auth.challenge(w.address);
  const s = await auth.signIn(w.address, w.sign(c.challenge), c.nonce);
  const names = new NameService(db, { suffix: 'coin', network: 'mainnet' });
  for (const label of NAME_LABELS) {
    await names.register({ kind: 'account', account: s.account }, `${label}.coin`);
    await upsertAddress(
      db,
      label,
      'LTC',
      label === NAME_LABEL ? w.address : wallet('LTC').address,
      Date.now(),
    );
  }
  // The bridge's proof-of-reserves snapshot (demo chain data, a fresh attestation key).
  const deployment = loadDeployment('testnet');
  const dataDir = mkdtempSync(join(tmpdir(), 'cw-bench-graph-'));
  process.on('exit', () => rmSync(dataDir, { recursive: true, force: true }));
  const por = await ensureDemoSnapshot(db, deployment, dataDir);
  if (por.status === 'skipped') throw new Error(`no proof-of-reserves snapshot: ${por.reason}`);
  const keys = new ApiKeyService(db, { pepper: PEPPER });
  const raw = (await makeKeys(keys)).map((k) => k.key);

  const deps: GraphDeps = {
    market: tm.market,
    engine: engineConfig({ staleAfterMs: 900_000 }),
    adminToken: null,
    services: createServices(
      db,
      { domain: 'bench.local', nameSuffix: 'coin', nameNetwork: 'mainnet', bridge: { deployment } },
      { keys },
    ),
  };
  const urls = {} as Record<SubgraphName, string>;
  for (const sg of createSubgraphs(deps)) {
    const app = fastifyApp();
    await mountSubgraph(app, sg);
    urls[sg.name] = await listen(app);
  }
  // The embedded router over the same store, with subgraph objects of its own: Apollo Server wraps every field
  // resolver of a schema it serves (its cache-control plugin), which the embedded product's schemas never are.
  // Twice: as the product runs it (response cache on), and with the response cache off (every request executes).
  const embedded = async (responseCache: boolean): Promise<string> => {
    const router = await createRouter({
      access: createAccess({ keys, limiter: createMemoryLimiter() }),
      persisted: { manifest: safelist(), mode: 'safelist' },
      subgraphs: { kind: 'in-process', subgraphs: createSubgraphs(deps) },
      responseCache,
    });
    const app = fastifyApp();
    await mountRouter(app, router);
    return listen(app);
  };
  const hive = createGatewayRuntime({
    supergraph: readFileSync(SUPERGRAPH_URL, 'utf8'),
    unifiedGraphHandler,
    // Our in-process sources as the runtime's transport (`router/engines/hive-sources.ts`), nothing else of ours.
    transports: {
      inprocess: sourcesTransport(
        createSources({ kind: 'in-process', subgraphs: createSubgraphs(deps) }, 5_000, { warn() {} }, false),
      ),
    },
    transportEntries: { '*': { kind: 'inprocess' } },
    logging: false,
    landingPage: false,
    graphiql: false,
  });
  const hiveServer = createServer(hive);
  await new Promise<void>((resolve) => hiveServer.listen(0, '127.0.0.1', resolve));
  const hiveAddr = hiveServer.address() as { port: number };
  return {
    url: '',
    embedded: {
      embedded: await embedded(true),
      'embedded-uncached': await embedded(false),
      'hive-rust-embedded': `http://127.0.0.1:${hiveAddr.port}/graphql`,
    },
    keys: raw,
    urls,
  };
}
