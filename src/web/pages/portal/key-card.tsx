/// <reference lib="dom" />
/**
 * One of the account's keys: status, plan, limit, dates and last use, the rejection reason, revoking (with a
 * confirmation step) and the key's usage over the last hour.
 */
import type { JSX } from 'preact';
import { useEffect, useRef, useState } from 'preact/hooks';
import { gql } from '../../shared/graph.ts';
import { PortalRevokeApiKeyDocument } from '../../generated/graphql.ts';
import type { PortalApiKeyFragment } from '../../generated/graphql.ts';
import { planLabel } from './logic.ts';
import { KeyUsage } from './usage.tsx';
import { Badge, When, errorText } from './ui.tsx';

export function KeyCard(props: {
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
