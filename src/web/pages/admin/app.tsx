/// <reference lib="dom" />
/**
 * The administrator dashboard (`/admin`): sign-in (operator token or an administrator's wallet), then three
 * sections — the review queues, service health, and the market view. A signed-in account that is not an
 * administrator sees "administrators only" (the graph's FORBIDDEN) and nothing else. One status line (`aria-live`)
 * reports what each action did.
 */
import { useEffect, useMemo, useState } from 'preact/hooks';
import type { JSX } from 'preact';
import type { Api } from './api.ts';
import { createApi } from './api.ts';
import type { Credential } from './auth.ts';
import { checkAccess, credentialStore, signOutOf } from './auth.ts';
import { Health } from './health.tsx';
import { shortAddress } from './logic.ts';
import { Market } from './market.tsx';
import { Queues } from './queues.tsx';
import { SignIn } from './signin.tsx';
import { STYLES } from './styles.ts';

type Phase =
  | { kind: 'checking' }
  | { kind: 'signin'; notice: string | null }
  | { kind: 'forbidden'; message: string }
  | { kind: 'ready' };

export function App(): JSX.Element {
  const [cred, setCred] = useState<Credential | null>(() => credentialStore.get());
  const [phase, setPhase] = useState<Phase>(() =>
    cred ? { kind: 'checking' } : { kind: 'signin', notice: null },
  );
  const [status, setStatus] = useState('');

  useEffect(() => {
    if (!cred) return;
    void checkAccess(cred).then(
      (a) => {
        if (a.ok) setPhase({ kind: 'ready' });
        else if (a.forbidden) setPhase({ kind: 'forbidden', message: a.message });
        else signOut(a.message);
      },
      (e: unknown) => signOut(String(e)),
    );
  }, []);

  function signedIn(c: Credential, forbidden: string | null) {
    credentialStore.set(c);
    setCred(c);
    if (forbidden) setPhase({ kind: 'forbidden', message: forbidden });
    else {
      setPhase({ kind: 'ready' });
      setStatus(c.kind === 'operator' ? 'Signed in with the operator token.' : 'Signed in with your wallet.');
    }
  }

  function signOut(notice: string | null = null) {
    const c = cred ?? credentialStore.get();
    credentialStore.set(null);
    setCred(null);
    if (c) void signOutOf(c);
    setPhase({ kind: 'signin', notice });
    setStatus(notice ? '' : 'Signed out.');
  }

  const api: Api | null = useMemo(
    () =>
      cred
        ? createApi(cred.token, {
            signedOut: (m) => signOut(m),
            forbidden: (m) => setPhase({ kind: 'forbidden', message: m }),
          })
        : null,
    [cred?.token],
  );

  return (
    <>
      <style>{STYLES}</style>
      <header class="top">
        <div class="bar">
          <h1>Coin Wallet administration</h1>
          {cred && phase.kind !== 'signin' && (
            <div class="who">
              <span data-testid="who">
                {cred.kind === 'operator' ? (
                  'Operator (token)'
                ) : (
                  <>
                    Wallet <code title={cred.address}>{shortAddress(cred.address ?? '')}</code>
                  </>
                )}
              </span>{' '}
              <button type="button" class="secondary" onClick={() => signOut()}>
                Sign out
              </button>
            </div>
          )}
        </div>
        {phase.kind === 'ready' && (
          <nav aria-label="Sections">
            <a href="#queues">Review queues</a>
            <a href="#health">Service health</a>
            <a href="#market">Market</a>
          </nav>
        )}
      </header>
      <main>
        <p role="status" aria-live="polite" class="status" data-testid="status">
          {status}
        </p>
        {phase.kind === 'checking' && <p class="muted">Checking your sign-in…</p>}
        {phase.kind === 'signin' && <SignIn notice={phase.notice} onSignedIn={signedIn} />}
        {phase.kind === 'forbidden' && (
          <section aria-labelledby="forbidden-h" class="panel forbidden" data-testid="forbidden">
            <h2 id="forbidden-h">Administrators only</h2>
            <p>
              This page is for Coin Wallet administrators, and{' '}
              {cred?.kind === 'session' ? (
                <>
                  the account <code>{cred.address}</code> is not one
                </>
              ) : (
                'this sign-in is not one'
              )}
              . The server said: “{phase.message}”
            </p>
            <p>An administrator can grant the role; developers manage their keys and dapps at /portal.</p>
            <button type="button" onClick={() => signOut()}>
              Sign out
            </button>
          </section>
        )}
        {phase.kind === 'ready' && api && (
          <>
            <section id="queues" aria-labelledby="queues-h" class="area">
              <h2 id="queues-h">Review queues</h2>
              <Queues api={api} announce={setStatus} />
            </section>
            <section id="health" aria-labelledby="health-h" class="area">
              <h2 id="health-h">Service health</h2>
              <Health api={api} />
            </section>
            <section id="market" aria-labelledby="market-h" class="area">
              <h2 id="market-h">Market</h2>
              <Market api={api} />
            </section>
          </>
        )}
      </main>
    </>
  );
}
