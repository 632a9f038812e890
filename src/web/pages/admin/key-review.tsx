/// <reference lib="dom" />
/**
 * A pending API key in the review queue: its owner, plan and description, and the decision (a reason is required;
 * an enterprise key may get another rate limit on approval).
 */
import { useRef, useState } from 'preact/hooks';
import type { JSX } from 'preact';
import { AdminApproveKeyDocument, AdminRejectKeyDocument } from '../../generated/graphql.ts';
import type { AdminPendingKeysQuery } from '../../generated/graphql.ts';
import type { Api } from './api.ts';
import { errorText } from './api.ts';
import { checkLimit, checkNote, keyLabel, shortAddress } from './logic.ts';
import { DecideActions, NoteField } from './review-form.tsx';
import type { Decision } from './review-queue.tsx';
import { PLAN_NAMES, alreadyDecided, n, when } from './review-text.ts';

type Key = AdminPendingKeysQuery['reviewApiKeys'][number];

export function KeyItem(props: { k: Key; api: Api; done: (d: Omit<Decision, 'at'>) => void }): JSX.Element {
  const k = props.k;
  const id = `key-${k.id}`;
  const [reason, setReason] = useState('');
  const [limit, setLimit] = useState('');
  const [problem, setProblem] = useState<string | null>(null);
  const [limitProblem, setLimitProblem] = useState<string | null>(null);
  const [failure, setFailure] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const reasonRef = useRef<HTMLTextAreaElement>(null);
  const limitRef = useRef<HTMLInputElement>(null);
  const enterprise = k.plan === 'ENTERPRISE';
  const label = keyLabel(k.prefix);

  async function decide(action: 'approve' | 'reject') {
    setFailure(null);
    const p = checkNote(reason, 'reason');
    setProblem(p);
    const l =
      enterprise && action === 'approve' ? checkLimit(limit) : ({ ok: true, value: undefined } as const);
    setLimitProblem(l.ok ? null : l.message);
    if (p) return reasonRef.current?.focus();
    if (!l.ok) return limitRef.current?.focus();
    setBusy(true);
    try {
      if (action === 'approve') {
        const r = (
          await props.api.call(AdminApproveKeyDocument, {
            id: k.id,
            reason: reason.trim(),
            ...(l.value !== undefined ? { limitPerMinute: l.value } : {}),
          })
        ).approveApiKey;
        props.done({
          outcome: 'approved',
          text: `Approved key ${keyLabel(r.prefix)} (${PLAN_NAMES[r.plan] ?? r.plan}, ${n(r.limitPerMinute)} requests/min): it works on the APIs now.`,
        });
      } else {
        const r = (await props.api.call(AdminRejectKeyDocument, { id: k.id, reason: reason.trim() }))
          .rejectApiKey;
        props.done({
          outcome: 'rejected',
          text: `Rejected key ${keyLabel(r.prefix)}: the owner sees the reason “${r.rejectionReason ?? reason.trim()}”`,
        });
      }
    } catch (e) {
      setBusy(false);
      if (alreadyDecided(e))
        props.done({ outcome: 'gone', text: `Key ${label} was already decided elsewhere: ${errorText(e)}` });
      else setFailure(errorText(e));
    }
  }

  return (
    <article class="item" data-testid="key-item" data-id={k.id} aria-labelledby={`${id}-h`}>
      <h4 id={`${id}-h`}>
        Key <code>{label}</code> · {PLAN_NAMES[k.plan] ?? k.plan}
      </h4>
      <dl>
        <dt>Owner</dt>
        <dd>
          {k.owner ? (
            <code title={k.owner.address}>{shortAddress(k.owner.address)}</code>
          ) : (
            'no owner (issued by an operator)'
          )}
        </dd>
        <dt>Plan</dt>
        <dd>
          {PLAN_NAMES[k.plan] ?? k.plan}, {n(k.limitPerMinute)} requests per minute
        </dd>
        <dt>Description</dt>
        <dd class="text">{k.description}</dd>
        <dt>Requested</dt>
        <dd>{when(k.createdAt)}</dd>
      </dl>
      <form class="decide" onSubmit={(e) => e.preventDefault()} aria-label={`Decide on key ${label}`}>
        <NoteField
          id={`${id}-reason`}
          label="Reason (required)"
          hint="Goes to the audit log; when the key is rejected the owner sees it. Up to 500 characters."
          value={reason}
          problem={problem}
          busy={busy}
          fieldRef={reasonRef}
          onInput={(v) => {
            setReason(v);
            if (problem) setProblem(checkNote(v, 'reason'));
          }}
        />
        {enterprise && (
          <>
            <label for={`${id}-limit`}>Requests per minute on approval (optional, up to 10,000)</label>
            <input
              id={`${id}-limit`}
              ref={limitRef}
              inputMode="numeric"
              value={limit}
              placeholder={String(k.limitPerMinute)}
              onInput={(e) => setLimit(e.currentTarget.value)}
              aria-invalid={limitProblem ? 'true' : 'false'}
              aria-describedby={limitProblem ? `${id}-limit-err` : undefined}
              disabled={busy}
            />
            {limitProblem && (
              <p id={`${id}-limit-err`} class="field-error">
                {limitProblem}
              </p>
            )}
          </>
        )}
        <DecideActions noun="key" busy={busy} failure={failure} decide={(a) => void decide(a)} />
      </form>
    </article>
  );
}
