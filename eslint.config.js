// @ts-check
import js from '@eslint/js';
import tseslint from 'typescript-eslint';

/** The domain's folders under `src/`: they know no transport. */
const DOMAIN = [
  'access',
  'accounts',
  'bridge',
  'catalog',
  'core',
  'crypto',
  'engine',
  'ingest',
  'market',
  'names',
  'store',
  'demo',
];
/** Packages that are a transport (HTTP server, GraphQL). */
const TRANSPORT_PACKAGES = '^(fastify|@fastify/|@apollo/|graphql($|/)|@graphql-|dataloader$)';
/** A relative import reaching into one of these folders (`../../rest/x.ts`, `../router/y.ts`). */
const folder = (...names) => `^\\.{1,2}/(?:.*/)?(?:${names.join('|')})(?:/|\\.ts$)`;
/**
 * What only start-up (`src/start`, `src/cli`) imports: the one reader of the environment (`src/config.ts`, its sections
 * in `src/config/` and its two helpers) and the demo generator (`src/demo`). Below start-up a part takes plain options.
 */
const START_UP_ONLY = [
  {
    regex: '^\\.{1,2}/(?:\\.\\./)*(?:src/)?(?:config(?:/[\\w-]+)?|config-error|tracing-config)\\.ts$',
    message: 'only start-up reads the configuration: it hands each part plain options (docs/architecture.md)',
  },
  {
    regex: folder('demo'),
    message: 'only start-up imports the demo generator (src/start/demo.ts; docs/architecture.md)',
  },
];
/** What the domain may not import: a transport, start-up, browser code, the configuration or the demo. */
const DOMAIN_PATTERNS = [
  { regex: TRANSPORT_PACKAGES, message: 'the domain imports no transport (docs/architecture.md)' },
  {
    regex: folder(
      'rest',
      'server',
      'start',
      'cli',
      'subgraphs',
      'router',
      'web',
      'kit',
      'provider',
      'dapp-browser',
    ),
    message: 'the domain imports no transport and no browser code (docs/architecture.md)',
  },
  ...START_UP_ONLY,
];
/**
 * The store keeps what the domain computes but knows none of it: it imports sources' records (`src/ingest`), the
 * catalog and `src/core`, and of the engine only its data types (`src/engine/types.ts`: `Bar`, `Resolution`).
 */
const STORE_PATTERN = {
  regex:
    '^\\.{1,2}/(?:.*/)?(?:(?:access|accounts|bridge|crypto|demo|market|names)(?:/|\\.ts$)|engine/(?!types\\.ts$))',
  message: 'the store imports no domain: the domain calls the store (docs/architecture.md)',
};
/**
 * Everything the configuration reader could import but core's basics and its own sections (`own`: the imports of a
 * section, which may share an area's name, from where the rule applies): it is a leaf.
 */
const configPattern = (own) => ({
  regex: `^(?!${own})${folder(
    ...DOMAIN.filter((d) => d !== 'core'),
    'rest',
    'server',
    'start',
    'cli',
    'subgraphs',
    'router',
    'web',
    'kit',
    'provider',
    'dapp-browser',
    'admin',
    'services',
  ).slice(1)}`,
  message:
    'the configuration reader imports no area: start-up maps its values onto each part (docs/architecture.md)',
});

/**
 * The transports (`src/rest`, `subgraphs`, `router`) receive services, never the store: no `db`, no repository, not
 * even a type of `src/store/`, without exception: a store that does not answer is the shared kernel's error
 * (`src/core/store-outage.ts`), which the store throws and a transport renders.
 */
const TRANSPORT_STORE = {
  regex: '^\\.{1,2}/(?:.*/)?store/',
  message:
    'a transport receives services, never the store: ask src/services.ts for a service (docs/architecture.md)',
};
/** The host (`src/server/host.ts` and what only it registers): start-up hands it REST and the graph to mount. */
const HOST_FILES = [
  'src/server/host.ts',
  'src/server/host/**',
  'src/server/every-response.ts',
  'src/server/json-body.ts',
];
/** An import of the host, from anywhere (`../server/host.ts`) or from beside it in `src/server` (`../host/x.ts`). */
const HOST_IMPORT = {
  regex:
    '^(?:\\.{1,2}/(?:.*/)?server/|\\./|(?:\\.\\./)+)(?:host(?:/|\\.ts$)|every-response\\.ts$|json-body\\.ts$)',
  message: "only start-up (src/start, src/cli, the emulator's start) imports the host (docs/architecture.md)",
};

export default tseslint.config(
  {
    ignores: [
      'node_modules/',
      'data/',
      'dist/',
      '.scratch/',
      'subgraphs/*/generated/',
      'clients/graph/generated/',
      'src/kit/generated/',
      'src/web/generated/',
      'examples/apps-dapp/generated/',
      'examples/apps-dapp/dist/',
    ],
  },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    languageOptions: { globals: { console: 'readonly', process: 'readonly' } },
    rules: {
      '@typescript-eslint/consistent-type-imports': 'error',
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
    },
  },
  // The product runs compiled from dist/, at another depth than its sources: a file outside the module graph is found
  // from the project root, never relative to the module.
  {
    files: ['{src,router,subgraphs}/**/*.ts'],
    ignores: ['src/core/project-root.ts', 'src/{web,kit,provider}/**'],
    rules: {
      'no-restricted-syntax': [
        'error',
        {
          selector: "MemberExpression[object.type='MetaProperty'][property.name=/^(url|dirname|filename)$/]",
          message: 'find files with projectPath() (src/core/project-root.ts): the build runs from dist/',
        },
      ],
    },
  },
  // Nothing imports the host but start-up, and only start-up reads the configuration and imports the demo. First of
  // the layer rules: the blocks below restate it for their files.
  {
    files: ['src/**/*.ts'],
    ignores: [...HOST_FILES, 'src/start/**', 'src/cli/**', 'src/dapp-browser/server.ts'],
    rules: { 'no-restricted-imports': ['error', { patterns: [HOST_IMPORT, ...START_UP_ONLY] }] },
  },
  {
    files: ['src/dapp-browser/server.ts'],
    rules: { 'no-restricted-imports': ['error', { patterns: START_UP_ONLY }] },
  },
  // The host imports neither REST nor the router: it is handed what it mounts.
  {
    files: HOST_FILES,
    rules: {
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            ...START_UP_ONLY,
            {
              regex: folder('rest', 'router', 'subgraphs', 'start', 'cli'),
              message:
                'the host imports neither REST nor the graph: start-up hands them to it (docs/architecture.md)',
            },
          ],
        },
      ],
    },
  },
  // The layers (docs/architecture.md): sources → stores → domain → (REST | subgraphs) → router. An import against
  // the direction fails `npm test` here.
  {
    files: [`src/{${DOMAIN.join(',')}}/**/*.ts`],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          patterns: DOMAIN_PATTERNS,
        },
      ],
    },
  },
  {
    // The request gate sits below the accounts domain: accounts manage keys and call the gate, never the reverse.
    files: ['src/access/**/*.ts'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            ...DOMAIN_PATTERNS,
            {
              regex: folder('accounts'),
              message: 'the request gate (src/access) is below the accounts domain (docs/architecture.md)',
            },
          ],
        },
      ],
    },
  },
  {
    files: ['src/store/**/*.ts'],
    rules: { 'no-restricted-imports': ['error', { patterns: [...DOMAIN_PATTERNS, STORE_PATTERN] }] },
  },
  {
    files: ['src/config.ts', 'src/config-error.ts', 'src/tracing-config.ts'],
    rules: { 'no-restricted-imports': ['error', { patterns: [configPattern('\\./config/[\\w-]+\\.ts$')] }] },
  },
  {
    files: ['src/config/**/*.ts'],
    rules: { 'no-restricted-imports': ['error', { patterns: [configPattern('\\./[\\w-]+\\.ts$')] }] },
  },
  {
    files: ['src/rest/**/*.ts'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            ...START_UP_ONLY,
            TRANSPORT_STORE,
            {
              regex: folder('subgraphs', 'router', 'start', 'cli'),
              message: 'REST and the subgraphs are siblings over the domain (docs/architecture.md)',
            },
            { regex: '^(@apollo/|graphql($|/))', message: 'REST serves no GraphQL: the subgraphs do' },
            {
              regex: folder('server'),
              message: 'REST and the graph are mounted side by side by the host: REST imports no src/server',
            },
          ],
        },
      ],
    },
  },
  {
    files: ['subgraphs/**/*.ts'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            ...START_UP_ONLY,
            TRANSPORT_STORE,
            {
              regex: folder('rest', 'server', 'router', 'start', 'cli'),
              message:
                'the subgraphs and REST are siblings over the domain; the router is above them (docs/architecture.md)',
            },
          ],
        },
      ],
    },
  },
  {
    files: ['router/**/*.ts'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            ...START_UP_ONLY,
            TRANSPORT_STORE,
            {
              regex: folder('rest', 'server', 'start', 'cli'),
              message:
                'the router sits on the subgraphs and the access layer, beside REST (docs/architecture.md)',
            },
          ],
        },
      ],
    },
  },
  {
    files: ['src/{web,kit,provider}/**/*.{ts,tsx}'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            ...START_UP_ONLY,
            {
              regex: '^node:',
              message: 'browser code runs in a browser: no Node modules (docs/architecture.md)',
            },
            {
              regex: folder(
                ...DOMAIN,
                'rest',
                'server',
                'start',
                'subgraphs',
                'router',
                'cli',
                'admin',
                'dapp-browser',
              ),
              message: 'browser code imports no server folder (docs/architecture.md)',
            },
            {
              regex: '^(fastify|@fastify/|esbuild|pg|@electric-sql/)',
              message: 'browser code imports no server package',
            },
          ],
        },
      ],
    },
  },
  // One reader of the environment (src/config.ts, with src/tracing-config.ts); start-up and the command line hand on
  // what it read.
  {
    files: ['{src,router,subgraphs}/**/*.{ts,tsx}'],
    ignores: ['src/config.ts', 'src/tracing-config.ts', 'src/start/**', 'src/cli/**'],
    rules: {
      'no-restricted-properties': [
        'error',
        {
          object: 'process',
          property: 'env',
          message:
            'only src/config.ts reads the environment; take the value as an option (docs/architecture.md)',
        },
      ],
    },
  },
);
