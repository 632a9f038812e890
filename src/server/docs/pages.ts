/**
 * The documentation the product serves itself at `/docs/<file>` (the repository's `docs/*.md`, as they are), so that
 * the landing page links only inside the product. A fixed list: a request names one of these files or gets a 404,
 * never a path on disk. `test/server/docs-route.test.ts` holds it against `docs/*.md`, so a new page is listed here.
 */
import { projectPath } from '../../core/project-root.ts';

/** What a page documents, for grouping on the landing page. */
export type DocGroup = 'apis' | 'browser' | 'operating';

export interface DocPage {
  /** The file name under `docs/` and under `/docs/`. */
  file: string;
  title: string;
  group: DocGroup;
}

export const DOC_GROUPS: Readonly<Record<DocGroup, string>> = {
  apis: 'The APIs',
  browser: 'Pages, kits and the wallet provider',
  operating: 'Running the product',
};

export const DOC_PAGES: readonly DocPage[] = [
  { file: 'price-api.md', title: 'Price API (CoinGecko v3 compatible)', group: 'apis' },
  { file: 'plans-and-limits.md', title: 'Plans, API keys and rate limits', group: 'apis' },
  { file: 'graph.md', title: 'The graph (GraphQL federation)', group: 'apis' },
  { file: 'query-cost.md', title: 'Query cost and limits of the graph', group: 'apis' },
  { file: 'gateways.md', title: 'Our subgraphs behind any gateway', group: 'apis' },
  { file: 'names.md', title: 'Names: resolution, registration, partners', group: 'apis' },
  { file: 'bridge.md', title: 'Bridge read API and proof of reserves', group: 'apis' },
  { file: 'accounts.md', title: 'Accounts: wallet sign-in, API keys, administrators', group: 'apis' },
  { file: 'dapps.md', title: 'Dapp listing requests and the dapp store', group: 'apis' },
  { file: 'apps.md', title: 'Apps: trusted documents and allowed origins per key', group: 'apis' },
  { file: 'signatures.md', title: 'Signed messages', group: 'apis' },
  { file: 'chains.md', title: 'Chain parameters and address validation', group: 'apis' },
  { file: 'openapi.md', title: 'OpenAPI documents of every REST API', group: 'apis' },
  { file: 'error-codes.md', title: 'Error codes: every code, its status and message', group: 'apis' },
  { file: 'conditional-requests.md', title: 'Conditional requests (ETag and 304)', group: 'apis' },
  { file: 'mcp.md', title: 'MCP: the graph as tools for agents', group: 'apis' },
  { file: 'kit.md', title: 'The kits', group: 'browser' },
  { file: 'provider.md', title: 'The wallet provider (/provider.js)', group: 'browser' },
  { file: 'portal.md', title: 'The developer portal (/portal)', group: 'browser' },
  { file: 'admin.md', title: 'The administrator dashboard (/admin)', group: 'browser' },
  { file: 'mining-widget.md', title: 'Mining calculator widget', group: 'browser' },
  { file: 'dapp-browser.md', title: 'The dapp-browser emulator', group: 'browser' },
  {
    file: 'operations.md',
    title: 'Operating a process: probes, shutdown, logs, metrics, traces',
    group: 'operating',
  },
  { file: 'deploy.md', title: 'Deploying at scale', group: 'operating' },
  { file: 'sources.md', title: 'Market data sources (live data)', group: 'operating' },
  { file: 'demo-data.md', title: 'Demo data', group: 'operating' },
  { file: 'methodology.md', title: 'Methodology: how every market figure is computed', group: 'operating' },
  { file: 'architecture.md', title: 'Architecture: the layers and where things go', group: 'operating' },
];

/** The URL of a documentation page: `/docs/price-api.md`. */
export const docPath = (file: string): string => `/docs/${file}`;

/** Where a listed page is on disk. */
export const docFile = (file: string): string => projectPath('docs', file);

/** The graph's public schema (what the router serves: `schema/api.graphql`), and where it is served. */
export const GRAPH_SCHEMA_FILE = projectPath('schema', 'api.graphql');
export const GRAPH_SCHEMA_PATH = '/graphql/schema.graphql';
