/// <reference lib="dom" />
/**
 * Publishing a version of an app from the portal: a manifest file (the client preset's persisted-documents.json or
 * Apollo's persisted query manifest), a version label, and whether it becomes active at once (off by default, as
 * the API's and the CLI's `--activate`). The file's text is sent as written; the server checks every document and a
 * refusal (DOCUMENT_HASH_MISMATCH, DOCUMENT_INVALID, VERSION_EXISTS…) is shown with its code, naming the document.
 */
import type { JSX } from 'preact';
import { useRef, useState } from 'preact/hooks';
import { appsApi } from './apps-api.ts';
import type { AppVersion } from './apps-logic.ts';
import { manifestFileError, publishBody, versionError } from './apps-logic.ts';
import { errorText } from './ui.tsx';

export function PublishForm(props: {
  app: string;
  onPublished: (v: AppVersion) => void;
  onError: (e: unknown) => boolean;
}): JSX.Element {
  const [version, setVersion] = useState('');
  const [file, setFile] = useState<File | null>(null);
  const [activate, setActivate] = useState(false);
  const [touched, setTouched] = useState(false);
  const [busy, setBusy] = useState(false);
  const [refusal, setRefusal] = useState<string | null>(null);
  const versionRef = useRef<HTMLInputElement>(null);
  const fileRef = useRef<HTMLInputElement>(null);
  const id = (s: string) => `pub-${props.app}-${s}`;

  const versionErr = touched ? versionError(version) : null;
  const fileErr = touched ? manifestFileError(file) : null;

  async function submit(e: Event) {
    e.preventDefault();
    setTouched(true);
    setRefusal(null);
    if (manifestFileError(file) !== null) return fileRef.current?.focus();
    if (versionError(version) !== null) return versionRef.current?.focus();
    setBusy(true);
    try {
      const text = await (file as File).text();
      const v = await appsApi.publish(props.app, publishBody(version, text, activate));
      setVersion('');
      setFile(null);
      setActivate(false);
      setTouched(false);
      if (fileRef.current) fileRef.current.value = '';
      props.onPublished(v);
    } catch (err) {
      if (!props.onError(err)) setRefusal(errorText(err));
    } finally {
      setBusy(false);
    }
  }

  return (
    <form
      class="stack publish"
      noValidate
      onSubmit={submit}
      aria-labelledby={id('h')}
      data-testid="publish-form"
    >
      <h5 id={id('h')}>Publish a version</h5>
      <div class="field">
        <label for={id('file')}>Manifest file</label>
        <input
          id={id('file')}
          ref={fileRef}
          type="file"
          accept=".json,application/json"
          aria-invalid={fileErr ? 'true' : 'false'}
          aria-describedby={[id('file-hint'), fileErr ? id('file-err') : ''].filter(Boolean).join(' ')}
          data-testid="publish-file"
          onChange={(e) => {
            setFile((e.target as HTMLInputElement).files?.[0] ?? null);
            setRefusal(null);
          }}
        />
        <p class="hint" id={id('file-hint')}>
          persisted-documents.json from the client preset, or an Apollo persisted query manifest; at most 1
          MiB and 2,000 documents. Every document is checked against the API schema and priced before anything
          is kept.
        </p>
        {fileErr ? (
          <p class="field-error" id={id('file-err')} data-testid="publish-file-error">
            {fileErr}
          </p>
        ) : null}
      </div>
      <div class="field">
        <label for={id('version')}>Version</label>
        <input
          id={id('version')}
          ref={versionRef}
          type="text"
          value={version}
          maxLength={64}
          autoComplete="off"
          spellcheck={false}
          placeholder="1.4.0"
          aria-invalid={versionErr ? 'true' : 'false'}
          aria-describedby={[id('version-hint'), versionErr ? id('version-err') : '']
            .filter(Boolean)
            .join(' ')}
          data-testid="publish-version"
          onInput={(e) => setVersion((e.target as HTMLInputElement).value)}
        />
        <p class="hint" id={id('version-hint')}>
          A release or a commit hash. Versions are immutable: a new build is a new version.
        </p>
        {versionErr ? (
          <p class="field-error" id={id('version-err')} data-testid="publish-version-error">
            {versionErr}
          </p>
        ) : null}
      </div>
      <label class="choice">
        <input
          type="checkbox"
          checked={activate}
          data-testid="publish-activate"
          onChange={(e) => setActivate((e.target as HTMLInputElement).checked)}
        />
        <span>
          Activate it now (its documents run on the app’s keys at once; other active versions stay active)
        </span>
      </label>
      {refusal ? (
        <p class="alert" role="alert" data-testid="publish-error">
          {refusal}
        </p>
      ) : null}
      <div class="actions">
        <button type="submit" class="primary" disabled={busy} data-testid="publish">
          {busy ? 'Checking and publishing…' : 'Publish'}
        </button>
        {file && !fileErr ? (
          <span class="muted">
            {file.name}, {file.size.toLocaleString('en-US')} bytes
          </span>
        ) : null}
      </div>
    </form>
  );
}
