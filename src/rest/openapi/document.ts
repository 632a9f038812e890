/**
 * The server's one OpenAPI 3.1 document: the price API's own document (made by @fastify/swagger from its route
 * schemas) under its base path, and the descriptions of the names, partners, accounts, admin, dapps, bridge and
 * operator endpoints (one file each here). It lists exactly what the server serves: an operation is
 * kept only when the server has its route, so a server without accounts has no accounts paths, and a description
 * never promises a route that is not there. Which routes are deliberately left out is written in docs/openapi.md;
 * `test/rest/openapi.test.ts` fails on any other route that is not in the document.
 */
import { accountPaths, accountSchemas } from './accounts.ts';
import { adminPaths } from './admin.ts';
import { bridgePaths, bridgeSchemas } from './bridge.ts';
import { API_SECURITY_SCHEMES, ERROR_COMPONENT, ERROR_SCHEMA } from './components.ts';
import type { Json, Paths } from './components.ts';
import { dappPaths, dappSchemas } from './dapps.ts';
import { namePaths, nameSchemas } from './names.ts';
import { documentPath, operatorPaths } from './operator.ts';
import { partnerPaths } from './partners.ts';

/** Where the combined document is served. */
export const OPENAPI_PATH = '/openapi.json';

export interface CombinedDocumentOptions {
  /** The product's version (package.json), the document's `info.version`. */
  version: string;
  /** The price API's base path (`PRICE_BASE_PATH`). */
  priceBase: string;
  /** The price API's own document (paths relative to `priceBase`); not modified. */
  price: Json;
  /** Whether the server has a route for `method` and `url` (Fastify's form: `/api/names/:name`). */
  serves: (method: string, url: string) => boolean;
}

/** The surfaces, for readers that group tags (Redoc's `x-tagGroups`), and what each tag holds. */
const TAGS: { group: string; tags: Record<string, string> }[] = [
  {
    group: 'Names',
    tags: {
      names: 'Name resolution (public) and a signed-in account’s names',
      partners: 'Names registered by partners for their users (HMAC-signed requests)',
    },
  },
  {
    group: 'Accounts',
    tags: {
      auth: 'Wallet sign-in and sessions',
      'api-keys': 'A signed-in account’s API keys',
      dapps: 'Dapp listing requests and the public dapp store',
    },
  },
  {
    group: 'Administration',
    tags: { admin: 'Administrators and the operator token: key and dapp review, roles, partner credentials' },
  },
  { group: 'Bridge', tags: { bridge: 'The active bridge deployment (read only) and its proof of reserves' } },
  {
    group: 'Operations',
    tags: { operator: 'Health and probes', meta: 'The OpenAPI documents' },
  },
];

const METHODS = ['get', 'put', 'post', 'delete', 'patch', 'head', 'options'] as const;

/** `/api/names/{name}` → `/api/names/:name`. */
export function fastifyPath(template: string): string {
  return template.replace(/\{([^}]+)\}/g, ':$1');
}

/** Builds the combined document (see the file's comment). */
export function combinedDocument(o: CombinedDocumentOptions): Json {
  const price = structuredClone(o.price) as {
    info?: Json;
    paths?: Paths;
    security?: Json[];
    tags?: { name: string }[];
    components?: { schemas?: Record<string, Json>; securitySchemes?: Record<string, Json> };
  };
  const base = o.priceBase === '/' ? '' : o.priceBase;
  const pricePaths: Paths = {};
  const priceTags = new Set<string>();
  for (const [path, item] of Object.entries(price.paths ?? {})) {
    const ops: Record<string, Json> = {};
    for (const [method, op] of Object.entries(item)) {
      // The price API's keys apply to its operations only (its document says so once, at the top).
      ops[method] = { ...op, security: op['security'] ?? price.security ?? [] };
      for (const t of (op['tags'] as string[] | undefined) ?? []) priceTags.add(t);
    }
    pricePaths[`${base}${path}`] = ops;
  }

  const all: Paths = {
    ...pricePaths,
    ...namePaths,
    ...partnerPaths,
    ...accountPaths,
    ...adminPaths,
    ...dappPaths,
    ...bridgePaths,
    ...operatorPaths,
    [OPENAPI_PATH]: documentPath('openapi', 'This document: every REST surface of this server'),
    [`${base}/openapi.json`]: documentPath(
      'priceOpenapi',
      'The price API’s own document (its paths under its base)',
    ),
  };
  const paths: Paths = {};
  for (const [path, item] of Object.entries(all)) {
    const served = Object.fromEntries(
      Object.entries(item).filter(([method]) => o.serves(method.toUpperCase(), fastifyPath(path))),
    );
    if (Object.keys(served).length > 0) paths[path] = served;
  }

  const schemas: Record<string, Json> = { [ERROR_COMPONENT]: ERROR_SCHEMA };
  for (const set of [
    price.components?.schemas ?? {},
    accountSchemas,
    dappSchemas,
    nameSchemas,
    bridgeSchemas,
  ]) {
    for (const [name, schema] of Object.entries(set)) {
      if (name !== ERROR_COMPONENT && name in schemas)
        throw new Error(`two OpenAPI schemas are named ${name}`);
      if (name !== ERROR_COMPONENT) schemas[name] = schema;
    }
  }

  const usedTags = new Set(
    Object.values(paths).flatMap((item) =>
      Object.values(item).flatMap((op) => (op['tags'] as string[]) ?? []),
    ),
  );
  const groups = [
    {
      group: 'Price API (CoinGecko v3 compatible)',
      tags: Object.fromEntries([...priceTags].map((t) => [t, ''])),
    },
    ...TAGS,
  ]
    .map((g) => ({ name: g.group, tags: Object.keys(g.tags).filter((t) => usedTags.has(t)) }))
    .filter((g) => g.tags.length > 0);
  const descriptions = Object.assign({}, ...TAGS.map((g) => g.tags)) as Record<string, string>;

  const doc: Json = {
    openapi: '3.1.0',
    info: {
      title: 'Coin Wallet developer platform',
      version: o.version,
      description:
        'Every REST surface of this server in one document: the price API (CoinGecko v3 compatible, under ' +
        `${o.priceBase}), name resolution and registration, accounts and API keys, the dapp store, administration, ` +
        'the bridge’s read endpoints and the health probes. Every error has one body, the ApiError schema. The ' +
        'graph (/graphql) is described by its own schema, /graphql/schema.graphql. See docs/openapi.md.',
    },
    servers: [{ url: '/' }],
    tags: groups.flatMap((g) =>
      g.tags.map((name) => (descriptions[name] ? { name, description: descriptions[name] } : { name })),
    ),
    'x-tagGroups': groups,
    paths,
    components: {
      schemas,
      securitySchemes: { ...(price.components?.securitySchemes ?? {}), ...API_SECURITY_SCHEMES },
    },
  };
  return prune(doc);
}

/** Drops the component schemas and security schemes no kept operation refers to (surfaces not served). */
function prune(doc: Json): Json {
  const components = doc['components'] as {
    schemas: Record<string, Json>;
    securitySchemes: Record<string, Json>;
  };
  const refs = new Set<string>();
  const usedSchemes = new Set<string>();
  const walk = (v: unknown): void => {
    if (Array.isArray(v)) return v.forEach(walk);
    if (v === null || typeof v !== 'object') return;
    for (const [k, x] of Object.entries(v)) {
      if (k === '$ref' && typeof x === 'string' && x.startsWith('#/components/schemas/')) {
        const name = x.slice('#/components/schemas/'.length);
        if (!refs.has(name)) {
          refs.add(name);
          walk(components.schemas[name]);
        }
      } else walk(x);
    }
  };
  const paths = doc['paths'] as Paths;
  walk(paths);
  for (const item of Object.values(paths))
    for (const m of METHODS)
      for (const req of (item[m]?.['security'] as Json[] | undefined) ?? [])
        for (const s of Object.keys(req)) usedSchemes.add(s);
  components.schemas = Object.fromEntries(Object.entries(components.schemas).filter(([n]) => refs.has(n)));
  components.securitySchemes = Object.fromEntries(
    Object.entries(components.securitySchemes).filter(([n]) => usedSchemes.has(n)),
  );
  return doc;
}
