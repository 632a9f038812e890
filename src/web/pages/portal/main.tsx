/// <reference lib="dom" />
/**
 * The developer portal (`GET /portal`, docs/portal.md): sign in with Coin Wallet (inside its dapp browser), request
 * and revoke API keys and watch their usage, submit dapps for the store and follow their review. Everything goes
 * through the graph's persisted documents (src/web/pages/portal/portal.graphql) with the session token kept in
 * sessionStorage.
 */
import { render } from 'preact';
import type { JSX } from 'preact';
import { useCallback, useEffect, useRef, useState } from 'preact/hooks';
import { gql, session } from '../../shared/graph.ts';
import { PortalMeDocument, PortalSignOutDocument } from '../../generated/graphql.ts';
import type { PortalMeQuery } from '../../generated/graphql.ts';
import { AppsSection } from './apps.tsx';
import { DappsSection } from './dapps.tsx';
import { KeysSection } from './keys.tsx';
import type { SignedIn } from './signin.tsx';
import { SignIn } from './signin.tsx';
import { injectStyles } from './styles.ts';
import { clockTime, errorText, isSessionLost } from './ui.tsx';

type Me = NonNullable<PortalMeQuery['me']>;

/** How often the signed-in view reloads (key status, usage, review outcomes) while the tab is visible. */
const POLL_MS = 15_000;

function App(): JSX.Element {
  const [token, setToken] = useState<string | null>(() => session.get());
  const [me, setMe] = useState<Me | null>(null);
  const [loadError, setLoadError] = useState<string | null>(null);
  const [notice, setNotice] = useState<string | null>(null);
  const [message, setMessage] = useState('');
  const [refresh, setRefresh] = useState(0);
  const [loadedAt, setLoadedAt] = useState<number | null>(null);
  const [loading, setLoading] = useState(false);
  const headingRef = useRef<HTMLHeadingElement>(null);

  const announce = useCallback((m: string) => {
    // Cleared first so the same message twice is announced twice.
    setMessage('');
    setTimeout(() => setMessage(m), 50);
  }, []);

  const endSession = useCallback((why: string | null) => {
    session.set(null);
    setToken(null);
    setMe(null);
    setLoadedAt(null);
    setNotice(why);
  }, []);

  const onError = useCallback(
    (e: unknown): boolean => {
      if (!isSessionLost(e)) return false;
      endSession('Your session has ended. Sign in again to continue.');
      return true;
    },
    [endSession],
  );

  const load = useCallback(async () => {
    setLoading(true);
    try {
      const r = await gql(PortalMeDocument, {});
      if (!r.me) {
        endSession('Your session has ended. Sign in again to continue.');
        return;
      }
      setMe(r.me);
      setLoadError(null);
      setLoadedAt(Date.now());
      setRefresh((n) => n + 1);
    } catch (e) {
      if (!onError(e)) setLoadError(errorText(e));
    } finally {
      setLoading(false);
    }
  }, [endSession, onError]);

  useEffect(() => {
    if (!token) return;
    void load();
    const t = setInterval(() => {
      if (document.visibilityState === 'visible') void load();
    }, POLL_MS);
    // Coming back to the tab shows what changed meanwhile (an administrator's decision) at once.
    const onVisible = () => {
      if (document.visibilityState === 'visible') void load();
    };
    document.addEventListener('visibilitychange', onVisible);
    return () => {
      clearInterval(t);
      document.removeEventListener('visibilitychange', onVisible);
    };
  }, [token, load]);

  // Deep links from the wallet's profile (`/portal#keys`, `/portal#dapps`): the sections exist once the account has
  // loaded, after the browser looked for the fragment.
  const scrolled = useRef(false);
  useEffect(() => {
    if (!me || scrolled.current) return;
    scrolled.current = true;
    const id = location.hash.slice(1);
    if (id === 'keys' || id === 'apps' || id === 'dapps') document.getElementById(id)?.scrollIntoView();
  }, [me]);

  function signedIn(s: SignedIn) {
    session.set(s.token);
    setNotice(null);
    setToken(s.token);
    announce(`Signed in as ${s.address}.`);
    setTimeout(() => headingRef.current?.focus(), 0);
  }

  async function signOut() {
    try {
      await gql(PortalSignOutDocument, {});
    } catch {
      // The session is forgotten here either way.
    }
    endSession(null);
    announce('Signed out.');
    setTimeout(() => headingRef.current?.focus(), 0);
  }

  return (
    <>
      <a class="skip" href="#main">
        Skip to content
      </a>
      <header class="top">
        <span class="brand">Coin Wallet · Developers</span>
        {me ? (
          <div class="who">
            <span>
              Signed in as <code data-testid="signed-in-address">{me.address}</code>
            </span>
            <button type="button" onClick={signOut} data-testid="sign-out">
              Sign out
            </button>
          </div>
        ) : null}
      </header>
      <main id="main">
        <h1 tabIndex={-1} ref={headingRef}>
          Developer portal
        </h1>
        <p class="lede">API keys for the Coin Wallet APIs, and dapp listings for the wallet’s dapp store.</p>
        <p class="sr-only" role="status" aria-live="polite" data-testid="announcer">
          {message}
        </p>
        {!token ? (
          <SignIn onSignedIn={signedIn} notice={notice} />
        ) : !me ? (
          loadError ? (
            <div class="panel">
              <p class="alert" role="alert">
                The portal could not load your account: {loadError}
              </p>
              <div class="actions">
                <button type="button" onClick={() => void load()}>
                  Try again
                </button>
                <button type="button" onClick={() => endSession(null)}>
                  Sign in again
                </button>
              </div>
            </div>
          ) : (
            <p class="muted" role="status">
              Loading your account…
            </p>
          )
        ) : (
          <>
            <nav class="sections" aria-label="Sections">
              <a href="#keys">Developer API keys</a>
              <a href="#apps">Apps</a>
              <a href="#dapps">Submit a dapp</a>
            </nav>
            <div class="actions refresh">
              <button type="button" onClick={() => void load()} disabled={loading} data-testid="refresh">
                {loading ? 'Refreshing…' : 'Refresh'}
              </button>
              <span class="muted" data-testid="loaded-at">
                {loadedAt ? `Updated ${clockTime(loadedAt)}; refreshes every ${POLL_MS / 1000} s.` : ''}
              </span>
              {loadError ? (
                <span class="alert" role="alert">
                  {loadError}
                </span>
              ) : null}
            </div>
            <KeysSection
              keys={me.apiKeys}
              refresh={refresh}
              announce={announce}
              onError={onError}
              onCreated={(k) => setMe((m) => (m ? { ...m, apiKeys: [k, ...m.apiKeys] } : m))}
              onRevoked={(k) =>
                setMe((m) => (m ? { ...m, apiKeys: m.apiKeys.map((x) => (x.id === k.id ? k : x)) } : m))
              }
            />
            <AppsSection keys={me.apiKeys} refresh={refresh} announce={announce} onError={onError} />
            <DappsSection
              dapps={me.dappRequests}
              announce={announce}
              onError={onError}
              onSubmitted={(d) => setMe((m) => (m ? { ...m, dappRequests: [d, ...m.dappRequests] } : m))}
            />
          </>
        )}
      </main>
    </>
  );
}

injectStyles();
const root = document.getElementById('app');
if (root) render(<App />, root);
