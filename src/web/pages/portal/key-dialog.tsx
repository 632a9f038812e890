/// <reference lib="dom" />
/** A secret shown once in a modal dialog with a copy button (the clipboard, else a selection to copy). */
import type { ComponentChildren, JSX } from 'preact';
import { useEffect, useRef, useState } from 'preact/hooks';

/** Whether this document may write to the clipboard (a wallet's frame may not be allowed to). */
function clipboardAllowed(): boolean {
  if (!navigator.clipboard) return false;
  const policy = (document as { featurePolicy?: { allowsFeature(f: string): boolean } }).featurePolicy;
  return policy ? policy.allowsFeature('clipboard-write') : true;
}

/** Puts `text` on the clipboard; falls back to selecting `input` and the legacy copy command. */
export async function copyText(text: string, input: HTMLInputElement | null): Promise<'copied' | 'selected'> {
  try {
    if (!clipboardAllowed()) throw new Error('no clipboard API here');
    await navigator.clipboard.writeText(text);
    return 'copied';
  } catch {
    input?.focus();
    input?.select();
    try {
      return document.execCommand('copy') ? 'copied' : 'selected';
    } catch {
      return 'selected';
    }
  }
}

/**
 * A secret shown this once (a new API key, an app's publish token): a modal dialog (focus inside, Escape or Done
 * closes it, focus goes back) with a copy button. `name` (`key`, `token`) names its parts' ids and test ids.
 */
export function SecretDialog(props: {
  name: string;
  title: string;
  /** Why to copy it now. */
  once: string;
  /** The secret's accessible label. */
  label: string;
  secret: string;
  onClose: () => void;
  children?: ComponentChildren;
}): JSX.Element {
  const ref = useRef<HTMLDialogElement>(null);
  const inputRef = useRef<HTMLInputElement>(null);
  const copyRef = useRef<HTMLButtonElement>(null);
  const [copied, setCopied] = useState<string>('');
  const n = props.name;

  useEffect(() => {
    const d = ref.current;
    if (!d) return;
    if (!d.open) d.showModal();
    copyRef.current?.focus();
    const onClose = () => props.onClose();
    d.addEventListener('close', onClose);
    return () => d.removeEventListener('close', onClose);
  }, []);

  async function copy() {
    const how = await copyText(props.secret, inputRef.current);
    setCopied(
      how === 'copied'
        ? 'Copied to the clipboard.'
        : `The ${n} is selected: press Ctrl+C (⌘C on a Mac) to copy it.`,
    );
  }

  return (
    <dialog
      ref={ref}
      class="secret"
      aria-labelledby={`${n}-dialog-h`}
      aria-describedby={`${n}-dialog-once`}
      data-testid={`${n}-dialog`}
    >
      <h2 id={`${n}-dialog-h`}>{props.title}</h2>
      <p id={`${n}-dialog-once`} class="once">
        {props.once}
      </p>
      <div class="secret-row">
        <label class="sr-only" for={`new-${n}`}>
          {props.label}
        </label>
        <input
          id={`new-${n}`}
          ref={inputRef}
          type="text"
          readOnly
          value={props.secret}
          data-testid={`new-${n}`}
          onFocus={(e) => (e.target as HTMLInputElement).select()}
        />
        <button type="button" ref={copyRef} class="primary" onClick={copy} data-testid={`copy-${n}`}>
          Copy
        </button>
      </div>
      <p role="status" aria-live="polite" class="muted" data-testid="copy-status">
        {copied}
      </p>
      {props.children}
      <div class="actions">
        <button type="button" onClick={() => ref.current?.close()} data-testid={`${n}-dialog-done`}>
          I have stored it — close
        </button>
      </div>
    </dialog>
  );
}

/** The new key, shown this once. */
export function KeyDialog(props: {
  secret: string;
  prefix: string;
  state: string;
  onClose: () => void;
}): JSX.Element {
  return (
    <SecretDialog
      name="key"
      title="Your new API key"
      once="Copy it now: you will not see this key again. The server keeps only a fingerprint of it."
      label={`API key ${props.prefix}`}
      secret={props.secret}
      onClose={props.onClose}
    >
      <p data-testid="key-dialog-state">{props.state}</p>
    </SecretDialog>
  );
}
