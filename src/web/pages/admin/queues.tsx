/// <reference lib="dom" />
/**
 * The review queues: pending API keys and submitted dapps, oldest first. Every decision needs a reason (keys) or
 * notes (dapps), checked inline before anything is sent; once the server confirms, the item leaves its queue at once,
 * focus moves to the queue's heading, the page's status line says what happened, and the decision joins the list
 * of this session's decisions.
 */
import { useEffect, useRef, useState } from 'preact/hooks';
import type { JSX } from 'preact';
import {
  AdminAdminsDocument,
  AdminApproveDappDocument,
  AdminApproveKeyDocument,
  AdminPendingKeysDocument,
  AdminRejectDappDocument,
  AdminRejectKeyDocument,
  AdminSubmittedDappsDocument,
} from '../../generated/graphql.ts';
import type {
  AdminAdminsQuery,
  AdminPendingKeysQuery,
  AdminSubmittedDappsQuery,
} from '../../generated/graphql.ts';
import { GraphError } from '../../shared/graph.ts';
import type { Api } from './api.ts';
import { errorText } from './api.ts';
import { checkLimit, checkNote, dayClock, keyLabel, shortAddress } from './logic.ts';

type Key = AdminPendingKeysQuery['reviewApiKeys'][number];
type Dapp = AdminSubmittedDappsQuery['reviewDapps'][number];

export interface Decision {
  at: number;
  text: string;
  outcome: 'approved' | 'rejected' | 'gone';
}

const PLAN_NAMES: Record<string, string> = { FREE: 'Free', PRO: 'Pro', ENTERPRISE: 'Enterprise' };
const n = (v: number) => v.toLocaleString('en-US');
const when = (iso: string) => `${dayClock(Date.parse(iso))} UTC`;

/** A server answer meaning "someone already decided this" (the item is no longer in the queue). */
const alreadyDecided = (e: unknown) => e instanceof GraphError && /STATE_CONFLICT|NOT_FOUND/.test(e.code);

export function Queues(props: { api: Api; announce: (text: string) => void }): JSX.Element {
  const [decisions, setDecisions] = useState<Decision[]>([]);
  const record = (d: Decision) => {
    setDecisions((all) => [d, ...all].slice(0, 20));
    props.announce(d.text);
  };
  return (
    <>
      <div class="queues">
        <Queue
          id="key-queue"
          title="Pending API keys"
          empty="No keys are waiting for review."
          load={async () => (await props.api.call(AdminPendingKeysDocument, {})).reviewApiKeys}
          record={record}
          item={(k, done) => <KeyItem k={k} api={props.api} done={done} />}
        />
        <Queue
          id="dapp-queue"
          title="Submitted dapps"
          empty="No dapps are waiting for review."
          load={async () => (await props.api.call(AdminSubmittedDappsDocument, {})).reviewDapps}
          record={record}
          item={(d, done) => <DappItem d={d} api={props.api} done={done} />}
        />
      </div>
      <section aria-labelledby="decided-h" class="panel">
        <h3 id="decided-h">Decided in this session</h3>
        {decisions.length === 0 ? (
          <p class="muted">No decisions yet.</p>
        ) : (
          <ul class="decisions" data-testid="decisions">
            {decisions.map((d) => (
              <li class={`decision ${d.outcome}`}>
                <span class="badge">{d.outcome}</span> {d.text}{' '}
                <span class="muted">({new Date(d.at).toISOString().slice(11, 19)} UTC)</span>
              </li>
            ))}
          </ul>
        )}
      </section>
      <Admins api={props.api} />
    </>
  );
}

/** Loads a queue; `remove` drops one item at once (after the server confirmed a decision). */
function useQueue<T extends { id: string }>(load: () => Promise<T[]>) {
  const [items, setItems] = useState<T[] | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [loading, setLoading] = useState(false);
  const refresh = async () => {
    setLoading(true);
    try {
      setItems(await load());
      setError(null);
    } catch (e) {
      setError(errorText(e));
    } finally {
      setLoading(false);
    }
  };
  useEffect(() => {
    void refresh();
  }, []);
  const remove = (id: string) => setItems((all) => (all ?? []).filter((i) => i.id !== id));
  return { items, error, loading, refresh, remove };
}

function QueueFrame(props: {
  id: string;
  title: string;
  count: number | null;
  loading: boolean;
  error: string | null;
  refresh: () => void;
  headingRef: { current: HTMLHeadingElement | null };
  empty: string;
  children: JSX.Element | null;
}): JSX.Element {
  return (
    <section
      aria-labelledby={`${props.id}-h`}
      class="panel queue"
      data-testid={props.id}
      aria-busy={props.loading}
    >
      <div class="panel-head">
        <h3 id={`${props.id}-h`} tabIndex={-1} ref={props.headingRef}>
          {props.title}{' '}
          <span class="count" data-testid={`${props.id}-count`}>
            {props.count === null ? '' : `(${props.count})`}
          </span>
        </h3>
        <button type="button" class="secondary" onClick={props.refresh} disabled={props.loading}>
          {props.loading ? 'Loading…' : 'Refresh'}
          <span class="sr-only"> {props.title.toLowerCase()}</span>
        </button>
      </div>
      {props.error && (
        <p role="alert" class="error">
          Could not load the queue: {props.error}
        </p>
      )}
      {props.count === 0 && <p class="muted">{props.empty}</p>}
      {props.children}
    </section>
  );
}

// ---------------------------------------------------------------------------------------------------------------

/**
 * One review queue: loads its items, lists them, and on a confirmed decision drops the item, records the decision and
 * moves focus to the queue's heading.
 */
function Queue<T extends { id: string }>(props: {
  id: string;
  title: string;
  empty: string;
  load: () => Promise<T[]>;
  record: (d: Decision) => void;
  item: (t: T, done: (d: Omit<Decision, 'at'>) => void) => JSX.Element;
}): JSX.Element {
  const q = useQueue<T>(props.load);
  const heading = useRef<HTMLHeadingElement>(null);
  const done = (t: T, d: Omit<Decision, 'at'>) => {
    q.remove(t.id);
    props.record({ ...d, at: Date.now() });
    heading.current?.focus();
  };
  return (
    <QueueFrame
      id={props.id}
      title={props.title}
      count={q.items?.length ?? null}
      loading={q.loading}
      error={q.error}
      refresh={() => void q.refresh()}
      headingRef={heading}
      empty={props.empty}
    >
      {q.items && q.items.length > 0 ? (
        <ul class="items">
          {q.items.map((t) => (
            <li key={t.id}>{props.item(t, (d) => done(t, d))}</li>
          ))}
        </ul>
      ) : null}
    </QueueFrame>
  );
}

function KeyItem(props: { k: Key; api: Api; done: (d: Omit<Decision, 'at'>) => void }): JSX.Element {
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

// ---------------------------------------------------------------------------------------------------------------

function DappItem(props: { d: Dapp; api: Api; done: (d: Omit<Decision, 'at'>) => void }): JSX.Element {
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
          <a href={`mailto:${d.contactEmail}`}>{d.contactEmail}</a>
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

/**
 * The required text of a decision (a key's reason, a dapp's notes): its hint, and the problem (checked inline) tied to
 * it for screen readers. Element ids: `id`, `${id}-hint`, `${id}-err`.
 */
function NoteField(props: {
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
function DecideActions(props: {
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

// ---------------------------------------------------------------------------------------------------------------

function Admins(props: { api: Api }): JSX.Element {
  const [admins, setAdmins] = useState<AdminAdminsQuery['admins'] | null>(null);
  const [error, setError] = useState<string | null>(null);
  useEffect(() => {
    props.api.call(AdminAdminsDocument, {}).then(
      (r) => setAdmins(r.admins),
      (e: unknown) => setError(errorText(e)),
    );
  }, []);
  return (
    <section aria-labelledby="admins-h" class="panel">
      <h3 id="admins-h">Administrators</h3>
      {error && <p class="error">Could not load them: {error}</p>}
      {admins && admins.length === 0 && (
        <p class="muted">
          None yet: only the operator token reviews. Grant one with{' '}
          <code>coinwallet admin grant &lt;LTC address&gt;</code>.
        </p>
      )}
      {admins && admins.length > 0 && (
        <ul class="admins">
          {admins.map((a) => (
            <li>
              <code>{a.address}</code> <span class="muted">since {when(a.createdAt)}</span>
            </li>
          ))}
        </ul>
      )}
    </section>
  );
}
