/// <reference lib="dom" />
/**
 * "Submit a dapp": the listing request form with inline validation (the server's rules, docs/dapps.md), the
 * three-per-24-hours limit explained before it bites, and the account's own requests with status and review notes.
 */
import type { JSX } from 'preact';
import { useRef, useState } from 'preact/hooks';
import { GraphError, gql } from '../../shared/graph.ts';
import { PortalSubmitDappDocument } from '../../generated/graphql.ts';
import type { PortalDappFragment } from '../../generated/graphql.ts';
import type { DappDraft, DappField } from './logic.ts';
import {
  DAPP_CHAINS,
  DAPP_FIELDS,
  LIMITS,
  dappErrors,
  dappFieldError,
  dappFieldOfCode,
  dappInput,
  emptyDraft,
  submissionWindow,
} from './logic.ts';
import { Badge, When, dateTime, errorText } from './ui.tsx';

export interface DappsProps {
  dapps: readonly PortalDappFragment[];
  onSubmitted: (d: PortalDappFragment) => void;
  announce: (message: string) => void;
  onError: (e: unknown) => boolean;
}

export function DappsSection(props: DappsProps): JSX.Element {
  return (
    <section class="panel" id="dapps" aria-labelledby="dapps-h">
      <h2 id="dapps-h">Submit a dapp</h2>
      <p class="lede">
        Listed dapps appear in the Coin Wallet dapp store, and only their sites get the wallet API in the
        wallet’s dapp browser. An administrator reviews every request.
      </p>
      <LimitNote dapps={props.dapps} />
      <DappForm onSubmitted={props.onSubmitted} announce={props.announce} onError={props.onError} />
      <h3 class="list-h">Your submissions</h3>
      {props.dapps.length === 0 ? (
        <p class="muted" data-testid="no-dapps">
          You have not submitted a dapp yet.
        </p>
      ) : (
        <ul class="cards" data-testid="dapps">
          {props.dapps.map((d) => (
            <DappCard key={d.id} dapp={d} />
          ))}
        </ul>
      )}
    </section>
  );
}

function LimitNote(props: { dapps: readonly PortalDappFragment[] }): JSX.Element {
  const w = submissionWindow(
    props.dapps.map((d) => Date.parse(d.createdAt)),
    Date.now(),
  );
  const rule = `You can send ${LIMITS.perWindow} listing requests per 24 hours. Every request counts, whatever becomes of it.`;
  let state: string;
  if (w.nextAt !== null)
    state = `You have used all ${LIMITS.perWindow}: the next slot opens at ${dateTime(w.nextAt)}.`;
  else if (w.used === 0) state = `You have ${w.left} left.`;
  else
    state = `You have ${w.left} left now${w.freesAt !== null ? `; the next slot comes back at ${dateTime(w.freesAt)}` : ''}.`;
  return (
    <p
      class={`note${w.left === 0 ? ' full' : ''}`}
      id="dapp-limit"
      data-testid="dapp-limit"
      data-left={w.left}
    >
      {rule} {state}
    </p>
  );
}

const LABELS: Record<DappField, string> = {
  name: 'Name',
  site: 'Site address',
  icon: 'Icon URL',
  description: 'Description',
  contactEmail: 'Contact e-mail',
  chains: 'Chains',
};

const HINTS: Record<DappField, string> = {
  name: `As shown in the store; 1 to ${LIMITS.dappName} characters on one line.`,
  site: 'The https:// address the wallet opens; its origin (scheme, host, port) gets the wallet API.',
  icon: 'An https:// image URL (square, at least 128 px).',
  description: `What the dapp does; up to ${LIMITS.dappDescription.toLocaleString('en-US')} characters.`,
  contactEmail: 'Where reviewers can reach you; never published.',
  chains: 'The chains your dapp uses.',
};

function DappForm(props: {
  onSubmitted: (d: PortalDappFragment) => void;
  announce: (message: string) => void;
  onError: (e: unknown) => boolean;
}): JSX.Element {
  const [draft, setDraft] = useState<DappDraft>(emptyDraft);
  const [touched, setTouched] = useState<Partial<Record<DappField, boolean>>>({});
  const [server, setServer] = useState<Partial<Record<DappField, string>>>({});
  const [formError, setFormError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const formRef = useRef<HTMLFormElement>(null);
  const formErrorRef = useRef<HTMLParagraphElement>(null);

  const errorOf = (f: DappField): string | null =>
    server[f] ?? (touched[f] ? dappFieldError(f, draft) : null);

  const update = (f: DappField, d: DappDraft) => {
    setDraft(d);
    if (server[f]) {
      const rest = { ...server };
      delete rest[f];
      setServer(rest);
    }
  };

  const focusField = (f: DappField) => {
    const el = formRef.current?.querySelector<HTMLElement>(
      f === 'chains' ? 'input[name="chains"]' : `#dapp-${f}`,
    );
    el?.focus();
  };

  async function submit(e: Event) {
    e.preventDefault();
    setFormError(null);
    const all = Object.fromEntries(DAPP_FIELDS.map((f) => [f, true])) as Record<DappField, boolean>;
    setTouched(all);
    const errs = dappErrors(draft);
    const first = DAPP_FIELDS.find((f) => errs[f] !== undefined);
    if (first) {
      focusField(first);
      return;
    }
    setBusy(true);
    try {
      const r = await gql(PortalSubmitDappDocument, { input: dappInput(draft) });
      setDraft(emptyDraft());
      setTouched({});
      setServer({});
      props.onSubmitted(r.submitDapp);
      props.announce(`${r.submitDapp.name} submitted: it is in review.`);
    } catch (err) {
      if (props.onError(err)) return;
      const field = err instanceof GraphError ? dappFieldOfCode(err.code) : null;
      if (field && err instanceof GraphError) {
        setServer({ [field]: err.message });
        focusField(field);
      } else {
        setFormError(errorText(err));
        setTimeout(() => formErrorRef.current?.focus(), 0);
      }
    } finally {
      setBusy(false);
    }
  }

  const text = (f: Exclude<DappField, 'chains'>, type: 'text' | 'url' | 'email', multiline = false) => {
    const err = errorOf(f);
    const common = {
      id: `dapp-${f}`,
      name: f,
      value: draft[f],
      'aria-invalid': err ? ('true' as const) : ('false' as const),
      'aria-describedby': `dapp-${f}-hint${err ? ` dapp-${f}-err` : ''}`,
      'data-testid': `dapp-${f}`,
      onInput: (e: Event) => update(f, { ...draft, [f]: (e.target as HTMLInputElement).value }),
      onBlur: () => setTouched((t) => ({ ...t, [f]: t[f] || draft[f] !== '' })),
    };
    return (
      <div class="field" key={f}>
        <label for={`dapp-${f}`}>{LABELS[f]}</label>
        {multiline ? (
          <textarea {...common} />
        ) : (
          <input
            {...common}
            type={type}
            autoComplete={f === 'contactEmail' ? 'email' : 'off'}
            spellcheck={type === 'text'}
            placeholder={type === 'url' ? 'https://' : undefined}
          />
        )}
        <p class="hint" id={`dapp-${f}-hint`}>
          {HINTS[f]}
        </p>
        {err ? (
          <p class="field-error" id={`dapp-${f}-err`} data-testid={`dapp-${f}-error`}>
            {err}
          </p>
        ) : null}
      </div>
    );
  };

  const chainsErr = errorOf('chains');
  return (
    <form
      class="stack card"
      ref={formRef}
      noValidate
      onSubmit={submit}
      aria-labelledby="dapp-form-h"
      aria-describedby="dapp-limit"
      data-testid="dapp-form"
    >
      <h3 id="dapp-form-h">Listing request</h3>
      <p class="hint">All fields are required.</p>
      {text('name', 'text')}
      {text('site', 'url')}
      {text('icon', 'url')}
      {text('description', 'text', true)}
      {text('contactEmail', 'email')}
      <fieldset
        aria-describedby={`dapp-chains-hint${chainsErr ? ' dapp-chains-err' : ''}`}
        data-testid="dapp-chains"
      >
        <legend>{LABELS.chains}</legend>
        <p class="hint" id="dapp-chains-hint">
          {HINTS.chains}
        </p>
        <div class="chains">
          {DAPP_CHAINS.map((c) => (
            <label key={c}>
              <input
                type="checkbox"
                name="chains"
                value={c}
                checked={draft.chains.includes(c)}
                data-testid={`dapp-chain-${c}`}
                onChange={(e) => {
                  const on = (e.target as HTMLInputElement).checked;
                  const chains = on ? [...draft.chains, c] : draft.chains.filter((x) => x !== c);
                  update('chains', { ...draft, chains });
                  setTouched((t) => ({ ...t, chains: true }));
                }}
              />
              {c}
            </label>
          ))}
        </div>
        {chainsErr ? (
          <p class="field-error" id="dapp-chains-err" data-testid="dapp-chains-error">
            {chainsErr}
          </p>
        ) : null}
      </fieldset>
      {formError ? (
        <p class="alert" role="alert" tabIndex={-1} ref={formErrorRef} data-testid="dapp-form-error">
          {formError}
        </p>
      ) : null}
      <div class="actions">
        <button type="submit" class="primary" disabled={busy} data-testid="dapp-submit">
          {busy ? 'Submitting…' : 'Submit for review'}
        </button>
      </div>
    </form>
  );
}

function DappCard(props: { dapp: PortalDappFragment }): JSX.Element {
  const d = props.dapp;
  return (
    <li class="card" data-testid="dapp" data-dapp-id={d.id} data-status={d.status}>
      <div class="card-head">
        <h4>{d.name}</h4>
        <Badge status={d.status} testid="dapp-status" />
      </div>
      <dl class="facts">
        <div>
          <dt>Site</dt>
          <dd>
            <code>{d.site}</code>
          </dd>
        </div>
        <div>
          <dt>Chains</dt>
          <dd>{d.chains.join(', ')}</dd>
        </div>
        <div>
          <dt>Submitted</dt>
          <dd>
            <When at={d.createdAt} />
          </dd>
        </div>
        <div>
          <dt>Reviewed</dt>
          <dd>
            <When at={d.reviewedAt} never="not yet" />
          </dd>
        </div>
      </dl>
      {d.reviewNotes ? (
        <p class="notes" data-testid="dapp-notes">
          <strong>Review notes:</strong> {d.reviewNotes}
        </p>
      ) : d.status === 'SUBMITTED' ? (
        <p class="muted">Waiting for review.</p>
      ) : null}
    </li>
  );
}
