import { parseCoins } from '../dapp-browser/dev-wallet.ts';
import {
  DEFAULT_API,
  DEFAULT_EMULATOR_PORT,
  DEFAULT_LKY_BALANCE,
  startDappBrowser,
} from '../dapp-browser/server.ts';
import type { Args } from './args.ts';
import { intFlag, UsageError } from './args.ts';
import type { Command } from './command.ts';
import { runCommand } from './command.ts';
import { DAPP_BROWSER } from './specs.ts';

const str = (v: string | boolean | undefined): string | undefined => (typeof v === 'string' ? v : undefined);

function httpUrl(v: string, flag: string): string {
  let u: URL;
  try {
    u = new URL(v);
  } catch {
    throw new UsageError(`${flag} must be an http(s) URL, got ${JSON.stringify(v)}`);
  }
  if (u.protocol !== 'http:' && u.protocol !== 'https:')
    throw new UsageError(`${flag} must be an http(s) URL`);
  return v;
}

/**
 * `coinwallet dapp-browser <dapp-url> …`: the local dapp-browser emulator (docs/dapp-browser.md). Runs until
 * SIGINT/SIGTERM.
 */
export const dappBrowser: Command = { spec: DAPP_BROWSER, run: (args) => runDappBrowser(args) };

export const dappBrowserCommand = (argv: readonly string[]): Promise<number> =>
  runCommand(dappBrowser, argv, () => {
    throw new Error('dapp-browser reads no configuration');
  });

async function runDappBrowser({ flags, positional }: Args): Promise<number> {
  const [dappUrl, ...extra] = positional;
  if (!dappUrl || extra.length) throw new UsageError('dapp-browser needs one <dapp-url>');
  const lky = str(flags['lky-balance']);
  if (lky !== undefined && !/^\d{1,30}$/.test(lky)) {
    throw new UsageError('--lky-balance must be a whole number of LKY base units (1 LKY = 100000000)');
  }
  let coins: string[] | undefined;
  try {
    coins = str(flags.coins) === undefined ? undefined : parseCoins(str(flags.coins) as string);
  } catch (e) {
    throw new UsageError(`--coins: ${(e as Error).message}`);
  }
  const signInDomain = str(flags['sign-in-domain']);
  if (signInDomain !== undefined && !/^[a-z0-9.-]+(:\d{1,5})?$/i.test(signInDomain)) {
    throw new UsageError(
      '--sign-in-domain must be a host name with an optional port, such as api.coinwallet.app',
    );
  }
  const identity = str(flags['identity-origin']);
  const seed = str(flags.seed);
  const running = await startDappBrowser({
    dappUrl: httpUrl(dappUrl, 'the dapp URL'),
    port: intFlag(flags.port, 'port', DEFAULT_EMULATOR_PORT, 0, 65535),
    api: httpUrl(str(flags.api) ?? DEFAULT_API, '--api'),
    ...(coins ? { coins } : {}),
    ...(seed !== undefined ? { seed } : {}),
    allowUnlisted: flags['allow-unlisted'] === true,
    ...(identity ? { identityOrigin: new URL(httpUrl(identity, '--identity-origin')).origin } : {}),
    ...(signInDomain ? { signInDomain } : {}),
    lkyBalance: lky === undefined ? DEFAULT_LKY_BALANCE : BigInt(lky),
  });
  const state = running.core.state();
  process.stderr.write(
    `coinwallet: dapp browser on ${running.url} (open it in a browser) for ${dappUrl}\n` +
      `  platform ${state.platform}${state.allowUnlisted ? ' (unlisted dapps allowed)' : ''}, identity origin ${
        state.identityOrigin
      }\n` +
      state.accounts.map((a) => `  ${a.ticker.padEnd(5)} ${a.address}\n`).join(''),
  );
  await new Promise<void>((resolve) => {
    process.once('SIGINT', resolve);
    process.once('SIGTERM', resolve);
  });
  await running.close();
  return 0;
}
