/// <reference lib="dom" />
/**
 * Signing in with Coin Wallet, for the portal and the admin dashboard (docs/provider.md, docs/accounts.md): find the provider `/provider.js` defines inside
 * the wallet's dapp browser, connect for LTC, ask the graph for a sign-in challenge, have the wallet sign it
 * (`id_signMessage`, an approval prompt) and exchange the signature for a session.
 */
import { gql } from './graph.ts';
import { WebRequestSignInChallengeDocument, WebSignInDocument } from '../generated/graphql.ts';
import type { WebSignInMutation } from '../generated/graphql.ts';

export interface WalletProvider {
  readonly isCoinWallet?: boolean;
  request(args: { method: string; params?: object }): Promise<unknown>;
}

/** `window.coinwallet` (not declared globally: other code types it differently). */
const current = (): WalletProvider | null => {
  const p = (window as unknown as { coinwallet?: WalletProvider }).coinwallet;
  return p && typeof p.request === 'function' ? p : null;
};

/**
 * The wallet provider, or null outside the wallet. In a top-level tab there is none at once; in a frame the
 * provider's handshake with the host takes up to a second, so wait for its ready event (or an announcement) a little
 * longer than that.
 */
export function findProvider(timeoutMs = 1600): Promise<WalletProvider | null> {
  const now = current();
  if (now) return Promise.resolve(now);
  if (window.parent === window) return Promise.resolve(null);
  return new Promise((resolve) => {
    const done = (p: WalletProvider | null) => {
      clearTimeout(timer);
      window.removeEventListener('coinwallet#initialized', onReady);
      window.removeEventListener('coinwallet:announceProvider', onAnnounce);
      resolve(p);
    };
    const onReady = () => done(current());
    const onAnnounce = (e: Event) => {
      const p = (e as CustomEvent<{ provider?: WalletProvider }>).detail?.provider;
      if (p && typeof p.request === 'function') done(p);
    };
    const timer = setTimeout(() => done(current()), timeoutMs);
    window.addEventListener('coinwallet#initialized', onReady);
    window.addEventListener('coinwallet:announceProvider', onAnnounce);
    window.dispatchEvent(new Event('coinwallet:requestProvider'));
  });
}

export type SignInStep = 'connect' | 'challenge' | 'sign' | 'session';

export const SIGN_IN_STEPS: Record<SignInStep, string> = {
  connect: 'Approve the connection in your wallet…',
  challenge: 'Asking the server for a sign-in message…',
  sign: 'Approve signing the sign-in message in your wallet (it sends nothing and costs no fee)…',
  session: 'Checking the signature…',
};

/** The whole sign-in; resolves with the new session. Wallet errors reject as the provider's `ProviderRpcError`. */
export async function signInWithWallet(
  provider: WalletProvider,
  step: (s: SignInStep) => void,
): Promise<WebSignInMutation['signIn']> {
  step('connect');
  const connected = (await provider.request({ method: 'wallet_connect', params: { tickers: ['LTC'] } })) as {
    accounts?: { ticker: string; address: string }[];
  };
  const ltc = connected.accounts?.find((a) => a.ticker === 'LTC');
  if (!ltc)
    throw Object.assign(new Error('no LTC account'), { code: 4200, data: { reason: 'NO_WALLET_FOR_CHAIN' } });
  step('challenge');
  const { requestSignInChallenge: c } = await gql(
    WebRequestSignInChallengeDocument,
    { address: ltc.address },
    { token: null },
  );
  step('sign');
  const signed = (await provider.request({ method: 'id_signMessage', params: { message: c.challenge } })) as {
    address: string;
    signature: string;
  };
  step('session');
  const { signIn } = await gql(
    WebSignInDocument,
    { address: c.address, signature: signed.signature, nonce: c.nonce },
    { token: null },
  );
  return signIn;
}
