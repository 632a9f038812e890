/// <reference lib="dom" />
/**
 * The sign-in form: the operator token (`ADMIN_TOKEN`), checked against the graph before it is kept; and, inside
 * Coin Wallet's dapp browser, the administrator's wallet (the portal's sign-in).
 */
import { useEffect, useRef, useState } from 'preact/hooks';
import type { JSX } from 'preact';
import type { Credential, WalletProvider } from './auth.ts';
import { checkAccess, findProvider, signInWithWallet, WALLET_STEPS, walletError } from './auth.ts';

export function SignIn(props: {
  notice: string | null;
  onSignedIn: (c: Credential, forbidden: string | null) => void;
}): JSX.Element {
  const [token, setToken] = useState('');
  const [problem, setProblem] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const [provider, setProvider] = useState<WalletProvider | null | undefined>(undefined);
  const [walletStep, setWalletStep] = useState<string | null>(null);
  const [walletProblem, setWalletProblem] = useState<string | null>(null);
  const input = useRef<HTMLInputElement>(null);

  useEffect(() => {
    void findProvider().then(setProvider);
  }, []);

  async function submit(e: Event) {
    e.preventDefault();
    const t = token.trim();
    if (t === '') {
      setProblem('Paste the operator token (ADMIN_TOKEN) to sign in.');
      input.current?.focus();
      return;
    }
    setBusy(true);
    setProblem(null);
    try {
      const c: Credential = { kind: 'operator', token: t };
      const access = await checkAccess(c);
      if (access.ok) props.onSignedIn(c, null);
      else if (access.forbidden) props.onSignedIn(c, access.message);
      else {
        setProblem(access.message);
        input.current?.focus();
      }
    } catch (err) {
      setProblem(String(err));
    } finally {
      setBusy(false);
    }
  }

  async function wallet() {
    if (!provider) return;
    setWalletProblem(null);
    try {
      const { credential } = await signInWithWallet(provider, (s) => setWalletStep(WALLET_STEPS[s]));
      setWalletStep(null);
      const access = await checkAccess(credential);
      if (access.ok) props.onSignedIn(credential, null);
      else if (access.forbidden) props.onSignedIn(credential, access.message);
      else setWalletProblem(access.message);
    } catch (err) {
      setWalletStep(null);
      setWalletProblem(walletError(err));
    }
  }

  return (
    <section aria-labelledby="signin-h" class="panel signin">
      <h2 id="signin-h">Sign in</h2>
      {props.notice && (
        <p role="alert" class="error">
          {props.notice}
        </p>
      )}
      <form onSubmit={(e) => void submit(e)} noValidate>
        <label for="operator-token">Operator token</label>
        <input
          id="operator-token"
          ref={input}
          type="password"
          autoComplete="off"
          spellcheck={false}
          value={token}
          onInput={(e) => setToken(e.currentTarget.value)}
          aria-invalid={problem ? 'true' : 'false'}
          aria-describedby={`operator-token-hint${problem ? ' operator-token-err' : ''}`}
          disabled={busy}
        />
        <p id="operator-token-hint" class="hint">
          The server's <code>ADMIN_TOKEN</code> (embedded mode writes one under <code>DATA_DIR</code>). It is
          kept in this tab only and sent to this server only.
        </p>
        {problem && (
          <p id="operator-token-err" class="field-error">
            {problem}
          </p>
        )}
        <button type="submit" disabled={busy}>
          {busy ? 'Checking…' : 'Sign in with the operator token'}
        </button>
      </form>
      <h3>Or with your wallet</h3>
      {provider === undefined && <p class="muted">Looking for Coin Wallet…</p>}
      {provider === null && (
        <p class="muted">
          Administrators sign in with their wallet inside Coin Wallet's dapp browser; this tab has no wallet.
        </p>
      )}
      {provider && (
        <>
          <button
            type="button"
            data-testid="wallet-sign-in"
            onClick={() => void wallet()}
            disabled={walletStep !== null}
          >
            Sign in with Coin Wallet
          </button>
          <p role="status" class="muted">
            {walletStep ?? ''}
          </p>
          {walletProblem && (
            <p role="alert" class="error" data-testid="wallet-error">
              {walletProblem}
            </p>
          )}
        </>
      )}
    </section>
  );
}
