/**
 * What changed between two events of one subscription, pure. A subscription has one root field (GraphQL's rule);
 * its value is compared as JSON, the way a client would see it:
 *
 * - `itemised` root fields (`prices`: one item per coin, in the order of `ids`) send only the items that changed;
 *   when the list itself changed length, all of it;
 * - any other root field (`markets`: a ranking) is sent whole when anything in it changed.
 */

/** Root fields of `Subscription` whose events carry only the list items that changed (docs/graph.md). */
export const ITEMISED_FIELDS: ReadonlySet<string> = new Set(['prices']);

/** One computed event, kept to compare the next one with. */
export interface Computed {
  /** The response key of the root field (its alias, else its name). */
  key: string;
  value: unknown;
  /** The value as JSON: the whole value, or one string per item of an itemised list. */
  json: string | readonly string[];
}

export function computed(key: string, value: unknown, itemised: boolean): Computed {
  const json = itemised && Array.isArray(value) ? value.map((v) => JSON.stringify(v)) : JSON.stringify(value);
  return { key, value, json };
}

/** True when both hold the same JSON. */
export function same(a: Computed, b: Computed): boolean {
  if (typeof a.json === 'string' || typeof b.json === 'string') return a.json === b.json;
  if (a.json.length !== b.json.length) return false;
  for (let i = 0; i < a.json.length; i++) if (a.json[i] !== b.json[i]) return false;
  return true;
}

/**
 * The data of the event that takes a subscriber from `prev` (what it was last sent; null: nothing it can be compared
 * with) to `next`: the whole value, or only the changed items of an itemised list; null when nothing changed.
 */
export function changes(prev: Computed | null, next: Computed): Record<string, unknown> | null {
  if (prev === null) return { [next.key]: next.value };
  if (same(prev, next)) return null;
  if (typeof next.json === 'string' || typeof prev.json === 'string' || prev.json.length !== next.json.length)
    return { [next.key]: next.value };
  const items = next.value as readonly unknown[];
  const changed: unknown[] = [];
  for (let i = 0; i < next.json.length; i++) if (next.json[i] !== prev.json[i]) changed.push(items[i]);
  return { [next.key]: changed };
}
