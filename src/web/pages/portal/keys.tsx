/// <reference lib="dom" />
/**
 * "Developer API keys": request a key (what it is for, which plan), see the new key once in a dialog with a copy
 * button, the account's keys with status, plan, limit and last use, revoke (with a confirmation step) and each key's
 * usage over the last hour.
 */
import type { JSX, Ref } from 'preact';
import { useEffect, useRef, useState } from 'preact/hooks';
import { gql } from '../../shared/graph.ts';
import { PortalRequestApiKeyDocument, PortalRevokeApiKeyDocument } from '../../generated/graphql.ts';
import type { Plan, PortalApiKeyFragment } from '../../generated/graphql.ts';
import { LIMITS, PLANS, keyDescriptionError, newKeyStateText, planLabel } from './logic.ts';
import { KeyUsage } from './usage.tsx';
import { Badge, When, errorText } from './ui.tsx';

export interface KeysProps {
  keys: readonly PortalApiKeyFragment[];
  /** Bumped on every refresh: the usage charts reload. */
  refresh: number;
  onCreated: (k: PortalApiKeyFragment) => void;
  onRevoked: (k: PortalApiKeyFragment) => void;
  announce: (message: string) => void;
  onError: (e: unknown) => boolean;
}

export function KeysSection(props: KeysProps): JSX.Element {
  const [secret, setSecret] = useState<{ key: string; id: string; prefix: string } | null>(null);
  // The new key as the list holds it now: its state may change while the dialog is open.
  const shown = secret ? props.keys.find((k) => k.id === secret.id) : undefined;
  // Where the focus goes back when the key dialog closes: the request button (disabled, so unfocused, while sending).
  const requestButton = useRef<HTMLButtonElement>(null);
  return (
    <section class="panel" id="keys" aria-labelledby="keys-h">
      <h2 id="keys-h">Developer API keys</h2>
      <p class="lede">
        A key raises your rate limit on the price API and the graph (send it as <code>x-sp-api-key</code>).
        Every request is reviewed by an administrator: a key works once it is approved.
      </p>
      <RequestKeyForm
        buttonRef={requestButton}
        onCreated={(key, record) => {
          props.onCreated(record);
          setSecret({ key, id: record.id, prefix: record.prefix });
          props.announce(`Key ${record.prefix} requested: it is pending review.`);
        }}
        onError={props.onError}
      />
      {secret ? (
        <KeyDialog
          secret={secret.key}
          prefix={secret.prefix}
          state={newKeyStateText(shown ?? { status: 'PENDING', limitPerMinute: 0, rejectionReason: null })}
          onClose={() => {
            setSecret(null);
            setTimeout(() => requestButton.current?.focus(), 0);
          }}
        />
      ) : null}
      <h3 class="list-h">Your keys</h3>
      {props.keys.length === 0 ? (
        <p class="muted" data-testid="no-keys">
          You have no API keys yet.
        </p>
      ) : (
        <ul class="cards" data-testid="keys">
          {props.keys.map((k) => (
            <KeyCard
              key={k.id}
              apiKey={k}
              refresh={props.refresh}
              onRevoked={props.onRevoked}
              announce={props.announce}
              onError={props.onError}
            />
          ))}
        </ul>
      )}
    </section>
  );
}

function RequestKeyForm(props: {
  buttonRef: Ref<HTMLButtonElement>;
  onCreated: (key: string, record: PortalApiKeyFragment) => void;
  onError: (e: unknown) => boolean;
}): JSX.Element {
  const [description, setDescription] = useState('');
  const [plan, setPlan] = useState<Plan>('FREE');
  const [touched, setTouched] = useState(false);
  const [busy, setBusy] = useState(false);
  const [serverError, setServerError] = useState<string | null>(null);
  const descRef = useRef<HTMLTextAreaElement>(null);
  const fieldError = touched ? keyDescriptionError(description) : null;

  async function submit(e: Event) {
    e.preventDefault();
    setTouched(true);
    setServerError(null);
    if (keyDescriptionError(description) !== null) {
      descRef.current?.focus();
      return;
    }
    setBusy(true);
    try {
      const r = await gql(PortalRequestApiKeyDocument, { plan, description });
      setDescription('');
      setTouched(false);
      props.onCreated(r.requestApiKey.key, r.requestApiKey.apiKey);
    } catch (err) {
      if (!props.onError(err)) setServerError(errorText(err));
    } finally {
      setBusy(false);
    }
  }

  const describedBy = ['key-desc-hint', fieldError ? 'key-desc-err' : ''].filter(Boolean).join(' ');
  return (
    <form
      class="stack card"
      noValidate
      onSubmit={submit}
      aria-labelledby="request-key-h"
      data-testid="key-form"
    >
      <h3 id="request-key-h">Request a key</h3>
      <div class="field">
        <label for="key-desc">What will you use it for?</label>
        <textarea
          id="key-desc"
          ref={descRef}
          value={description}
          maxLength={LIMITS.keyDescription}
          aria-invalid={fieldError ? 'true' : 'false'}
          aria-describedby={describedBy}
          data-testid="key-description"
          onInput={(e) => setDescription((e.target as HTMLTextAreaElement).value)}
          onBlur={() => setTouched(description !== '' || touched)}
        />
        <p class="hint" id="key-desc-hint">
          The site or app, and roughly how many requests it makes; {description.length}/
          {LIMITS.keyDescription} characters.
        </p>
        {fieldError ? (
          <p class="field-error" id="key-desc-err">
            {fieldError}
          </p>
        ) : null}
      </div>
      <fieldset>
        <legend>Plan</legend>
        <div class="choices">
          {PLANS.map((p) => (
            <label class="choice" key={p.plan}>
              <input
                type="radio"
                name="plan"
                value={p.plan}
                checked={plan === p.plan}
                data-testid={`key-plan-${p.plan}`}
                onChange={() => setPlan(p.plan)}
              />
              <span>
                <strong>{p.label}</strong> — {p.limit}
              </span>
            </label>
          ))}
        </div>
      </fieldset>
      {serverError ? (
        <p class="alert" role="alert" data-testid="key-form-error">
          {serverError}
        </p>
      ) : null}
      <div class="actions">
        <button type="submit" class="primary" disabled={busy} ref={props.buttonRef} data-testid="request-key">
          {busy ? 'Requesting…' : 'Request key'}
        </button>
      </div>
    </form>
  );
}

/** Whether this document may write to the clipboard (a wallet's frame may not be allowed to). */
function clipboardAllowed(): boolean {
  if (!navigator.clipboard) return false;
  const policy = (document as { featurePolicy?: { allowsFeature(f: string): boolean } }).featurePolicy;
  return policy ? policy.allowsFeature('clipboard-write') : true;
}

/** Puts `text` on the clipboard; falls back to selecting `input` and the legacy copy command. */
async function copyText(text: string, input: HTMLInputElement | null): Promise<'copied' | 'selected'> {
  try {
    if (!clipboardAllowed()) throw new Error('no clipboard API here');
    await navigator.clipboard.writeText(text);
    return 'copied';
  } catch {
    input?.focus();
    input?.select();
    try {
      return document.execCommand('copy') ? 'copied' : 'selected';
    } catch {
      return 'selected';
    }
  }
}

/** The new key, shown this once: a modal dialog (focus inside, Escape or Done closes it, focus goes back). */
function KeyDialog(props: {
  secret: string;
  prefix: string;
  state: string;
  onClose: () => void;
}): JSX.Element {
  const ref = useRef<HTMLDialogElement>(null);
  const inputRef = useRef<HTMLInputElement>(null);
  const copyRef = useRef<HTMLButtonElement>(null);
  const [copied, setCopied] = useState<string>('');

  useEffect(() => {
    const d = ref.current;
    if (!d) return;
    if (!d.open) d.showModal();
    copyRef.current?.focus();
    const onClose = () => props.onClose();
    d.addEventListener('close', onClose);
    return () => d.removeEventListener('close', onClose);
  }, []);

  async function copy() {
    const how = await copyText(props.secret, inputRef.current);
    setCopied(
      how === 'copied'
        ? 'Copied to the clipboard.'
        : 'The key is selected: press Ctrl+C (⌘C on a Mac) to copy it.',
    );
  }

  return (
    <dialog
      ref={ref}
      class="secret"
      aria-labelledby="key-dialog-h"
      aria-describedby="key-dialog-once"
      data-testid="key-dialog"
    >
      <h2 id="key-dialog-h">Your new API key</h2>
      <p id="key-dialog-once" class="once">
        Copy it now: you will not see this key again. The server keeps only a fingerprint of it.
      </p>
      <div class="secret-row">
        <label class="sr-only" for="new-key">
          API key {props.prefix}
        </label>
        <input
          id="new-key"
          ref={inputRef}
          type="text"
          readOnly
          value={props.secret}
          data-testid="new-key"
          onFocus={(e) => (e.target as HTMLInputElement).select()}
        />
        <button type="button" ref={copyRef} class="primary" onClick={copy} data-testid="copy-key">
          Copy
        </button>
      </div>
      <p role="status" aria-live="polite" class="muted" data-testid="copy-status">
        {copied}
      </p>
      <p data-testid="key-dialog-state">{props.state}</p>
      <div class="actions">
        <button type="button" onClick={() => ref.current?.close()} data-testid="key-dialog-done">
          I have stored it — close
        </button>
      </div>
    </dialog>
  );
}

function KeyCard(props: {
  apiKey: PortalApiKeyFragment;
  refresh: number;
  onRevoked: (k: PortalApiKeyFragment) => void;
  announce: (message: string) => void;
  onError: (e: unknown) => boolean;
}): JSX.Element {
  const k = props.apiKey;
  const [confirming, setConfirming] = useState(false);
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const revokeRef = useRef<HTMLButtonElement>(null);
  const confirmRef = useRef<HTMLButtonElement>(null);

  useEffect(() => {
    if (confirming) confirmRef.current?.focus();
  }, [confirming]);

  async function revoke() {
    setBusy(true);
    setError(null);
    try {
      const r = await gql(PortalRevokeApiKeyDocument, {
        id: k.id,
        reason: 'revoked by its owner in the portal',
      });
      setConfirming(false);
      props.onRevoked(r.revokeApiKey);
      props.announce(`Key ${k.prefix} revoked: it is refused from now on.`);
    } catch (e) {
      if (!props.onError(e)) setError(errorText(e));
    } finally {
      setBusy(false);
    }
  }

  const titleId = `key-h-${k.id}`;
  return (
    <li class="card" data-testid="key" data-key-id={k.id} data-status={k.status}>
      <div class="card-head">
        <h4 id={titleId} class="key-title">
          <code>{k.prefix}…</code>
        </h4>
        <Badge status={k.status} testid="key-status" />
      </div>
      <p data-testid="key-description-text">{k.description}</p>
      {k.status === 'REJECTED' && k.rejectionReason ? (
        <p class="reason" data-testid="key-rejection">
          <strong>Why it was rejected:</strong> {k.rejectionReason}
        </p>
      ) : null}
      <dl class="facts">
        <div>
          <dt>Plan</dt>
          <dd data-testid="key-plan">{planLabel(k.plan)}</dd>
        </div>
        <div>
          <dt>Limit</dt>
          <dd data-testid="key-limit">{k.limitPerMinute.toLocaleString('en-US')} requests/minute</dd>
        </div>
        <div>
          <dt>Requested</dt>
          <dd>
            <When at={k.createdAt} />
          </dd>
        </div>
        <div>
          <dt>{k.status === 'REVOKED' ? 'Revoked' : 'Reviewed'}</dt>
          <dd>
            <When at={k.status === 'REVOKED' ? k.revokedAt : k.reviewedAt} never="not yet" />
          </dd>
        </div>
        <div>
          <dt>Last used</dt>
          <dd data-testid="key-last-used">
            <When at={k.lastUsedAt} never="never" />
          </dd>
        </div>
      </dl>
      {k.status === 'APPROVED' ? (
        confirming ? (
          <div class="confirm" role="group" aria-labelledby={`revoke-q-${k.id}`}>
            <p id={`revoke-q-${k.id}`}>
              Revoke <code>{k.prefix}…</code>? Every request with it is refused from then on; this cannot be
              undone.
            </p>
            <div class="actions">
              <button
                type="button"
                class="danger"
                ref={confirmRef}
                disabled={busy}
                onClick={revoke}
                data-testid="revoke-confirm"
              >
                {busy ? 'Revoking…' : 'Yes, revoke it'}
              </button>
              <button
                type="button"
                disabled={busy}
                onClick={() => {
                  setConfirming(false);
                  setTimeout(() => revokeRef.current?.focus(), 0);
                }}
                data-testid="revoke-cancel"
              >
                Keep the key
              </button>
            </div>
          </div>
        ) : (
          <div class="actions">
            <button type="button" ref={revokeRef} onClick={() => setConfirming(true)} data-testid="revoke">
              Revoke…
            </button>
          </div>
        )
      ) : null}
      {error ? (
        <p class="alert" role="alert">
          {error}
        </p>
      ) : null}
      <KeyUsage keyId={k.id} prefix={k.prefix} refresh={props.refresh} />
    </li>
  );
}
