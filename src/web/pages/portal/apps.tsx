/// <reference lib="dom" />
/**
 * "Apps" (docs/apps.md, "In the portal"): the account's apps with their origins, keys and versions of trusted
 * documents; registering one (its publish token shown once); publishing and activating versions; a key's documents
 * policy. Over REST (`/api/account/apps`, apps-api.ts), reloaded with the rest of the portal.
 */
import type { JSX } from 'preact';
import { useCallback, useEffect, useRef, useState } from 'preact/hooks';
import { appsApi } from './apps-api.ts';
import { AppCard } from './apps-card.tsx';
import { CreateAppForm } from './apps-create.tsx';
import type { AccountKey, App } from './apps-logic.ts';
import { keyChoices } from './apps-logic.ts';
import { TokenDialog } from './apps-token.tsx';
import { errorText } from './ui.tsx';

export function AppsSection(props: {
  keys: readonly AccountKey[];
  /** Bumped on every refresh of the portal: the apps reload too. */
  refresh: number;
  announce: (m: string) => void;
  onError: (e: unknown) => boolean;
}): JSX.Element {
  const [apps, setApps] = useState<App[] | null>(null);
  const [loadError, setLoadError] = useState<string | null>(null);
  const [token, setToken] = useState<{ app: string; token: string } | null>(null);
  const createButton = useRef<HTMLButtonElement>(null);
  // Where the focus goes back when the token dialog closes: the button that asked for the token (default: register).
  const returnFocus = useRef<() => HTMLElement | null>(() => null);
  const showToken = (app: string, t: string, back: () => HTMLElement | null = () => createButton.current) => {
    returnFocus.current = back;
    setToken({ app, token: t });
  };
  const { onError } = props;

  const load = useCallback(async () => {
    try {
      setApps(await appsApi.list());
      setLoadError(null);
    } catch (e) {
      if (!onError(e)) setLoadError(errorText(e));
    }
  }, [onError]);

  useEffect(() => {
    void load();
  }, [props.refresh, load]);

  const replace = (app: App) => setApps((list) => (list ?? []).map((x) => (x.id === app.id ? app : x)));
  const choices = keyChoices(props.keys, apps ?? []);

  return (
    <section class="panel" id="apps" aria-labelledby="apps-h">
      <h2 id="apps-h">Apps</h2>
      <p class="lede">
        An app lists the GraphQL documents your frontend was built with and the origins it runs on. Its keys
        can then be restricted to those documents and those origins, so a key copied from your page runs
        nothing else (docs: <a href="/docs/apps.md">Apps and trusted documents</a>).
      </p>
      <CreateAppForm
        choices={choices}
        buttonRef={createButton}
        onError={props.onError}
        onCreated={(app, publishToken) => {
          setApps((list) => [...(list ?? []), app]);
          showToken(app.name, publishToken);
          props.announce(`App ${app.name} registered.`);
        }}
      />
      {token ? (
        <TokenDialog
          app={token.app}
          token={token.token}
          onClose={() => {
            setToken(null);
            setTimeout(() => returnFocus.current()?.focus(), 0);
          }}
        />
      ) : null}
      <h3 class="list-h">Your apps</h3>
      {loadError ? (
        <div class="actions">
          <p class="alert" role="alert" data-testid="apps-error">
            The apps could not be loaded: {loadError}
          </p>
          <button type="button" onClick={() => void load()}>
            Try again
          </button>
        </div>
      ) : null}
      {apps === null ? (
        loadError ? null : (
          <p class="muted" role="status">
            Loading your apps…
          </p>
        )
      ) : apps.length === 0 ? (
        <p class="muted" data-testid="no-apps">
          You have no apps yet.
        </p>
      ) : (
        <ul class="cards" data-testid="apps">
          {apps.map((a) => (
            <AppCard
              key={a.id}
              app={a}
              choices={choices}
              onChanged={replace}
              onToken={showToken}
              announce={props.announce}
              onError={props.onError}
            />
          ))}
        </ul>
      )}
    </section>
  );
}
