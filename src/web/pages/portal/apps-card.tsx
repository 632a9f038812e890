/// <reference lib="dom" />
/**
 * One app: a warning when its trusted-only keys have nothing to run, its allowed origins, its keys with their
 * documents policy, its versions and publishing one, and a new publish token. Each refusal is shown where it
 * happened, with the API's code (apps-change.tsx).
 */
import type { JSX } from 'preact';
import { useAppChange } from './apps-change.tsx';
import { AppKeys } from './apps-keys.tsx';
import type { App, KeyChoice } from './apps-logic.ts';
import { appWarning } from './apps-logic.ts';
import { AppOrigins } from './apps-origins.tsx';
import { PublishForm } from './apps-publish.tsx';
import { RotateToken } from './apps-token.tsx';
import { VersionList } from './apps-versions.tsx';
import { When } from './ui.tsx';

export function AppCard(props: {
  app: App;
  choices: readonly KeyChoice[];
  onChanged: (app: App) => void;
  onToken: (app: string, token: string, back: () => HTMLElement | null) => void;
  announce: (m: string) => void;
  onError: (e: unknown) => boolean;
}): JSX.Element {
  const a = props.app;
  const change = useAppChange(props);
  const warning = appWarning(a);
  const h = `app-h-${a.id}`;

  return (
    <li class="card app-card" data-testid="app" data-app={a.name} aria-labelledby={h}>
      <div class="card-head">
        <h4 id={h}>{a.name}</h4>
        <span class="muted">
          registered <When at={a.createdAt} />
        </span>
      </div>
      {warning ? (
        <p class="note full" data-testid="app-warning">
          {warning}
        </p>
      ) : null}
      <h5>Allowed origins</h5>
      <AppOrigins app={a} change={change} />
      <h5>Keys</h5>
      <AppKeys app={a} choices={props.choices} change={change} />
      <h5>Versions</h5>
      <VersionList
        app={a.name}
        versions={a.versions}
        announce={props.announce}
        onError={props.onError}
        onChanged={() => void change.run('versions', async () => null, null)}
      />
      {change.alert('versions')}
      <PublishForm
        app={a.name}
        onError={props.onError}
        onPublished={(v) =>
          void change.run(
            'publish',
            async () => null,
            `Version ${v.version} of ${a.name} published${v.active ? ' and active' : ''}.`,
          )
        }
      />
      <h5>Publish token</h5>
      <RotateToken app={a} change={change} onToken={props.onToken} />
    </li>
  );
}
