/// <reference lib="dom" />
/**
 * "Register an app": its name, the allowed origins (one per line; none: any origin) and which of the account's keys
 * it uses. Checked inline by the server's rules before anything is sent; a refusal of the server is shown with its
 * code at the field it names. The new app and its publish token go to `onCreated`.
 */
import type { JSX, Ref } from 'preact';
import { useRef, useState } from 'preact/hooks';
import { appsApi } from './apps-api.ts';
import type { App, AppField, KeyChoice } from './apps-logic.ts';
import { APP_LIMITS, appFieldOfCode, appNameError, originsError, originsInput } from './apps-logic.ts';
import { GraphError } from '../../shared/graph.ts';
import { errorText } from './ui.tsx';

export function CreateAppForm(props: {
  choices: readonly KeyChoice[];
  buttonRef: Ref<HTMLButtonElement>;
  onCreated: (app: App, publishToken: string) => void;
  onError: (e: unknown) => boolean;
}): JSX.Element {
  const [name, setName] = useState('');
  const [origins, setOrigins] = useState('');
  const [keys, setKeys] = useState<string[]>([]);
  const [touched, setTouched] = useState(false);
  const [busy, setBusy] = useState(false);
  const [refusal, setRefusal] = useState<{ text: string; field: AppField | null } | null>(null);
  const nameRef = useRef<HTMLInputElement>(null);
  const originsRef = useRef<HTMLTextAreaElement>(null);

  const nameErr = touched ? appNameError(name) : null;
  const originsErr = touched ? originsError(origins) : null;
  const keysErr = keys.length > APP_LIMITS.maxKeys ? `At most ${APP_LIMITS.maxKeys} keys per app.` : null;
  const invalid = (f: AppField, local: string | null) => local !== null || refusal?.field === f;

  async function submit(e: Event) {
    e.preventDefault();
    setTouched(true);
    setRefusal(null);
    if (appNameError(name) !== null) return nameRef.current?.focus();
    if (originsError(origins) !== null) return originsRef.current?.focus();
    if (keysErr) return;
    setBusy(true);
    try {
      const r = await appsApi.create({ name, origins: originsInput(origins), keys });
      const { publishToken, ...app } = r;
      setName('');
      setOrigins('');
      setKeys([]);
      setTouched(false);
      props.onCreated(app, publishToken);
    } catch (err) {
      if (props.onError(err)) return;
      const field = err instanceof GraphError ? appFieldOfCode(err.code) : null;
      setRefusal({ text: errorText(err), field });
      if (field === 'name') nameRef.current?.focus();
      if (field === 'origins') originsRef.current?.focus();
    } finally {
      setBusy(false);
    }
  }

  const describe = (...ids: (string | false)[]) => ids.filter(Boolean).join(' ');
  return (
    <form class="stack card" noValidate onSubmit={submit} aria-labelledby="app-new-h" data-testid="app-form">
      <h3 id="app-new-h">Register an app</h3>
      <div class="field">
        <label for="app-name">Name</label>
        <input
          id="app-name"
          ref={nameRef}
          type="text"
          value={name}
          maxLength={63}
          autoComplete="off"
          spellcheck={false}
          aria-invalid={invalid('name', nameErr) ? 'true' : 'false'}
          aria-describedby={describe('app-name-hint', nameErr !== null && 'app-name-err')}
          data-testid="app-name"
          onInput={(e) => setName((e.target as HTMLInputElement).value)}
        />
        <p class="hint" id="app-name-hint">
          Lowercase letters, digits and dashes; the app’s name in the API’s paths and the CLI.
        </p>
        {nameErr ? (
          <p class="field-error" id="app-name-err" data-testid="app-name-error">
            {nameErr}
          </p>
        ) : null}
      </div>
      <div class="field">
        <label for="app-origins">Allowed origins (optional)</label>
        <textarea
          id="app-origins"
          ref={originsRef}
          value={origins}
          spellcheck={false}
          placeholder="https://my-dapp.example"
          aria-invalid={invalid('origins', originsErr) ? 'true' : 'false'}
          aria-describedby={describe('app-origins-hint', originsErr !== null && 'app-origins-err')}
          data-testid="app-origins"
          onInput={(e) => setOrigins((e.target as HTMLTextAreaElement).value)}
        />
        <p class="hint" id="app-origins-hint">
          One per line, as a browser sends it: scheme://host[:port]. A browser page from any other origin is
          refused with the app’s keys (403 ORIGIN_NOT_ALLOWED). None: any origin.
        </p>
        {originsErr ? (
          <p class="field-error" id="app-origins-err" data-testid="app-origins-error">
            {originsErr}
          </p>
        ) : null}
      </div>
      <fieldset aria-describedby="app-keys-hint">
        <legend>Keys it uses</legend>
        <p class="hint" id="app-keys-hint">
          A key serves one app; it starts by running any document, and you can restrict it to the app’s
          trusted documents once a version is published.
        </p>
        {props.choices.length === 0 ? (
          <p class="muted" data-testid="app-no-keys">
            You have no usable API keys yet: request one above, or register the app and add keys later.
          </p>
        ) : (
          <div class="choices">
            {props.choices.map((k) => (
              <label class="choice" key={k.id}>
                <input
                  type="checkbox"
                  checked={keys.includes(k.id)}
                  disabled={k.app !== null}
                  data-testid={`app-key-${k.id}`}
                  onChange={(e) =>
                    setKeys((ks) =>
                      (e.target as HTMLInputElement).checked ? [...ks, k.id] : ks.filter((x) => x !== k.id),
                    )
                  }
                />
                <span>
                  <code>{k.prefix}…</code> {k.description}
                  {k.status === 'PENDING' ? <span class="muted"> (pending review)</span> : null}
                  {k.app !== null ? <span class="muted"> (used by {k.app})</span> : null}
                </span>
              </label>
            ))}
          </div>
        )}
        {keysErr ? <p class="field-error">{keysErr}</p> : null}
      </fieldset>
      {refusal ? (
        <p class="alert" role="alert" data-testid="app-form-error">
          {refusal.text}
        </p>
      ) : null}
      <div class="actions">
        <button type="submit" class="primary" disabled={busy} ref={props.buttonRef} data-testid="app-create">
          {busy ? 'Registering…' : 'Register app'}
        </button>
      </div>
    </form>
  );
}
