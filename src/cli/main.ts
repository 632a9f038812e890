import { ConfigError, loadConfig } from '../config.ts';
import { UsageError } from './args.ts';
import { demoDataCommand } from './demo-data.ts';
import { ingestCommand } from './ingest.ts';
import { keysCommand } from './keys.ts';
import { dappsCommand } from './dapps.ts';
import { adminCommand } from './admin.ts';
import { bridgeCommand } from './bridge.ts';
import { dappBrowserCommand } from './dapp-browser.ts';
import { serveCommand } from './serve.ts';
import { sourcesCommand } from './sources.ts';

export const USAGE = `coinwallet — the Coin Wallet developer platform

Usage:
  coinwallet serve                      start the whole product (PORT, HOST, DATA_DIR, DATABASE_URL…)
  coinwallet serve --only subgraph:<markets|identity|bridge|accounts>
                                        one subgraph on its own port (scale-out)
  coinwallet serve --only router        the GraphQL router over SUBGRAPH_URLS (scale-out)
  coinwallet ingest --replay FILE…      replay recorded snapshots (JSON lines, .jsonl or .jsonl.gz) into the store
  coinwallet ingest --sources FILE      poll the sources of a sources file once and ingest the result
  coinwallet sources check [--file FILE]
                                        poll each source of the sources file (default SOURCES_FILE) once and
                                        print a table; exit 1 when any source fails
  coinwallet demo-data [--seed N] [--days N] [--out DIR] [--load]
                                        generate the seeded demo dataset (and load it into the store)
  coinwallet keys create --plan free|pro|enterprise [--limit N] [--approve] [--description TEXT]
                                        create an API key (printed once); --limit: enterprise per-minute limit
  coinwallet keys revoke <id>           revoke a key: 401 from the next request on
  coinwallet keys approve <id> [--limit N] | reject <id> --reason TEXT | list [--status S]
  coinwallet dapps list [--status S] | approve <id> [--notes TEXT] | reject|delist <id> --notes TEXT
  coinwallet admin grant <LTC address>  give a wallet account the administrator role
                                        (keys, dapps and admin talk to the running server: --url, COINWALLET_URL
                                        or http://HOST:PORT, with ADMIN_TOKEN or DATA_DIR/secrets/admin-token)
  coinwallet bridge snapshot [--network testnet|mainnet] [--recorded DIR]
                                        sign a proof-of-reserves report from chain data (server stopped if embedded)
  coinwallet dapp-browser <dapp-url> [--port N] [--api URL] [--coins LTC,DOGE,LKY,SOL] [--seed TEXT]
      [--allow-unlisted] [--identity-origin URL] [--sign-in-domain HOST] [--lky-balance N]
                                        local wallet host (emulator) for developing dapps: docs/dapp-browser.md
  coinwallet help                       this text

Environment: see README.md (Configuration).`;

/** Runs the CLI; resolves to the process exit code. */
export async function main(argv: readonly string[]): Promise<number> {
  const [cmd, ...rest] = argv;
  try {
    switch (cmd) {
      case 'serve':
        return await serveCommand(loadConfig(), rest);
      case 'ingest':
        return await ingestCommand(loadConfig(), rest);
      case 'demo-data':
        return await demoDataCommand(loadConfig(), rest);
      case 'keys':
        return await keysCommand(loadConfig(), rest);
      case 'dapps':
        return await dappsCommand(loadConfig(), rest);
      case 'admin':
        return await adminCommand(loadConfig(), rest);
      case 'bridge':
        return await bridgeCommand(loadConfig(), rest);
      case 'sources':
        return await sourcesCommand(loadConfig(), rest);
      case 'dapp-browser':
        return await dappBrowserCommand(rest);
      case undefined:
      case 'help':
      case '--help':
      case '-h':
        process.stdout.write(USAGE + '\n');
        return cmd === undefined ? 2 : 0;
      default:
        throw new UsageError(`unknown command "${cmd}"`);
    }
  } catch (err) {
    if (err instanceof UsageError || err instanceof ConfigError) {
      process.stderr.write(`coinwallet: ${err.message}\n\n${USAGE}\n`);
      return 2;
    }
    process.stderr.write(`coinwallet: ${err instanceof Error ? err.message : String(err)}\n`);
    return 1;
  }
}
