/**
 * What the landing page (`GET /`) says, as data: the product, its version, what data it serves, and where everything
 * is. Pure (given the product's package.json, read once): `route.ts` serves it as JSON, `html.ts` renders it.
 * Every link is root-relative and points inside the product.
 */
import { readFileSync } from 'node:fs';
import { projectPath } from '../../core/project-root.ts';
import { kitPackages, kitTarballPath } from '../browser/kit-packages.ts';
import { DOC_PAGES, docPath, GRAPH_SCHEMA_PATH } from '../docs/pages.ts';
import type { DocGroup } from '../docs/pages.ts';

export const PRODUCT_NAME = 'Coin Wallet developer platform';

/** The product's package.json `name` and `version`. */
export const PRODUCT_PACKAGE = JSON.parse(readFileSync(projectPath('package.json'), 'utf8')) as {
  name: string;
  version: string;
};

/** What is mounted on this server (the server's options). */
export interface HomeOptions {
  /** The price API's base path (`PRICE_BASE_PATH`, default `/v1/agg`). */
  priceBase: string;
  graph: boolean;
  accounts: boolean;
  names: boolean;
  bridge: boolean;
}

/** What can change while the server runs. */
export interface HomeState {
  dataset: { kind: 'demo' | 'live' | 'loading'; notice: string | null };
  /** The package directories whose build is there (`kit`, `kit-ltc`, …). */
  builtKits: ReadonlySet<string>;
  /** The origin the client reached us at (`http://127.0.0.1:4000`), for the install command; null when unknown. */
  origin: string | null;
}

export interface HomeApi {
  name: string;
  /** Where its endpoints are. */
  base: string;
  docs: string[];
}

export interface Home {
  product: string;
  version: string;
  dataset: 'demo' | 'live' | 'loading';
  notice: string | null;
  links: {
    portal: string;
    admin: string;
    priceApi: string;
    /** The price API's own OpenAPI document. */
    openapi: string;
    /** The OpenAPI document of every REST surface (`src/rest/openapi/`). */
    openapiAll: string;
    graphql: string | null;
    graphqlSchema: string | null;
    healthz: string;
    livez: string;
    readyz: string;
    provider: string;
    miningWidget: string;
  };
  apis: HomeApi[];
  docs: { title: string; href: string; group: DocGroup }[];
  kits: {
    /** The command that installs the complete kit from this server. */
    install: string;
    packages: { name: string; coin: string | null; ticker: string | null; href: string; built: boolean }[];
  };
}

const docs = (...files: string[]): string[] => files.map(docPath);

export function homeOf(o: HomeOptions, s: HomeState): Home {
  const apis: HomeApi[] = [
    {
      name: 'Price API (CoinGecko v3 compatible)',
      base: o.priceBase,
      docs: docs('price-api.md', 'plans-and-limits.md', 'methodology.md'),
    },
  ];
  if (o.graph)
    apis.push({
      name: 'The graph (GraphQL)',
      base: '/graphql',
      docs: docs('graph.md', 'query-cost.md', 'gateways.md'),
    });
  if (o.accounts)
    apis.push({
      name: 'Accounts, API keys and dapps',
      base: '/api',
      docs: docs('accounts.md', 'dapps.md', 'signatures.md'),
    });
  if (o.names) apis.push({ name: 'Names', base: '/api', docs: docs('names.md', 'chains.md') });
  if (o.bridge)
    apis.push({ name: 'Bridge (read) and proof of reserves', base: '/api', docs: docs('bridge.md') });
  const kits = kitPackages();
  return {
    product: PRODUCT_NAME,
    version: PRODUCT_PACKAGE.version,
    dataset: s.dataset.kind,
    notice: s.dataset.notice,
    links: {
      portal: '/portal',
      admin: '/admin',
      priceApi: o.priceBase,
      openapi: `${o.priceBase}/openapi.json`,
      openapiAll: '/openapi.json',
      graphql: o.graph ? '/graphql' : null,
      graphqlSchema: o.graph ? GRAPH_SCHEMA_PATH : null,
      healthz: '/healthz',
      livez: '/livez',
      readyz: '/readyz',
      provider: '/provider.js',
      miningWidget: '/widgets/mining-calculator.js',
    },
    apis,
    docs: DOC_PAGES.map((p) => ({ title: p.title, href: docPath(p.file), group: p.group })),
    kits: {
      install: `npm install ${s.origin ?? 'http://HOST:PORT'}${kitTarballPath('kit')}`,
      packages: kits.map((k) => ({
        name: k.name,
        coin: k.coin?.name ?? null,
        ticker: k.coin?.ticker ?? null,
        href: kitTarballPath(k.dir),
        built: s.builtKits.has(k.dir),
      })),
    },
  };
}
