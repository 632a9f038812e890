/// <reference lib="dom" />
/**
 * An app's allowed origins on its card: the list (none: any origin), and editing it as the registration form does,
 * one per line, checked by the server's rules before `PUT /api/account/apps/{app}/origins`.
 */
import type { JSX } from 'preact';
import { useState } from 'preact/hooks';
import { appsApi } from './apps-api.ts';
import type { AppChange } from './apps-change.tsx';
import type { App } from './apps-logic.ts';
import { originsError, originsInput, originsText } from './apps-logic.ts';

export function AppOrigins(props: { app: App; change: AppChange }): JSX.Element {
  const a = props.app;
  const { busy, run, alert } = props.change;
  const [origins, setOrigins] = useState<string | null>(null);
  const originsErr = origins === null ? null : originsError(origins);
  return (
    <>
      {origins === null ? (
        <div class="actions">
          {a.origins.length === 0 ? (
            <span data-testid="app-origins-list">Any origin.</span>
          ) : (
            <ul class="origins" data-testid="app-origins-list">
              {a.origins.map((o) => (
                <li key={o}>
                  <code>{o}</code>
                </li>
              ))}
            </ul>
          )}
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
    </>
  );
}
