/// <reference lib="dom" />
/**
 * "Developer API keys": request a key (what it is for, which plan), see the new key once in a dialog with a copy
 * button, the account's keys with status, plan, limit and last use, revoke (with a confirmation step) and each key's
 * usage over the last hour.
 */
import type { JSX } from 'preact';
import { useRef, useState } from 'preact/hooks';
import type { PortalApiKeyFragment } from '../../generated/graphql.ts';
import { KeyCard } from './key-card.tsx';
import { KeyDialog } from './key-dialog.tsx';
import { RequestKeyForm } from './key-request.tsx';
import { newKeyStateText } from './logic.ts';

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
