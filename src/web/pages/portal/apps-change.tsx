/// <reference lib="dom" />
/**
 * One change of an app from its card (origins, a key's policy, a version, the publish token): run it, hand the app as
 * it now is to the list, announce it; or show the API's refusal, with its code, where the change was asked.
 */
import type { JSX } from 'preact';
import { useState } from 'preact/hooks';
import { appsApi } from './apps-api.ts';
import type { App } from './apps-logic.ts';
import { errorText } from './ui.tsx';

export interface AppChange {
  /** Which change is under way (its place), or null. */
  busy: string | null;
  /**
   * Runs `change` for the place `where`; a change that answers no app (a version, a token) is followed by the app as
   * the server now has it. `done` is announced to screen readers.
   */
  run: (where: string, change: () => Promise<App | null>, done: string | null) => Promise<void>;
  /** The refusal of the last change at `where`, as a `role=alert` paragraph, or nothing. */
  alert: (where: string) => JSX.Element | null;
}

export function useAppChange(props: {
  app: App;
  onChanged: (app: App) => void;
  announce: (m: string) => void;
  onError: (e: unknown) => boolean;
}): AppChange {
  const [busy, setBusy] = useState<string | null>(null);
  const [refusal, setRefusal] = useState<{ where: string; text: string } | null>(null);
  async function run(where: string, change: () => Promise<App | null>, done: string | null) {
    setBusy(where);
    setRefusal(null);
    try {
      const app = (await change()) ?? (await appsApi.get(props.app.name));
      props.onChanged(app);
      if (done) props.announce(done);
    } catch (err) {
      if (!props.onError(err)) setRefusal({ where, text: errorText(err) });
    } finally {
      setBusy(null);
    }
  }
  const alert = (where: string) =>
    refusal?.where === where ? (
      <p class="alert" role="alert" data-testid={`${where}-error`}>
        {refusal.text}
      </p>
    ) : null;
  return { busy, run, alert };
}
