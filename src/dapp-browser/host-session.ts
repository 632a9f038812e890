/**
 * Who may call what (docs/provider.md §4–§5): the origin check, the tickers `wallet_connect` asks for and what its
 * prompt shows, and the checks every chain method makes, in the documented order, before anything is signed.
 */
import { KIT_TICKERS_AND_SOL } from '../crypto/chains.ts';
import type { Method, Params } from '../provider/protocol.ts';
import { ERROR_CODES } from '../provider/protocol.ts';
import { chainSupports } from './capabilities.ts';
import type { Account, DevWallet } from './dev-wallet.ts';
import { err, invalid } from './host-errors.ts';

/** What a prompt shows the user: its title and the facts to decide on. */
export interface PromptText {
  title: string;
  details: { label: string; value: string }[];
}

/** An `http:` or `https:` origin, exactly (no path, no trailing slash). */
export function isOrigin(v: string): boolean {
  try {
    const u = new URL(v);
    return (u.protocol === 'http:' || u.protocol === 'https:') && u.origin === v;
  } catch {
    return false;
  }
}

/** The tickers of a `wallet_connect`, without duplicates, in the order asked. */
export function askedTickers(p: Params): string[] {
  const tickers = p.tickers;
  // Duplicates are ignored, so allow some; a longer list is not a mistake a dapp makes by accident.
  const max = KIT_TICKERS_AND_SOL.length * 2;
  if (!Array.isArray(tickers) || tickers.length === 0 || tickers.length > max) {
    throw invalid('INVALID_PARAMS', `wallet_connect needs { tickers: string[] } (1 to ${max} entries)`);
  }
  const asked: string[] = [];
  for (const t of tickers) {
    if (typeof t !== 'string' || !KIT_TICKERS_AND_SOL.includes(t)) {
      throw invalid(
        'UNKNOWN_TICKER',
        `unknown ticker ${JSON.stringify(t)}: use ${KIT_TICKERS_AND_SOL.join(', ')}`,
        { ticker: t },
      );
    }
    if (!asked.includes(t)) asked.push(t);
  }
  return asked;
}

/** The first `wallet_connect` of an origin: what it asks for and which accounts it would see. */
export function connectPrompt(origin: string, asked: readonly string[], wallet: DevWallet): PromptText {
  const shared = wallet.accounts(asked);
  const missing = asked.filter((t) => !wallet.has(t));
  return {
    title: `Connect ${origin}?`,
    details: [
      { label: 'Site', value: origin },
      { label: 'Asks for', value: asked.join(', ') },
      {
        label: 'Shares',
        value: shared.length ? shared.map((a) => `${a.ticker} ${a.address}`).join('\n') : 'no accounts',
      },
      ...(missing.length ? [{ label: 'No wallet for', value: missing.join(', ') }] : []),
    ],
  };
}

/** The tickers a connected origin asked for; an origin that never connected is refused. */
export function requireConnected(session: Set<string> | undefined): Set<string> {
  if (!session) throw err(ERROR_CODES.unauthorized, 'NOT_CONNECTED', 'call wallet_connect first');
  return session;
}

/** The account for `ticker` of a connected origin, after the chain checks (docs/provider.md §5 order). */
export function chainAccount(
  connected: Set<string>,
  wallet: DevWallet,
  method: Method,
  ticker: unknown,
): Account {
  if (typeof ticker !== 'string') throw invalid('INVALID_PARAMS', `${method} needs { ticker }`);
  if (!KIT_TICKERS_AND_SOL.includes(ticker)) {
    throw invalid('UNKNOWN_TICKER', `unknown ticker ${JSON.stringify(ticker)}`, { ticker });
  }
  if (!chainSupports(ticker, method)) {
    throw err(
      ERROR_CODES.unsupportedMethod,
      'UNSUPPORTED_FOR_CHAIN',
      `${method} is not supported for ${ticker}`,
      {
        ticker,
      },
    );
  }
  const account = wallet.account(ticker);
  if (!account) {
    throw err(ERROR_CODES.unsupportedMethod, 'NO_WALLET_FOR_CHAIN', `the user has no ${ticker} wallet`, {
      ticker,
    });
  }
  if (!connected.has(ticker)) {
    throw err(
      ERROR_CODES.chainDisconnected,
      'CHAIN_NOT_CONNECTED',
      `${ticker} was not part of wallet_connect: connect it first`,
      { ticker },
    );
  }
  return account;
}
