/// <reference lib="dom" />
/**
 * An app's publish token, shown this once in a modal dialog with a copy button, as a new API key is (key-dialog.tsx):
 * the server keeps only its hash. With it, the command a CI job runs to publish. And replacing it, confirmed first.
 */
import type { JSX } from 'preact';
import { useEffect, useRef, useState } from 'preact/hooks';
import { appsApi } from './apps-api.ts';
import type { AppChange } from './apps-change.tsx';
import { SecretDialog } from './key-dialog.tsx';

export function TokenDialog(props: { app: string; token: string; onClose: () => void }): JSX.Element {
  return (
    <SecretDialog
      name="token"
      title={`Publish token of ${props.app}`}
      once="Copy it now: it is shown this once. The server keeps only a fingerprint of it."
      label={`Publish token of ${props.app}`}
      secret={props.token}
      onClose={props.onClose}
    >
      <p>
        Store it as a secret of your CI and publish after codegen (it can publish and activate versions of
        this app, nothing else):
      </p>
      <pre class="cmd" data-testid="publish-command">
        <code>{`COINWALLET_PUBLISH_TOKEN=… coinwallet apps publish --url ${location.origin} --app ${props.app} --version "$GIT_COMMIT" --activate persisted-documents.json`}</code>
      </pre>
    </SecretDialog>
  );
}

/** A new publish token for the app, after a confirmation: the one a CI job holds stops working at once. */
export function RotateToken(props: {
  app: { id: string; name: string };
  change: AppChange;
  /** The new token, and where the focus goes when its dialog closes (the button that asked). */
  onToken: (app: string, token: string, back: () => HTMLElement | null) => void;
}): JSX.Element {
  const a = props.app;
  const { busy, run, alert } = props.change;
  const [rotating, setRotating] = useState(false);
  const askRef = useRef<HTMLButtonElement>(null);
  const confirmRef = useRef<HTMLButtonElement>(null);
  useEffect(() => {
    if (rotating) confirmRef.current?.focus();
  }, [rotating]);
  return (
    <>
      {rotating ? (
        <div class="confirm" role="group" aria-labelledby={`rotate-q-${a.id}`}>
          <p id={`rotate-q-${a.id}`}>
            Issue a new publish token for {a.name}? The token your CI holds stops working at once.
          </p>
          <div class="actions">
            <button
              type="button"
              class="danger"
              ref={confirmRef}
              disabled={busy !== null}
              data-testid="rotate-confirm"
              onClick={() =>
                void run(
                  'token',
                  async () => {
                    const r = await appsApi.rotateToken(a.name);
                    setRotating(false);
                    props.onToken(a.name, r.publishToken, () => askRef.current);
                    return null;
                  },
                  `A new publish token for ${a.name}: the previous one no longer works.`,
                )
              }
            >
              Yes, replace it
            </button>
            <button
              type="button"
              onClick={() => {
                setRotating(false);
                setTimeout(() => askRef.current?.focus(), 0);
              }}
            >
              Keep the current token
            </button>
          </div>
        </div>
      ) : (
        <div class="actions">
          <button type="button" ref={askRef} onClick={() => setRotating(true)} data-testid="rotate-token">
            New publish token…
          </button>
        </div>
      )}
      {alert('token')}
    </>
  );
}
