/**
 * An incremental answer (`@defer`, `@stream`) put back together, so that its cost is measured on the whole of it: a
 * deferred fragment's fields cost what they would have cost undeferred (`measured.ts` walks the operation over the
 * data, directives other than `@skip`/`@include` ignored). The payloads are those of Hive Gateway's runtime (GraphQL
 * Yoga, the 2022 incremental delivery format): the first with `data`, each later one with `incremental` entries,
 * `{ data, path }` for a deferred fragment and `{ items, path }` for streamed items, `path` ending at the first item's
 * index.
 */

type Path = readonly (string | number)[];

/** One payload of an incremental answer, as far as its data goes. */
export interface IncrementalPayload {
  data?: unknown;
  incremental?:
    | readonly { data?: unknown; items?: readonly unknown[] | null | undefined; path?: Path | undefined }[]
    | null
    | undefined;
  hasNext?: boolean | undefined;
}

const isRecord = (v: unknown): v is Record<string, unknown> =>
  typeof v === 'object' && v !== null && !Array.isArray(v);

/** `patch`'s fields merged into `target`, objects field by field (a fragment may complete an object in part). */
function mergeInto(target: Record<string, unknown>, patch: Record<string, unknown>): void {
  for (const [k, v] of Object.entries(patch)) {
    const have = target[k];
    if (isRecord(have) && isRecord(v)) mergeInto(have, v);
    else if (Array.isArray(have) && Array.isArray(v))
      v.forEach((item, i) => {
        const at: unknown = have[i];
        if (isRecord(at) && isRecord(item)) mergeInto(at, item);
        else have[i] = item;
      });
    else target[k] = v;
  }
}

/** The value at `path` in `root`, or undefined when the answer has nothing there (a null parent). */
function at(root: unknown, path: Path): unknown {
  let v = root;
  for (const key of path) {
    if (v === null || typeof v !== 'object') return undefined;
    v = (v as Record<string | number, unknown>)[key];
  }
  return v;
}

/**
 * `whole` (the data so far; undefined before the first payload) with `payload` folded in. The first payload's data is
 * copied (the payloads stay as they were sent); later ones are folded into that copy.
 */
export function foldIncremental(whole: unknown, payload: IncrementalPayload): unknown {
  let out = whole;
  if (payload.data !== undefined && out === undefined) out = structuredClone(payload.data);
  for (const inc of payload.incremental ?? []) {
    const path = inc.path ?? [];
    if (inc.items) {
      const index = path[path.length - 1];
      const list = at(out, path.slice(0, -1));
      if (Array.isArray(list) && typeof index === 'number')
        inc.items.forEach((item, i) => (list[index + i] = item));
    } else if (isRecord(inc.data)) {
      const target = path.length === 0 ? out : at(out, path);
      if (isRecord(target)) mergeInto(target, inc.data);
    }
  }
  return out;
}
