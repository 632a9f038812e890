/**
 * Where the Rust query planner (`@graphql-hive/router-runtime` 1.4) answers wrongly, so that the Hive engine sends
 * those queries to a runtime on the JS planner instead. Both were found by `test/graph/direct-execution.test.ts`'s
 * seeded random operations and are pinned in `test/graph/differential.test.ts` (the stock runtime still answers them
 * wrongly; our Hive engine does not):
 *
 * - one field with the same arguments selected under two response keys in one merged selection set
 *   (`list { a: symbol } list { symbol }`): one of the keys is missing from the answer. Such a query goes to a
 *   runtime on the JS planner (the check is conservative: type conditions are ignored). Verdicts are kept per text.
 * - `@include` / `@skip`: an operation whose root selections are all skipped fails (a 500) instead of answering `{}`.
 *   The engine answers `{}` itself then (`allRootSkipped`). (The JS planner is no refuge here: it fails on a field
 *   selected twice, once under `@include(if: false)`.)
 */
import {
  getDirectiveValues,
  GraphQLIncludeDirective,
  GraphQLSkipDirective,
  Kind,
  parse,
  print,
} from 'graphql';
import type {
  FragmentDefinitionNode,
  OperationDefinitionNode,
  SelectionNode,
  SelectionSetNode,
} from 'graphql';
import type { KeyValueCache } from '@apollo/utils.keyvaluecache';
import type { EngineRequest } from '../engine.ts';
import { apqKey, requested } from './hive-http.ts';

const MAX_VERDICTS = 1_000;
const verdicts = new Map<string, boolean>();

/** Whether some merged selection set of `query` holds one field (name and arguments) under two response keys. */
export function rustPlannerMisanswers(query: string): boolean {
  let v = verdicts.get(query);
  if (v === undefined) {
    try {
      const doc = parse(query);
      const fragments = new Map<string, FragmentDefinitionNode>();
      for (const d of doc.definitions)
        if (d.kind === Kind.FRAGMENT_DEFINITION) fragments.set(d.name.value, d);
      v = doc.definitions.some(
        (d) => d.kind === Kind.OPERATION_DEFINITION && twoKeysForOneField([d.selectionSet], fragments),
      );
    } catch {
      v = false; // unparsable: the runtime reports it
    }
    if (verdicts.size >= MAX_VERDICTS) verdicts.clear();
    verdicts.set(query, v);
  }
  return v;
}

function twoKeysForOneField(
  sets: readonly SelectionSetNode[],
  fragments: ReadonlyMap<string, FragmentDefinitionNode>,
): boolean {
  const byKey = new Map<string, SelectionSetNode[]>();
  const keysOf = new Map<string, Set<string>>();
  const seen = new Set<string>();
  const collect = (set: SelectionSetNode): void => {
    for (const sel of set.selections) {
      if (sel.kind === Kind.FIELD) {
        const key = sel.alias?.value ?? sel.name.value;
        const field = `${sel.name.value}(${(sel.arguments ?? []).map((a) => print(a)).join(',')})`;
        const keys = keysOf.get(field) ?? new Set<string>();
        keys.add(key);
        keysOf.set(field, keys);
        const subs = byKey.get(key) ?? [];
        if (sel.selectionSet) subs.push(sel.selectionSet);
        byKey.set(key, subs);
      } else if (sel.kind === Kind.INLINE_FRAGMENT) collect(sel.selectionSet);
      else if (!seen.has(sel.name.value)) {
        seen.add(sel.name.value);
        const f = fragments.get(sel.name.value);
        if (f) collect(f.selectionSet);
      }
    }
  };
  for (const set of sets) collect(set);
  for (const keys of keysOf.values()) if (keys.size > 1) return true;
  for (const subs of byKey.values()) if (subs.length > 0 && twoKeysForOneField(subs, fragments)) return true;
  return false;
}

/** The query text a request will run: its `query`, or the text an APQ hash stands for; null when unknown. */
export async function queryText(
  req: EngineRequest,
  apq: KeyValueCache<string> | null,
): Promise<string | null> {
  const r = requested(req.search, req.body);
  if (r.query !== undefined) return r.query;
  return apq && r.apqHash !== undefined ? ((await apq.get(apqKey(r.apqHash))) ?? null) : null;
}

/** Whether `@skip`/`@include` leave this selection out for these variables (graphql-js's own rule). */
function skipped(node: SelectionNode, variables: Record<string, unknown>): boolean {
  return (
    getDirectiveValues(GraphQLSkipDirective, node, variables)?.['if'] === true ||
    getDirectiveValues(GraphQLIncludeDirective, node, variables)?.['if'] === false
  );
}

/** Whether every root selection of `operation` is left out by `@skip`/`@include`: the answer is then `{}`. */
export function allRootSkipped(
  operation: OperationDefinitionNode,
  variables: Readonly<Record<string, unknown>>,
): boolean {
  const vars = variables as Record<string, unknown>;
  return operation.selectionSet.selections.every((s) => skipped(s, vars));
}
