/**
 * A standard GraphQL client against the router: graphql-request with the typed documents codegen'd from
 * clients/graph/operations/ (the client preset over schema/api.graphql, `npm run codegen`), over real HTTP to the
 * embedded router listening on a port. A dapp's journey (`client-journey.ts`): the markets list and a coin's chart
 * in a currency, the signed proof of reserves, signing in over REST, an API key requested through the graph, a name
 * registered, linked and resolved, and the errors a client meets.
 *
 * The journey runs twice over the same graph (one store): with the documents' query text against the harness's
 * router in its default mode, then by persisted document id only (`{ documentId, variables }`, no query text)
 * against a second router started with the generated persisted-documents.json in safelist mode, which refuses any
 * other operation.
 */
import { readFileSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import { fileURLToPath } from 'node:url';
import Fastify from 'fastify';
import type { FastifyInstance } from 'fastify';
import { buildClientSchema, getIntrospectionQuery, Kind, parse, printSchema } from 'graphql';
import type { IntrospectionQuery } from 'graphql';
import { GraphQLClient } from 'graphql-request';
import type { RequestMiddleware } from 'graphql-request';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import * as ops from '../../clients/graph/generated/graphql.ts';
import type { ProofOfReservesQuery } from '../../clients/graph/generated/graphql.ts';
import { mountRouter } from '../../router/http.ts';
import { createRouter } from '../../router/index.ts';
import type { Router } from '../../router/index.ts';
import { loadDeployment } from '../../src/bridge/deployment.ts';
import { createSubgraphs } from '../../src/start/graph.ts';
import { engineConfig } from '../../src/start/wiring.ts';
import { ADMIN_TOKEN, DOMAIN } from '../accounts/harness.ts';
import { failure, journey } from './client-journey.ts';
import type { Served } from './client-journey.ts';
import { graphHarness } from './router-harness.ts';
import type { GraphHarness } from './router-harness.ts';
import { createServices } from '../../src/services.ts';

const MANIFEST_FILE = fileURLToPath(
  new URL('../../clients/graph/generated/persisted-documents.json', import.meta.url),
);
const API_SCHEMA_FILE = fileURLToPath(new URL('../../schema/api.graphql', import.meta.url));
/** The generated manifest: `sha256:<hex of body>` → operation body. */
const manifest = JSON.parse(readFileSync(MANIFEST_FILE, 'utf8')) as Record<string, string>;

/** Operation name → persisted document id, read from the manifest (what a persisted-only client ships). */
const documentIds = new Map<string, string>();
for (const [id, body] of Object.entries(manifest))
  for (const d of parse(body).definitions)
    if (d.kind === Kind.OPERATION_DEFINITION && d.name) documentIds.set(d.name.value, id);

/** A request middleware that sends `{ documentId, operationName, variables }` in place of the query text. */
function byDocumentId(sent: Record<string, unknown>[]): RequestMiddleware {
  return (request) => {
    const { operationName, variables } = JSON.parse(String(request.body)) as {
      operationName?: string;
      variables?: Record<string, unknown>;
    };
    const documentId = operationName === undefined ? undefined : documentIds.get(operationName);
    if (!documentId) throw new Error(`no persisted document for operation ${operationName}`);
    const body = { documentId, operationName, variables };
    sent.push(body);
    return { ...request, body: JSON.stringify(body) };
  };
}
const listen = async (app: FastifyInstance): Promise<number> => {
  await app.listen({ port: 0, host: '127.0.0.1' });
  return (app.server.address() as AddressInfo).port;
};

/**
 * A second router over the harness's graph (same store, keys and budgets), started with the generated manifest in
 * safelist mode and mounted on its own Fastify instance, as `coinwallet serve` does with `PERSISTED_OPERATIONS`.
 */
async function safelistRouter(g: GraphHarness): Promise<{ app: FastifyInstance; router: Router }> {
  const router = await createRouter({
    access: g.access,
    persisted: { manifest: MANIFEST_FILE, mode: 'safelist' },
    subgraphs: {
      kind: 'in-process',
      subgraphs: createSubgraphs({
        market: g.tm.market,
        engine: engineConfig({ staleAfterMs: 900_000 }),
        adminToken: ADMIN_TOKEN,
        services: createServices(
          g.tm.db,
          {
            domain: DOMAIN,
            nameSuffix: 'coin',
            nameNetwork: 'mainnet',
            bridge: { deployment: loadDeployment('testnet'), staleAfterMs: 3_600_000 },
          },
          { keys: g.rest.keys },
        ),
      }),
    },
  });
  const app = Fastify();
  await mountRouter(app, router);
  return { app, router };
}
describe('graphql-request with the codegen typed documents', () => {
  let g: GraphHarness;
  let second: { app: FastifyInstance; router: Router } | undefined;
  let text: Served;
  let persisted: Served;
  const sentByDocumentId: Record<string, unknown>[] = [];

  beforeAll(async () => {
    g = await graphHarness();
    second = await safelistRouter(g);
    // Sessions are checked by the graph at the real time: issue them at the real time too.
    g.rest.clock.now = Date.now();
    const restUrl = `http://127.0.0.1:${await listen(g.rest.app)}`;
    text = { g, restUrl, graphqlUrl: `http://127.0.0.1:${await listen(g.app)}/graphql` };
    persisted = { g, restUrl, graphqlUrl: `http://127.0.0.1:${await listen(second.app)}/graphql` };
  }, 180_000);
  afterAll(async () => {
    await second?.app.close();
    await second?.router.stop();
    await g?.close();
  });

  it('has one manifest entry per operation, keyed by the hash the typed documents carry', () => {
    const hashes = Object.values(ops)
      .map((d) => (d as { __meta__?: { hash?: string } }).__meta__?.hash)
      .filter((h): h is string => h !== undefined);
    expect(hashes.length).toBeGreaterThanOrEqual(10);
    expect(new Set(hashes)).toEqual(new Set(Object.keys(manifest)));
    expect(documentIds.size).toBe(hashes.length);
  });

  it('serves by introspection exactly the committed schema/api.graphql', async () => {
    const client = new GraphQLClient(text.graphqlUrl);
    const r = await client.request<IntrospectionQuery>(getIntrospectionQuery());
    const committed = readFileSync(API_SCHEMA_FILE, 'utf8').replace(/^(#.*\n)+\n/, '');
    expect(`${printSchema(buildClientSchema(r))}\n`).toBe(committed);
  });

  journey('with query text, router in default mode', async () => ({
    served: text,
    client: new GraphQLClient(text.graphqlUrl),
  }));

  journey('by persisted document id only, router in safelist mode', async () => ({
    served: persisted,
    client: new GraphQLClient(persisted.graphqlUrl, { requestMiddleware: byDocumentId(sentByDocumentId) }),
  }));

  describe('safelist mode', () => {
    it('sent no query text in the persisted journey', () => {
      expect(sentByDocumentId.length).toBeGreaterThan(15);
      for (const body of sentByDocumentId) {
        expect(Object.keys(body).sort()).toEqual(['documentId', 'operationName', 'variables']);
        expect(String(body['documentId'])).toMatch(/^sha256:[0-9a-f]{64}$/);
      }
    });

    it('refuses free-form queries, typed documents sent as text included', async () => {
      const client = new GraphQLClient(persisted.graphqlUrl);
      expect(await failure(client.request('{ currencies }'))).toEqual({
        status: 400,
        code: 'PERSISTED_QUERY_NOT_IN_LIST',
        path: undefined,
      });
      expect(await failure(client.request(ops.MarketsDocument, { first: 1 }))).toMatchObject({
        status: 400,
        code: 'PERSISTED_QUERY_NOT_IN_LIST',
      });
      expect(await failure(client.request<IntrospectionQuery>(getIntrospectionQuery()))).toMatchObject({
        code: 'PERSISTED_QUERY_NOT_IN_LIST',
      });
      // The manifest's own body, sent as text, is on the list.
      const body = manifest[documentIds.get('ProofOfReserves') ?? ''] ?? '';
      const r = await client.request<ProofOfReservesQuery>(body);
      expect(r.bridge.network).toBe('TESTNET');
    });

    it('runs a manifest document named by its bare hex in extensions.persistedQuery.sha256Hash (APQ-style clients)', async () => {
      const id = documentIds.get('ProofOfReserves') ?? '';
      const res = await fetch(persisted.graphqlUrl, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({
          extensions: { persistedQuery: { version: 1, sha256Hash: id.replace(/^sha256:/, '') } },
        }),
      });
      expect(res.status).toBe(200);
      const json = (await res.json()) as { data?: ProofOfReservesQuery };
      expect(json.data?.bridge.network).toBe('TESTNET');
    });
  });
});
