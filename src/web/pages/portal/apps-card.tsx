/// <reference lib="dom" />
/**
 * One app: its allowed origins (editable), its keys with their documents policy (any or trusted-only, set with
 * `PUT /api/account/apps/{app}/keys/{key}` exactly as the API takes it), a key to add, a new publish token, publishing
 * a version and its versions. Each refusal is shown where it happened, with the API's code.
 */
import type { JSX } from 'preact';
import { useState } from 'preact/hooks';
import { appsApi } from './apps-api.ts';
import type { App, DocumentsPolicy, KeyChoice } from './apps-logic.ts';
import {
  DOCUMENTS_POLICIES,
  appWarning,
  originsError,
  originsInput,
  originsText,
  policyLabel,
  policyNote,
} from './apps-logic.ts';
import { PublishForm, VersionList } from './apps-publish.tsx';
import type { Plan } from '../../generated/graphql.ts';
import { planLabel } from './logic.ts';
import { When, errorText } from './ui.tsx';

export interface AppCardProps {
  app: App;
  choices: readonly KeyChoice[];
  onChanged: (app: App) => void;
  onToken: (app: string, token: string) => void;
  announce: (m: string) => void;
  onError: (e: unknown) => boolean;
}

/** Runs one change of the app, then shows its refusal (with the code) or hands the new app on. */
function useChange(props: AppCardProps) {
  const [busy, setBusy] = useState<string | null>(null);
  const [refusal, setRefusal] = useState<{ where: string; text: string } | null>(null);
  async function run(where: string, change: () => Promise<App | null>, done: string | null) {
    setBusy(where);
    setRefusal(null);
    try {
      const app = (await change()) ?? (await appsApi.get(props.app.name));
      props.onChanged(app);
      if (done) props.announce(done);
    } catch (err) {
      if (!props.onError(err)) setRefusal({ where, text: errorText(err) });
    } finally {
      setBusy(null);
    }
  }
  const alert = (where: string) =>
    refusal?.where === where ? (
      <p class="alert" role="alert" data-testid={`${where}-error`}>
        {refusal.text}
      </p>
    ) : null;
  return { busy, run, alert };
}

export function AppCard(props: AppCardProps): JSX.Element {
  const a = props.app;
  const { busy, run, alert } = useChange(props);
  const [policies, setPolicies] = useState<Record<string, DocumentsPolicy>>({});
  const [origins, setOrigins] = useState<string | null>(null);
  const [adding, setAdding] = useState('');
  const [rotating, setRotating] = useState(false);
  const free = props.choices.filter((k) => k.app === null);
  const warning = appWarning(a);
  const originsErr = origins === null ? null : originsError(origins);
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
      {origins === null ? (
        <div class="actions">
          <span data-testid="app-origins-list">
            {a.origins.length === 0 ? 'Any origin.' : a.origins.map((o) => <code key={o}>{o} </code>)}
          </span>
          <button type="button" onClick={() => setOrigins(originsText(a.origins))} data-testid="edit-origins">
            Edit origins
          </button>
        </div>
      ) : (
        <div class="field">
          <label for={`origins-${a.id}`}>Allowed origins of {a.name}, one per line (none: any origin)</label>
          <textarea
            id={`origins-${a.id}`}
            value={origins}
            spellcheck={false}
            aria-invalid={originsErr ? 'true' : 'false'}
            data-testid="origins-input"
            onInput={(e) => setOrigins((e.target as HTMLTextAreaElement).value)}
          />
          {originsErr ? <p class="field-error">{originsErr}</p> : null}
          <div class="actions">
            <button
              type="button"
              class="primary"
              disabled={busy !== null || originsErr !== null}
              data-testid="save-origins"
              onClick={() =>
                void run(
                  'origins',
                  async () => {
                    const r = await appsApi.setOrigins(a.name, originsInput(origins));
                    setOrigins(null);
                    return r;
                  },
                  `Allowed origins of ${a.name} saved.`,
                )
              }
            >
              Save origins
            </button>
            <button type="button" onClick={() => setOrigins(null)}>
              Cancel
            </button>
          </div>
        </div>
      )}
      {alert('origins')}

      <h5>Keys</h5>
      {a.keys.length === 0 ? <p class="muted">No key uses this app yet.</p> : null}
      <ul class="app-keys">
        {a.keys.map((k) => {
          const chosen = policies[k.id] ?? k.documents;
          const sel = `policy-${a.id}-${k.id}`;
          return (
            <li key={k.id} data-testid="app-key" data-key-id={k.id} data-documents={k.documents}>
              <code>{k.prefix}…</code> {planLabel(k.plan.toUpperCase() as Plan)} · {policyLabel(k.documents)}
              <div class="actions">
                <label for={sel}>Documents</label>
                <select
                  id={sel}
                  value={chosen}
                  aria-describedby={`${sel}-note`}
                  data-testid="policy"
                  onChange={(e) =>
                    setPolicies((p) => ({
                      ...p,
                      [k.id]: (e.target as HTMLSelectElement).value as DocumentsPolicy,
                    }))
                  }
                >
                  {DOCUMENTS_POLICIES.map((p) => (
                    <option key={p} value={p}>
                      {policyLabel(p)}
                    </option>
                  ))}
                </select>
                <button
                  type="button"
                  disabled={busy !== null || chosen === k.documents}
                  data-testid="save-policy"
                  onClick={() =>
                    void run(
                      `policy-${k.id}`,
                      () => appsApi.setKey(a.name, k.id, chosen),
                      `Key ${k.prefix} now runs ${policyLabel(chosen).toLowerCase()}.`,
                    )
                  }
                >
                  Save
                </button>
              </div>
              <p class="hint" id={`${sel}-note`}>
                {policyNote(a, chosen)}
              </p>
              {alert(`policy-${k.id}`)}
            </li>
          );
        })}
      </ul>
      {free.length > 0 ? (
        <div class="actions">
          <label for={`add-${a.id}`}>Add a key</label>
          <select
            id={`add-${a.id}`}
            value={adding}
            data-testid="add-key-choice"
            onChange={(e) => setAdding((e.target as HTMLSelectElement).value)}
          >
            <option value="">Choose a key…</option>
            {free.map((k) => (
              <option key={k.id} value={k.id}>
                {k.prefix}… {k.description.slice(0, 40)}
              </option>
            ))}
          </select>
          <button
            type="button"
            disabled={busy !== null || adding === ''}
            data-testid="add-key"
            onClick={() =>
              void run(
                'add-key',
                async () => {
                  const r = await appsApi.setKey(a.name, adding, 'any');
                  setAdding('');
                  return r;
                },
                `Key added to ${a.name}.`,
              )
            }
          >
            Add
          </button>
        </div>
      ) : null}
      {alert('add-key')}

      <h5>Versions</h5>
      <VersionList
        app={a.name}
        versions={a.versions}
        announce={props.announce}
        onError={props.onError}
        onChanged={() => void run('versions', async () => null, null)}
      />
      {alert('versions')}
      <PublishForm
        app={a.name}
        onError={props.onError}
        onPublished={(v) =>
          void run(
            'publish',
            async () => null,
            `Version ${v.version} of ${a.name} published${v.active ? ' and active' : ''}.`,
          )
        }
      />
      {rotating ? (
        <div class="confirm" role="group" aria-labelledby={`rotate-q-${a.id}`}>
          <p id={`rotate-q-${a.id}`}>
            Issue a new publish token for {a.name}? The token your CI holds stops working at once.
          </p>
          <div class="actions">
            <button
              type="button"
              class="danger"
              disabled={busy !== null}
              data-testid="rotate-confirm"
              onClick={() =>
                void run(
                  'token',
                  async () => {
                    const r = await appsApi.rotateToken(a.name);
                    setRotating(false);
                    props.onToken(a.name, r.publishToken);
                    return null;
                  },
                  `A new publish token for ${a.name}: the previous one no longer works.`,
                )
              }
            >
              Yes, replace it
            </button>
            <button type="button" onClick={() => setRotating(false)}>
              Keep the current token
            </button>
          </div>
        </div>
      ) : (
        <div class="actions">
          <button type="button" onClick={() => setRotating(true)} data-testid="rotate-token">
            New publish token…
          </button>
        </div>
      )}
      {alert('token')}
    </li>
  );
}
