/// <reference lib="dom" />
/**
 * One review queue: loads its items, lists them oldest first, and on a decision the server confirmed drops the item
 * at once, records the decision and moves focus to the queue's heading.
 */
import { useEffect, useRef, useState } from 'preact/hooks';
import type { JSX } from 'preact';
import { errorText } from './api.ts';

/** A decision of this session, as the page lists it. */
export interface Decision {
  at: number;
  text: string;
  outcome: 'approved' | 'rejected' | 'gone';
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

/**
 * One review queue: loads its items, lists them, and on a confirmed decision drops the item, records the decision and
 * moves focus to the queue's heading.
 */
export function Queue<T extends { id: string }>(props: {
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
