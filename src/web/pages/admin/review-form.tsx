/// <reference lib="dom" />
/** The parts every decision form has: the required text (a key's reason, a dapp's notes) and the two buttons. */
import type { JSX } from 'preact';

/**
 * The required text of a decision (a key's reason, a dapp's notes): its hint, and the problem (checked inline) tied to
 * it for screen readers. Element ids: `id`, `${id}-hint`, `${id}-err`.
 */
export function NoteField(props: {
  id: string;
  label: string;
  hint: string;
  value: string;
  problem: string | null;
  busy: boolean;
  fieldRef: { current: HTMLTextAreaElement | null };
  onInput: (value: string) => void;
}): JSX.Element {
  const { id, problem } = props;
  return (
    <>
      <label for={id}>{props.label}</label>
      <textarea
        id={id}
        ref={props.fieldRef}
        rows={2}
        value={props.value}
        onInput={(e) => props.onInput(e.currentTarget.value)}
        aria-invalid={problem ? 'true' : 'false'}
        aria-describedby={`${id}-hint${problem ? ` ${id}-err` : ''}`}
        disabled={props.busy}
      />
      <p id={`${id}-hint`} class="hint">
        {props.hint}
      </p>
      {problem && (
        <p id={`${id}-err`} class="field-error">
          {problem}
        </p>
      )}
    </>
  );
}

/** Approve and reject buttons of one item, and the server's refusal when there is one. */
export function DecideActions(props: {
  noun: 'key' | 'dapp';
  busy: boolean;
  failure: string | null;
  decide: (action: 'approve' | 'reject') => void;
}): JSX.Element {
  return (
    <>
      <div class="actions">
        <button type="button" class="approve" disabled={props.busy} onClick={() => props.decide('approve')}>
          Approve {props.noun}
        </button>
        <button type="button" class="reject" disabled={props.busy} onClick={() => props.decide('reject')}>
          Reject {props.noun}
        </button>
      </div>
      {props.failure && (
        <p role="alert" class="error">
          {props.failure}
        </p>
      )}
    </>
  );
}
