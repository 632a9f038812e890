/**
 * What every `coinwallet` command accepts: name, synopsis, summary and options (`args.ts` parses by them, `usage.ts`
 * prints them). Kept apart from the commands themselves, which `main.ts` loads only when one runs: `--help`,
 * `--version` and a command's `--help` load this file and the parser, nothing of the product but the plan table.
 */
import { PLANS } from '../access/plans.ts';
import {
  DEFAULT_API,
  DEFAULT_DEV_SEED,
  DEFAULT_EMULATOR_PORT,
  DEFAULT_LKY_BALANCE,
} from '../dapp-browser/defaults.ts';
import type { CommandSpec, OptionSpec } from './spec.ts';

/** The option of every command that talks to the running server (`keys`, `dapps`, `admin`). */
export const SERVER_OPTIONS: Readonly<Record<string, OptionSpec>> = {
  url: {
    type: 'string',
    value: 'URL',
    help: 'the running server (default COINWALLET_URL, else the server holding DATA_DIR)',
  },
};

/** Where the server and the operator token come from, for the help texts. */
export const SERVER_SUMMARY =
  'The server is --url, COINWALLET_URL, or the one holding DATA_DIR (its lock names its URL). The operator token\n' +
  'is ADMIN_TOKEN, else DATA_DIR/secrets/admin-token.';

/** Key states, as `keys` accepts them. */
export const KEY_STATUSES = ['pending', 'approved', 'rejected', 'revoked'];
/** `--plan` as the help and the usage errors spell it: `free|pro|enterprise`. */
export const PLAN_CHOICES = PLANS.join('|');

/** Dapp listing states, as `dapps list --status` accepts them. */
export const DAPP_STATUSES = ['submitted', 'approved', 'rejected', 'delisted'];

const LIMIT: OptionSpec = {
  type: 'string',
  value: 'N',
  help: 'requests per minute of an enterprise key, 1 to 10000',
};

const NOTES: OptionSpec = { type: 'string', value: 'TEXT', help: 'notes for the submitter (required)' };

export const SERVE: CommandSpec = {
  name: 'serve',
  synopsis: '[--only subgraph:<markets|identity|bridge|accounts>|router]',
  summary:
    'start the whole product (PORT, HOST, DATA_DIR, DATABASE_URL…), or with --only one part of the graph in its\n' +
    'own process (scale-out). Runs until SIGINT/SIGTERM.',
  options: {
    only: {
      type: 'string',
      value: 'PART',
      help: 'subgraph:markets, subgraph:identity, subgraph:bridge, subgraph:accounts or router (SUBGRAPH_URLS)',
    },
  },
};

export const INGEST: CommandSpec = {
  name: 'ingest',
  synopsis: '--replay FILE [FILE…] | --sources FILE',
  summary:
    'replay recorded snapshots (JSON lines, .jsonl or .jsonl.gz) into the store, or poll the sources of a sources\n' +
    'file once and ingest the result. The embedded store has one writer: stop a server on the same DATA_DIR first.',
  options: {
    replay: {
      type: 'string',
      value: 'FILE',
      help: 'a recording to replay (more files may follow as arguments)',
    },
    sources: {
      type: 'string',
      value: 'FILE',
      help: 'a sources file (docs/sources.md): poll each source once',
    },
  },
};

export const SOURCES: CommandSpec = {
  name: 'sources',
  synopsis: 'check [--file FILE]',
  summary: 'the live sources of a sources file (docs/sources.md)',
  options: {},
  subcommands: [
    {
      name: 'sources check',
      synopsis: '[--file FILE]',
      summary:
        "poll each source of the sources file once (and the bridge's chain data reads) and print a table;\n" +
        'exit 1 when any source fails',
      options: { file: { type: 'string', value: 'FILE', help: 'the sources file (default SOURCES_FILE)' } },
    },
  ],
};

export const DEMO_DATA: CommandSpec = {
  name: 'demo-data',
  synopsis: '[--seed N] [--days N] [--end MS] [--out DIR] [--load]',
  summary:
    'generate the seeded demo dataset (recording.jsonl.gz + manifest.json) into --out, or with --load into an\n' +
    'empty store, as serve does on first start (docs/demo-data.md).',
  options: {
    seed: { type: 'string', value: 'N', help: 'generator seed (default DEMO_SEED, 20261121)' },
    days: { type: 'string', value: 'N', help: 'days of history, 3 to 3650 (default DEMO_DAYS, 420)' },
    end: { type: 'string', value: 'MS', help: 'last instant, Unix milliseconds (default now)' },
    out: { type: 'string', value: 'DIR', help: 'where to write the dataset (default DATA_DIR/demo)' },
    load: { type: 'boolean', help: 'load it into the store (only when the store holds no dataset)' },
  },
};

export const KEYS: CommandSpec = {
  name: 'keys',
  synopsis: '<create|list|approve|reject|revoke> …',
  summary:
    'API keys, through the running server; when no server holds the embedded store, on the store itself (with\n' +
    `DATABASE_URL: on the PostgreSQL store). ${SERVER_SUMMARY}`,
  options: SERVER_OPTIONS,
  subcommands: [
    {
      name: 'keys create',
      synopsis: `--plan ${PLAN_CHOICES} [--limit N] [--approve] [--description TEXT]`,
      summary: 'create an API key (printed once, kept only as a hash); --limit: enterprise per-minute limit',
      options: {
        plan: {
          type: 'string',
          value: 'PLAN',
          help: `${PLANS.slice(0, -1).join(', ')} or ${PLANS.at(-1)} (required)`,
        },
        limit: LIMIT,
        approve: { type: 'boolean', help: 'create it approved (default: pending)' },
        description: { type: 'string', value: 'TEXT', help: 'what the key is for' },
      },
    },
    {
      name: 'keys list',
      synopsis: '[--status pending|approved|rejected|revoked]',
      summary: 'list keys (any owner), newest first',
      options: {
        status: { type: 'string', value: 'S', help: `only keys in this state: ${KEY_STATUSES.join(', ')}` },
      },
    },
    {
      name: 'keys approve',
      synopsis: '<id> [--limit N]',
      summary: 'approve a pending key',
      options: { limit: LIMIT },
    },
    {
      name: 'keys reject',
      synopsis: '<id> --reason TEXT',
      summary: 'reject a pending key; the owner sees the reason',
      options: { reason: { type: 'string', value: 'TEXT', help: 'why (required; the owner sees it)' } },
    },
    {
      name: 'keys revoke',
      synopsis: '<id>',
      summary: 'revoke a key: 401 from the next request on, in every process',
      options: {},
    },
  ],
};

export const DAPPS: CommandSpec = {
  name: 'dapps',
  synopsis: '<list|approve|reject|delist> …',
  summary: `dapp listing requests, reviewed through the running server. ${SERVER_SUMMARY}`,
  options: SERVER_OPTIONS,
  subcommands: [
    {
      name: 'dapps list',
      synopsis: '[--status submitted|approved|rejected|delisted]',
      summary: 'list dapp requests',
      options: {
        status: { type: 'string', value: 'S', help: `only this state: ${DAPP_STATUSES.join(', ')}` },
      },
    },
    {
      name: 'dapps approve',
      synopsis: '<id> [--notes TEXT]',
      summary: 'approve a submitted dapp: the dapp store lists it',
      options: { notes: { type: 'string', value: 'TEXT', help: 'notes for the submitter' } },
    },
    {
      name: 'dapps reject',
      synopsis: '<id> --notes TEXT',
      summary: 'refuse a submitted dapp; the submitter sees the notes',
      options: { notes: NOTES },
    },
    {
      name: 'dapps delist',
      synopsis: '<id> --notes TEXT',
      summary: 'take a listed dapp down; the submitter sees the notes',
      options: { notes: NOTES },
    },
  ],
};

const APP_OPTIONS: Readonly<Record<string, OptionSpec>> = {
  app: { type: 'string', value: 'NAME', help: 'the app, by the name it was created with (required)' },
  version: { type: 'string', value: 'V', help: 'the version, e.g. 1.4.0 or a commit hash (required)' },
  token: {
    type: 'string',
    value: 'TOKEN',
    help: "the app's publish token (default COINWALLET_PUBLISH_TOKEN; prefer the variable in CI)",
  },
};

export const APPS: CommandSpec = {
  name: 'apps',
  synopsis: '<publish|activate> …',
  summary:
    "an app's trusted documents (docs/apps.md), through the running server with the app's publish token.\n" +
    'The server is --url, COINWALLET_URL, or the one holding DATA_DIR.',
  options: SERVER_OPTIONS,
  subcommands: [
    {
      name: 'apps publish',
      synopsis: '--app NAME --version V [--activate] FILE',
      summary:
        "publish FILE (the client preset's persisted-documents.json, or an Apollo persisted query manifest) as a\n" +
        'new version; --activate: its documents run on the trusted-only keys at once',
      options: { ...APP_OPTIONS, activate: { type: 'boolean', help: 'make the version active' } },
    },
    {
      name: 'apps activate',
      synopsis: '--app NAME --version V',
      summary: 'make a published version active',
      options: APP_OPTIONS,
    },
  ],
};

export const SCHEMA: CommandSpec = {
  name: 'schema',
  synopsis: 'check [--schema FILE] [--json]',
  summary:
    "the API schema's changes against the apps' published documents (docs/apps.md, Schema checks), through the\n" +
    `running server, or on the store itself when nobody holds it. ${SERVER_SUMMARY}`,
  options: SERVER_OPTIONS,
  subcommands: [
    {
      name: 'schema check',
      synopsis: '[--schema FILE] [--json] [--token TOKEN]',
      summary:
        'compare FILE with the schema the server serves: its breaking changes, each with the published documents\n' +
        'it breaks, in use or not (30 days). Exit 1 when a document in use breaks, 0 otherwise, 2 for bad usage or\n' +
        'an unreadable or invalid FILE',
      options: {
        schema: {
          type: 'string',
          value: 'FILE',
          help: 'the proposed schema (default schema/api.graphql of the working directory)',
        },
        json: { type: 'boolean', help: 'print the report as JSON' },
        token: {
          type: 'string',
          value: 'TOKEN',
          help: "an app's publish token: check that app's documents only (default COINWALLET_PUBLISH_TOKEN)",
        },
      },
    },
  ],
};

export const ADMIN: CommandSpec = {
  name: 'admin',
  synopsis: 'grant <LTC address>',
  summary: `administrators, through the running server. ${SERVER_SUMMARY}`,
  options: SERVER_OPTIONS,
  subcommands: [
    {
      name: 'admin grant',
      synopsis: '<LTC address>',
      summary: 'give a wallet account the administrator role (the account is created if new)',
      options: {},
    },
  ],
};

export const BRIDGE: CommandSpec = {
  name: 'bridge',
  synopsis: 'snapshot [--network testnet|mainnet] [--recorded DIR]',
  summary: "the bridge's proof of reserves (docs/bridge.md)",
  options: {},
  subcommands: [
    {
      name: 'bridge snapshot',
      synopsis: '[--network testnet|mainnet] [--recorded DIR]',
      summary:
        'sign a proof-of-reserves report from chain data and store it (embedded store: stop the server first)',
      options: {
        network: {
          type: 'string',
          value: 'NET',
          help: 'testnet or mainnet (default BRIDGE_NETWORK, testnet)',
        },
        recorded: {
          type: 'string',
          value: 'DIR',
          help: 'recorded chain data, DIR/<network>.json (default config/bridge/recorded)',
        },
      },
    },
  ],
};

export const SUPERGRAPH: CommandSpec = {
  name: 'supergraph',
  synopsis: '[--url markets=URL --url identity=URL --url bridge=URL --url accounts=URL]',
  summary:
    'print the committed supergraph (schema/supergraph.graphql) with the URLs where the subgraphs run, for a stock\n' +
    'gateway (Hive Gateway, Apollo Gateway, Apollo Router: docs/gateways.md). URLs not given by --url come from\n' +
    'SUBGRAPH_URLS.',
  options: {
    url: {
      type: 'string',
      value: 'NAME=URL',
      multiple: true,
      help: 'where a subgraph runs, e.g. markets=http://127.0.0.1:4001/graphql (once per subgraph)',
    },
  },
};

export const DAPP_BROWSER: CommandSpec = {
  name: 'dapp-browser',
  synopsis:
    '<dapp-url> [--port N] [--api URL] [--coins LTC,DOGE,LKY,SOL] [--seed TEXT] [--allow-unlisted]\n' +
    '[--identity-origin URL] [--sign-in-domain HOST[:PORT]] [--lky-balance N]',
  summary:
    'a local wallet host (emulator) for developing dapps: opens <dapp-url> in a page that plays the wallet\n' +
    '(docs/dapp-browser.md). Runs until SIGINT/SIGTERM.',
  options: {
    port: {
      type: 'string',
      value: 'N',
      help: `where the emulator listens (default ${DEFAULT_EMULATOR_PORT})`,
    },
    api: { type: 'string', value: 'URL', help: `the platform (default ${DEFAULT_API})` },
    coins: {
      type: 'string',
      value: 'LIST',
      help: 'the coins the development wallet holds (default LTC,DOGE,LKY,SOL)',
    },
    seed: {
      type: 'string',
      value: 'TEXT',
      help: `seed of the development keys (default "${DEFAULT_DEV_SEED}")`,
    },
    'allow-unlisted': { type: 'boolean', help: 'skip the dapp-store check (a dapp that is not listed yet)' },
    'identity-origin': {
      type: 'string',
      value: 'URL',
      help: 'the only origin allowed to call id_connect (default the --api origin)',
    },
    'sign-in-domain': {
      type: 'string',
      value: 'HOST',
      help: "the platform's SIGN_IN_DOMAIN, if it sets one (default the --api host and port)",
    },
    'lky-balance': {
      type: 'string',
      value: 'N',
      help: `the starting LKY balance in base units (default ${DEFAULT_LKY_BALANCE})`,
    },
  },
};

export const MCP: CommandSpec = {
  name: 'mcp',
  synopsis: '--url URL',
  summary:
    "the graph's MCP tools over stdio, for desktop agents (docs/mcp.md): a bridge to URL/mcp with the API key in\n" +
    'COINWALLET_API_KEY (without one, the tools of a keyless caller). Runs until its standard input closes.',
  options: {
    url: { type: 'string', value: 'URL', help: 'the server (default COINWALLET_URL)' },
  },
};
