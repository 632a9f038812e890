/// <reference lib="dom" />
/**
 * An app's versions on its card, newest first: each with its document count and date, active or not, and the button
 * that switches it (`POST …/versions/{version}/activate` or `/deactivate`); a refusal shown with its code.
 */
import type { JSX } from 'preact';
import { useState } from 'preact/hooks';
import { appsApi } from './apps-api.ts';
import type { AppVersion } from './apps-logic.ts';
import { documentsCount } from './apps-logic.ts';
import { When, errorText } from './ui.tsx';

/** The app's versions, newest first, each active or not with the button that switches it. */
export function VersionList(props: {
  app: string;
  versions: readonly AppVersion[];
  onChanged: (v: AppVersion) => void;
  announce: (m: string) => void;
  onError: (e: unknown) => boolean;
}): JSX.Element {
  const [busy, setBusy] = useState<string | null>(null);
  const [refusal, setRefusal] = useState<string | null>(null);

  async function toggle(v: AppVersion) {
    setBusy(v.version);
    setRefusal(null);
    try {
      const r = await appsApi.setActive(props.app, v.version, !v.active);
      props.onChanged(r);
      props.announce(`Version ${r.version} of ${props.app} is ${r.active ? 'active' : 'inactive'}.`);
    } catch (err) {
      if (!props.onError(err)) setRefusal(errorText(err));
    } finally {
      setBusy(null);
    }
  }

  if (props.versions.length === 0)
    return (
      <p class="muted" data-testid="no-versions">
        No version published yet.
      </p>
    );
  return (
    <>
      <ul class="versions" data-testid="versions">
        {props.versions.map((v) => (
          <li key={v.version} data-testid="version" data-version={v.version} data-active={String(v.active)}>
            <code class="version-name">{v.version}</code>
            <span class={`badge ${v.active ? 'approved' : 'revoked'}`} data-testid="version-state">
              {v.active ? 'Active' : 'Inactive'}
            </span>
            <span class="muted">
              {documentsCount(v.documents)}, published <When at={v.createdAt} />
            </span>
            <button
              type="button"
              disabled={busy !== null}
              onClick={() => void toggle(v)}
              aria-label={`${v.active ? 'Deactivate' : 'Activate'} version ${v.version}`}
              data-testid={v.active ? 'deactivate' : 'activate'}
            >
              {busy === v.version ? 'Saving…' : v.active ? 'Deactivate' : 'Activate'}
            </button>
          </li>
        ))}
      </ul>
      {refusal ? (
        <p class="alert" role="alert" data-testid="versions-error">
          {refusal}
        </p>
      ) : null}
    </>
  );
}
