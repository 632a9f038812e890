/// <reference lib="dom" />
/**
 * The review queues: pending API keys and submitted dapps, oldest first. Every decision needs a reason (keys) or
 * notes (dapps), checked inline before anything is sent; once the server confirms, the item leaves its queue at once,
 * focus moves to the queue's heading, the page's status line says what happened, and the decision joins the list
 * of this session's decisions.
 */
import { useEffect, useState } from 'preact/hooks';
import type { JSX } from 'preact';
import {
  AdminAdminsDocument,
  AdminPendingKeysDocument,
  AdminSubmittedDappsDocument,
} from '../../generated/graphql.ts';
import type { AdminAdminsQuery } from '../../generated/graphql.ts';
import type { Api } from './api.ts';
import { errorText } from './api.ts';
import { DappItem } from './dapp-review.tsx';
import { KeyItem } from './key-review.tsx';
import type { Decision } from './review-queue.tsx';
import { Queue } from './review-queue.tsx';
import { when } from './review-text.ts';

export type { Decision } from './review-queue.tsx';

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
