/// <reference lib="dom" />
/** The new key, shown once in a modal dialog with a copy button (the clipboard, else a selection to copy). */
import type { JSX } from 'preact';
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

/** The new key, shown this once: a modal dialog (focus inside, Escape or Done closes it, focus goes back). */
export function KeyDialog(props: {
  secret: string;
  prefix: string;
  state: string;
  onClose: () => void;
}): JSX.Element {
  const ref = useRef<HTMLDialogElement>(null);
  const inputRef = useRef<HTMLInputElement>(null);
  const copyRef = useRef<HTMLButtonElement>(null);
  const [copied, setCopied] = useState<string>('');

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
        : 'The key is selected: press Ctrl+C (⌘C on a Mac) to copy it.',
    );
  }

  return (
    <dialog
      ref={ref}
      class="secret"
      aria-labelledby="key-dialog-h"
      aria-describedby="key-dialog-once"
      data-testid="key-dialog"
    >
      <h2 id="key-dialog-h">Your new API key</h2>
      <p id="key-dialog-once" class="once">
        Copy it now: you will not see this key again. The server keeps only a fingerprint of it.
      </p>
      <div class="secret-row">
        <label class="sr-only" for="new-key">
          API key {props.prefix}
        </label>
        <input
          id="new-key"
          ref={inputRef}
          type="text"
          readOnly
          value={props.secret}
          data-testid="new-key"
          onFocus={(e) => (e.target as HTMLInputElement).select()}
        />
        <button type="button" ref={copyRef} class="primary" onClick={copy} data-testid="copy-key">
          Copy
        </button>
      </div>
      <p role="status" aria-live="polite" class="muted" data-testid="copy-status">
        {copied}
      </p>
      <p data-testid="key-dialog-state">{props.state}</p>
      <div class="actions">
        <button type="button" onClick={() => ref.current?.close()} data-testid="key-dialog-done">
          I have stored it — close
        </button>
      </div>
    </dialog>
  );
}
