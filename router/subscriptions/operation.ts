/**
 * Pure helpers over a validated subscription: its one root field (GraphQL allows exactly one, possibly inside
 * fragments), the number of coins it asks for, and the text the markets subgraph executes for it (the operation and
 * the fragments it uses, nothing else of the document).
 */
import { getArgumentValues, Kind, print } from 'graphql';
import type {
  DocumentNode,
  FieldNode,
  FragmentDefinitionNode,
  GraphQLSchema,
  OperationDefinitionNode,
  SelectionSetNode,
} from 'graphql';

/** The root field of a subscription operation: the first field found, fragments followed. */
export function rootField(
  operation: OperationDefinitionNode,
  fragments: ReadonlyMap<string, FragmentDefinitionNode>,
): FieldNode | null {
  const seen = new Set<string>();
  const find = (set: SelectionSetNode): FieldNode | null => {
    for (const sel of set.selections) {
      if (sel.kind === Kind.FIELD) {
        if (sel.name.value !== '__typename') return sel;
      } else if (sel.kind === Kind.INLINE_FRAGMENT) {
        const f = find(sel.selectionSet);
        if (f) return f;
      } else {
        const frag = fragments.get(sel.name.value);
        if (!frag || seen.has(frag.name.value)) continue;
        seen.add(frag.name.value);
        const f = find(frag.selectionSet);
        if (f) return f;
      }
    }
    return null;
  };
  return find(operation.selectionSet);
}

/** The fragments of a document by name. */
export function fragmentsOf(document: DocumentNode): Map<string, FragmentDefinitionNode> {
  const out = new Map<string, FragmentDefinitionNode>();
  for (const d of document.definitions) if (d.kind === Kind.FRAGMENT_DEFINITION) out.set(d.name.value, d);
  return out;
}

/** The text of `operation` with exactly the fragments it uses (transitively), for a subgraph to execute. */
export function operationText(
  operation: OperationDefinitionNode,
  fragments: ReadonlyMap<string, FragmentDefinitionNode>,
): string {
  const used = new Map<string, FragmentDefinitionNode>();
  const walk = (set: SelectionSetNode): void => {
    for (const sel of set.selections) {
      if (sel.kind === Kind.FRAGMENT_SPREAD) {
        const frag = fragments.get(sel.name.value);
        if (frag && !used.has(frag.name.value)) {
          used.set(frag.name.value, frag);
          walk(frag.selectionSet);
        }
      } else if (sel.selectionSet) walk(sel.selectionSet);
    }
  };
  walk(operation.selectionSet);
  return print({ kind: Kind.DOCUMENT, definitions: [operation, ...used.values()] });
}

/**
 * How many coins the root field asks for: the distinct `ids` of `prices`, `first` of `markets`; null for a field
 * without such an argument.
 */
export function coinsAsked(
  schema: GraphQLSchema,
  field: FieldNode,
  variables: Readonly<Record<string, unknown>>,
): { count: number; argument: string } | null {
  const def = schema.getSubscriptionType()?.getFields()[field.name.value];
  if (!def) return null;
  const args = getArgumentValues(def, field, variables);
  if (Array.isArray(args['ids'])) return { count: new Set(args['ids']).size, argument: 'ids' };
  if (typeof args['first'] === 'number') return { count: args['first'], argument: 'first' };
  return null;
}
