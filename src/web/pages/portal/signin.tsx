/// <reference lib="dom" />
/**
 * The signed-out view: sign in with Coin Wallet inside its dapp browser; outside it, say so (no provider, no
 * sign-in: the portal holds no keys and asks for none).
 */
import type { JSX } from 'preact';
import { useEffect, useRef, useState } from 'preact/hooks';
import { GraphError } from '../../shared/graph.ts';
import { walletErrorMessage } from './logic.ts';
import { errorText } from './ui.tsx';
import type { SignInStep, WalletProvider } from '../../shared/wallet.ts';
import { SIGN_IN_STEPS, findProvider, signInWithWallet } from '../../shared/wallet.ts';

export interface SignedIn {
  token: string;
  address: string;
}

export function SignIn(props: { onSignedIn: (s: SignedIn) => void; notice: string | null }): JSX.Element {
  const [provider, setProvider] = useState<WalletProvider | null | undefined>(undefined);
  const [step, setStep] = useState<SignInStep | null>(null);
  const [error, setError] = useState<string | null>(null);
  const errorRef = useRef<HTMLParagraphElement>(null);

  useEffect(() => {
    let live = true;
    void findProvider().then((p) => {
      if (live) setProvider(p);
    });
    return () => {
      live = false;
    };
  }, []);

  useEffect(() => {
    if (error) errorRef.current?.focus();
  }, [error]);

  async function signIn() {
    if (!provider) return;
    setError(null);
    try {
      const s = await signInWithWallet(provider, setStep);
      setStep(null);
      props.onSignedIn({ token: s.token, address: s.account.address });
    } catch (e) {
      setStep(null);
      setError(e instanceof GraphError ? errorText(e) : walletErrorMessage(e));
    }
  }

  return (
    <section class="panel" aria-labelledby="signin-h">
      <h2 id="signin-h">Sign in</h2>
      <p>
        Sign in with your Coin Wallet to request API keys for the price, names and bridge APIs, and to submit
        your dapp for the Coin Wallet dapp store. Signing in signs a one-time message with your Litecoin
        address: it sends no transaction and costs no fee.
      </p>
      {props.notice ? <p class="note">{props.notice}</p> : null}
      {provider === undefined ? (
        <p class="muted" role="status">
          Looking for Coin Wallet…
        </p>
      ) : provider === null ? (
        <div class="note full" data-testid="no-provider" role="status">
          <p>
            <strong>Open this page inside Coin Wallet’s dapp browser to sign in.</strong> This is an ordinary
            browser tab: there is no wallet here to sign with.
          </p>
          <p class="muted">
            For local development, run{' '}
            <code>npx coinwallet dapp-browser {location.origin}/portal --allow-unlisted</code> and open the
            address it prints.
          </p>
        </div>
      ) : (
        <div class="actions">
          <button
            type="button"
            class="primary"
            data-testid="sign-in"
            disabled={step !== null}
            onClick={signIn}
          >
            Sign in with Coin Wallet
          </button>
        </div>
      )}
      <p class="muted status-line" role="status" aria-live="polite" data-testid="sign-in-step">
        {step ? SIGN_IN_STEPS[step] : ''}
      </p>
      {error ? (
        <p class="alert" role="alert" tabIndex={-1} ref={errorRef} data-testid="sign-in-error">
          {error}
        </p>
      ) : null}
    </section>
  );
}
