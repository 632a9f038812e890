/**
 * The product's server with every REST surface mounted, for the OpenAPI tests: the test market (3 days of demo
 * history, in-memory PGlite), the accounts, names and bridge APIs over a second in-memory store (real services,
 * real signatures), and the probes of a real `ProcessRun` (`/livez`, `/readyz`), listening on loopback. Every route
 * the server registers is recorded as it is registered (an `onRoute` hook in the root scope before any route).
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Ajv2020 } from 'ajv/dist/2020.js';
import type { ValidateFunction } from 'ajv/dist/2020.js';
import formats from 'ajv-formats';
import type { FastifyInstance } from 'fastify';
import { ApiKeyService } from '../../src/accounts/keys.ts';
import { loadDeployment } from '../../src/bridge/deployment.ts';
import type { Deployment } from '../../src/bridge/model.ts';
import { createServices } from '../../src/services.ts';
import { ProcessRun } from '../../src/start/process.ts';
import type { Db } from '../../src/store/db.ts';
import { openMemoryDb } from '../support/memory-db.ts';
import { createTestMarket, TEST_NOW } from '../support/price-app.ts';
import type { TestMarket } from '../support/price-app.ts';

export const ADMIN_TOKEN = 'cwa_openapi-test-operator-token-0123';
export const DOMAIN = 'openapi.test:4000';

export interface RegisteredRoute {
  method: string;
  url: string;
}

export interface OpenapiServer {
  tm: TestMarket;
  app: FastifyInstance;
  /** `http://127.0.0.1:<port>` */
  url: string;
  /** The store of the accounts, names and bridge APIs. */
  db: Db;
  deployment: Deployment;
  dataDir: string;
  /** The process's probes: `/readyz` answers 503 until {@link OpenapiServer.ready} is called. */
  ready(): Promise<void>;
  /** Every (method, URL) the server registered, HEAD included. */
  routes: RegisteredRoute[];
  close(): Promise<void>;
}

export async function openapiServer(): Promise<OpenapiServer> {
  const db = await openMemoryDb();
  const now = () => TEST_NOW;
  const dataDir = mkdtempSync(join(tmpdir(), 'cw-openapi-'));
  const deployment = loadDeployment('testnet');
  const routes: RegisteredRoute[] = [];
  const services = createServices(
    db,
    {
      domain: DOMAIN,
      nameSuffix: 'coin',
      nameNetwork: 'mainnet',
      now,
      bridge: { deployment, staleAfterMs: 3_600_000 },
    },
    { keys: new ApiKeyService(db, { pepper: 'openapi-test-pepper-0123456789', now }) },
  );
  const run = new ProcessRun({ logLevel: 'silent', host: '127.0.0.1', port: 0 }, {}, 'product');
  const tm = await createTestMarket({
    days: 3,
    server: {
      accounts: {
        keys: services.keys,
        ownKeys: services.ownKeys,
        accounts: services.accounts,
        adminToken: ADMIN_TOKEN,
        auth: services.auth,
        dapps: services.dapps,
      },
      names: { names: services.names, partners: services.partners },
      ...(services.bridge ? { bridge: { bridge: services.bridge } } : {}),
      beforeRoutes: (app) => {
        app.addHook('onRoute', (r) => {
          for (const method of [r.method].flat()) routes.push({ method, url: r.url });
        });
        run.instrument(app);
      },
    },
  });
  await tm.app.listen({ port: 0, host: '127.0.0.1' });
  const address = tm.app.server.address();
  const port = typeof address === 'object' && address ? address.port : 0;
  return {
    tm,
    app: tm.app,
    url: `http://127.0.0.1:${port}`,
    db,
    deployment,
    dataDir,
    ready: () => run.warmUp(async () => {}),
    routes,
    async close() {
      await tm.close();
      await db.close();
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

/** An OpenAPI document as the tests read it. */
export interface Doc {
  openapi: string;
  info: { title: string; version: string };
  servers?: { url: string }[];
  paths: Record<string, Record<string, Operation>>;
  components?: { schemas?: Record<string, unknown>; securitySchemes?: Record<string, unknown> };
}
export interface Operation {
  operationId?: string;
  tags?: string[];
  security?: Record<string, string[]>[];
  parameters?: { name: string; in: string; required?: boolean }[];
  requestBody?: { required?: boolean; content: Record<string, { schema: unknown }> };
  responses: Record<string, { description: string; content?: Record<string, { schema?: unknown }> }>;
}

/** Deep copy of `schema` with `#/components/schemas/X` references pointed at the `components` schema. */
export function relink(schema: unknown): unknown {
  if (Array.isArray(schema)) return schema.map(relink);
  if (schema === null || typeof schema !== 'object') return schema;
  return Object.fromEntries(
    Object.entries(schema).map(([k, v]) => [
      k,
      k === '$ref' && typeof v === 'string'
        ? v.replace('#/components/schemas/', 'components#/$defs/')
        : relink(v),
    ]),
  );
}

/**
 * Validators of a document's schemas: the response schema of an operation for a status, and its request body's.
 * Strict ajv (JSON Schema 2020-12, OpenAPI 3.1's dialect), so a misspelled keyword in a description fails here.
 */
export function schemasOf(doc: Doc): {
  ajv: Ajv2020;
  response(method: string, path: string, status: number): ValidateFunction | 'empty';
  request(method: string, path: string): ValidateFunction | null;
} {
  const ajv = new Ajv2020({ strict: true, allowUnionTypes: true, allErrors: true });
  formats.default(ajv); // a CommonJS module: under NodeNext its default import is module.exports
  ajv.addVocabulary(['example', 'discriminator', 'xml', 'externalDocs']);
  ajv.addSchema({ $id: 'components', $defs: relink(doc.components?.schemas ?? {}) });
  const compiled = new Map<string, ValidateFunction | 'empty'>();
  const op = (method: string, path: string): Operation => {
    const o = doc.paths[path]?.[method.toLowerCase()];
    if (!o) throw new Error(`the document has no ${method} ${path}`);
    return o;
  };
  return {
    ajv,
    response(method, path, status) {
      const key = `${method} ${path} ${status}`;
      let v = compiled.get(key);
      if (v) return v;
      const res = op(method, path).responses[String(status)];
      if (!res) throw new Error(`the document has no response ${status} for ${method} ${path}`);
      const schema = res.content?.['application/json']?.schema;
      v = schema === undefined ? 'empty' : ajv.compile(relink(schema) as object);
      compiled.set(key, v);
      return v;
    },
    request(method, path) {
      const schema = op(method, path).requestBody?.content['application/json']?.schema;
      return schema === undefined ? null : ajv.compile(relink(schema) as object);
    },
  };
}
