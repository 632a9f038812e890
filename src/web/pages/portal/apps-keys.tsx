/// <reference lib="dom" />
/**
 * An app's keys on its card: each with its documents policy, switched with `PUT /api/account/apps/{app}/keys/{key}`
 * (`{ "documents": "any" | "trusted-only" }`, as the API takes it) after the page says what the choice does; and a
 * key of the account to add (it starts with `any`).
 */
import type { JSX } from 'preact';
import { useState } from 'preact/hooks';
import type { Plan } from '../../generated/graphql.ts';
import { appsApi } from './apps-api.ts';
import type { AppChange } from './apps-change.tsx';
import type { App, DocumentsPolicy, KeyChoice } from './apps-logic.ts';
import { DOCUMENTS_POLICIES, policyLabel, policyNote } from './apps-logic.ts';
import { planLabel } from './logic.ts';

export function AppKeys(props: { app: App; choices: readonly KeyChoice[]; change: AppChange }): JSX.Element {
  const a = props.app;
  const { busy, run, alert } = props.change;
  const [policies, setPolicies] = useState<Record<string, DocumentsPolicy>>({});
  const [adding, setAdding] = useState('');
  const free = props.choices.filter((k) => k.app === null);
  return (
    <>
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
    </>
  );
}
