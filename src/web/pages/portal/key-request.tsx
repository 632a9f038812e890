/// <reference lib="dom" />
/** "Request a key": what the key is for (checked inline) and which plan; the new key goes to `onCreated`. */
import type { JSX, Ref } from 'preact';
import { useRef, useState } from 'preact/hooks';
import { gql } from '../../shared/graph.ts';
import { PortalRequestApiKeyDocument } from '../../generated/graphql.ts';
import type { Plan, PortalApiKeyFragment } from '../../generated/graphql.ts';
import { LIMITS, PLANS, keyDescriptionError } from './logic.ts';
import { errorText } from './ui.tsx';

export function RequestKeyForm(props: {
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
