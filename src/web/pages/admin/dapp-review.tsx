/// <reference lib="dom" />
/** A submitted dapp in the review queue: its site, chains and contact, and the decision (notes are required). */
import { useRef, useState } from 'preact/hooks';
import type { JSX } from 'preact';
import { AdminApproveDappDocument, AdminRejectDappDocument } from '../../generated/graphql.ts';
import type { AdminSubmittedDappsQuery } from '../../generated/graphql.ts';
import type { Api } from './api.ts';
import { errorText } from './api.ts';
import { checkNote, mailtoHref, shortAddress } from './logic.ts';
import { DecideActions, NoteField } from './review-form.tsx';
import type { Decision } from './review-queue.tsx';
import { alreadyDecided, when } from './review-text.ts';

type Dapp = AdminSubmittedDappsQuery['reviewDapps'][number];

export function DappItem(props: { d: Dapp; api: Api; done: (d: Omit<Decision, 'at'>) => void }): JSX.Element {
  const d = props.d;
  const id = `dapp-${d.id}`;
  const [notes, setNotes] = useState('');
  const [problem, setProblem] = useState<string | null>(null);
  const [failure, setFailure] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const notesRef = useRef<HTMLTextAreaElement>(null);

  async function decide(action: 'approve' | 'reject') {
    setFailure(null);
    const p = checkNote(notes, 'notes');
    setProblem(p);
    if (p) return notesRef.current?.focus();
    setBusy(true);
    try {
      if (action === 'approve') {
        const r = (await props.api.call(AdminApproveDappDocument, { id: d.id, notes: notes.trim() }))
          .approveDapp;
        props.done({
          outcome: 'approved',
          text: `Approved dapp “${r.name}”: it is listed in the store and ${d.origin} gets the wallet API now.`,
        });
      } else {
        const r = (await props.api.call(AdminRejectDappDocument, { id: d.id, notes: notes.trim() }))
          .rejectDapp;
        props.done({
          outcome: 'rejected',
          text: `Rejected dapp “${r.name}”: the submitter sees the notes “${r.reviewNotes ?? notes.trim()}”`,
        });
      }
    } catch (e) {
      setBusy(false);
      if (alreadyDecided(e))
        props.done({
          outcome: 'gone',
          text: `Dapp “${d.name}” was already decided elsewhere: ${errorText(e)}`,
        });
      else setFailure(errorText(e));
    }
  }

  return (
    <article class="item" data-testid="dapp-item" data-id={d.id} aria-labelledby={`${id}-h`}>
      <h4 id={`${id}-h`}>{d.name}</h4>
      <dl>
        <dt>Site</dt>
        <dd>
          {/^https?:\/\//i.test(d.site) ? (
            <a href={d.site} rel="noopener noreferrer nofollow" target="_blank">
              {d.site}
            </a>
          ) : (
            <code>{d.site}</code>
          )}{' '}
          <span class="muted">(origin {d.origin})</span>
        </dd>
        <dt>Chains</dt>
        <dd>{d.chains.join(', ')}</dd>
        <dt>Contact</dt>
        <dd>
          <a href={mailtoHref(d.contactEmail)}>{d.contactEmail}</a>
        </dd>
        <dt>Submitted by</dt>
        <dd>
          <code title={d.account.address}>{shortAddress(d.account.address)}</code>, {when(d.createdAt)}
        </dd>
        <dt>Description</dt>
        <dd class="text">{d.description}</dd>
      </dl>
      <form class="decide" onSubmit={(e) => e.preventDefault()} aria-label={`Decide on dapp ${d.name}`}>
        <NoteField
          id={`${id}-notes`}
          label="Notes to the submitter (required)"
          hint="The submitter sees them with the decision. Up to 2,000 characters."
          value={notes}
          problem={problem}
          busy={busy}
          fieldRef={notesRef}
          onInput={(v) => {
            setNotes(v);
            if (problem) setProblem(checkNote(v, 'notes'));
          }}
        />
        <DecideActions noun="dapp" busy={busy} failure={failure} decide={(a) => void decide(a)} />
      </form>
    </article>
  );
}
