/**
 * The document the Hive engine hands the runtime's planner, mending two faults of `@graphql-hive/router-runtime` 1.4
 * (found by `test/graph/direct-execution.test.ts`'s seeded random operations, pinned in `differential.test.ts`, where
 * the stock runtime still shows them):
 *
 * - One response key selected twice in a selection set (`confidence { to } confidence { from }`, or
 *   `list { a: symbol } list { symbol }`): the runtime builds the answer by walking the document and merges the two
 *   values without regard to lists, so a list comes back twice as long, each element holding half the fields (its JS
 *   planner fails outright when one occurrence is skipped). graphql-js merges the occurrences first (CollectFields),
 *   and so does `withRepeatedFieldsMerged`: the occurrences `@skip`/`@include` leave in become one field with their
 *   selections together, at the place of the first one left in (where graphql-js puts the key), recursively.
 *   Documents without a repeated key go through untouched; the others are rewritten once per document and per value
 *   of the variables their conditions read, so the runtime's plan cache (by document) keeps working.
 * - Every root selection skipped by `@skip`/`@include`: the Rust planner fails (a 500) instead of answering `{}`;
 *   the engine answers `{}` itself (`allRootSkipped`).
 */
import { LRUCache } from 'lru-cache';
import {
  BREAK,
  getDirectiveValues,
  GraphQLIncludeDirective,
  GraphQLSkipDirective,
  Kind,
  visit,
} from 'graphql';
import type {
  DirectiveNode,
  DocumentNode,
  FieldNode,
  OperationDefinitionNode,
  SelectionNode,
  SelectionSetNode,
} from 'graphql';

type Variables = Readonly<Record<string, unknown>>;

/** Per document: null when no selection set repeats a key, else the variables its conditions read and the rewrites. */
const rewrites = new WeakMap<
  DocumentNode,
  { reads: string[]; byValues: LRUCache<string, DocumentNode> } | null
>();
const MAX_REWRITES_PER_DOCUMENT = 64;

/** Whether every root selection of `operation` is left out by `@skip`/`@include`: the answer is then `{}`. */
export function allRootSkipped(operation: OperationDefinitionNode, variables: Variables): boolean {
  return operation.selectionSet.selections.every((s) => skipped(s, variables));
}

/** `document` with every repeated response key merged for these variables; `document` itself when none repeats. */
export function withRepeatedFieldsMerged(document: DocumentNode, variables: Variables): DocumentNode {
  let entry = rewrites.get(document);
  if (entry === undefined) {
    entry = repeatsAKey(document)
      ? { reads: conditionVariables(document), byValues: new LRUCache({ max: MAX_REWRITES_PER_DOCUMENT }) }
      : null;
    rewrites.set(document, entry);
  }
  if (entry === null) return document;
  const values = entry.reads.map((v) => (variables[v] ? '1' : '0')).join('');
  let merged = entry.byValues.get(values);
  if (!merged) {
    merged = visit(document, { SelectionSet: { leave: (set) => mergeSet(set, variables) } });
    entry.byValues.set(values, merged);
  }
  return merged;
}

/** Whether `@skip`/`@include` leave this selection out for these variables (graphql-js's own rule). */
function skipped(node: SelectionNode, variables: Variables): boolean {
  const vars = variables as Record<string, unknown>;
  return (
    getDirectiveValues(GraphQLSkipDirective, node, vars)?.['if'] === true ||
    getDirectiveValues(GraphQLIncludeDirective, node, vars)?.['if'] === false
  );
}

const responseKey = (f: FieldNode): string => f.alias?.value ?? f.name.value;
const isCondition = (d: DirectiveNode): boolean => d.name.value === 'skip' || d.name.value === 'include';

function repeatsAKey(document: DocumentNode): boolean {
  let repeats = false;
  visit(document, {
    SelectionSet(set) {
      const keys = new Set<string>();
      for (const sel of set.selections) {
        if (sel.kind !== Kind.FIELD) continue;
        const key = responseKey(sel);
        if (keys.has(key)) {
          repeats = true;
          return BREAK;
        }
        keys.add(key);
      }
    },
  });
  return repeats;
}

function conditionVariables(document: DocumentNode): string[] {
  const reads = new Set<string>();
  visit(document, {
    Directive(d) {
      if (!isCondition(d)) return;
      for (const a of d.arguments ?? []) if (a.value.kind === Kind.VARIABLE) reads.add(a.value.name.value);
    },
  });
  return [...reads];
}

/**
 * One selection set with its repeated keys merged (its nested sets are merged already: `visit` leaves inner sets
 * first, and the sets a merge puts together are merged again here).
 */
function mergeSet(set: SelectionSetNode, variables: Variables): SelectionSetNode {
  const groups = new Map<string, FieldNode[]>();
  let repeated = false;
  for (const sel of set.selections) {
    if (sel.kind !== Kind.FIELD) continue;
    const group = groups.get(responseKey(sel));
    if (group) {
      group.push(sel);
      repeated = true;
    } else groups.set(responseKey(sel), [sel]);
  }
  if (!repeated) return set;
  const selections: SelectionNode[] = [];
  for (const sel of set.selections) {
    if (sel.kind !== Kind.FIELD) {
      selections.push(sel);
      continue;
    }
    const group = groups.get(responseKey(sel)) ?? [sel];
    const kept = group.filter((f) => !skipped(f, variables));
    // The key goes where its first occurrence left in stands (the first one, when all are skipped).
    if (sel !== (kept[0] ?? group[0])) continue;
    if (group.length === 1 || kept.length === 0) {
      selections.push(sel);
      continue;
    }
    const inner = kept.flatMap((f) => f.selectionSet?.selections ?? []);
    selections.push({
      ...sel,
      directives: (sel.directives ?? []).filter((d) => !isCondition(d)),
      ...(sel.selectionSet
        ? { selectionSet: mergeSet({ ...sel.selectionSet, selections: inner }, variables) }
        : {}),
    });
  }
  return { ...set, selections };
}
