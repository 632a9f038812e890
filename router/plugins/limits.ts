/**
 * Shape limits. Before parsing (`onHttpRequest`): batch size, query length and tokens. After parsing, before the
 * query plan runs (`onOperation`): fields (fragments expanded), depth, aliases and directives, each a graphql-js
 * validation rule in graphql-armor's shape (a factory of the limit giving a `ValidationRule`, which measures each
 * operation it is shown and reports a `GraphQLError` carrying the router's `ApiError`), run by a thin adapter
 * ({@link limitRefusal}) on the operation chosen. Queries (with their direct execution) and subscriptions reach the
 * adapter through the same operation phase (`router/phases.ts`), so they run the same rules. Introspection is allowed
 * (its subtrees count as one level of depth) and costed by the query-cost plugin.
 *
 * The field count comes first and is linear in the document (each fragment is counted once and reused), so a
 * "fragment bomb" — a few hundred tokens of fragments that each spread the next one twice — is refused before
 * anything walks its exponential expansion (the other measures, the cost estimate, the query planner): the adapter
 * stops at the first error.
 */
import {
  GraphQLError,
  Kind,
  Lexer,
  Source,
  TokenKind,
  TypeInfo,
  ValidationContext,
  visit,
  visitInParallel,
} from 'graphql';
import type {
  DocumentNode,
  FragmentDefinitionNode,
  GraphQLSchema,
  OperationDefinitionNode,
  SelectionSetNode,
  ValidationRule,
} from 'graphql';
import { ApiError } from '../../src/core/errors.ts';
import { routerErrors } from '../errors.ts';
import type { RouterPlugin } from '../plugin.ts';

export interface Limits {
  maxDepth: number;
  maxAliases: number;
  maxDirectives: number;
  maxTokens: number;
  /**
   * Characters of an operation's text (comments included). What bounds the memory the parse caches keep per
   * distinct text (the runtime's keeps 1,024 texts, `router/inflight.ts` a few MiB): without it, a megabyte of
   * comment made each request a megabyte kept.
   */
  maxQueryLength: number;
  maxBatch: number;
  /** Fields of an operation once its fragments are expanded where they are spread. */
  maxFields: number;
}

export const DEFAULT_LIMITS: Readonly<Limits> = {
  maxDepth: 15,
  maxAliases: 30,
  maxDirectives: 20,
  maxTokens: 4_000,
  maxQueryLength: 32_768,
  maxBatch: 10,
  maxFields: 2_000,
};

/** Shape measures of an operation: depth, aliases and directives (after parsing). */
export interface OperationShape {
  /** Deepest field nesting, counted in fields; introspection subtrees (`__schema`, `__type`) count as 1. */
  depth: number;
  /** Aliased fields (introspection subtrees included), fragments expanded where used. */
  aliases: number;
  /**
   * Directive applications: on the operation, on each fragment definition it uses (once), and on every selection,
   * fragments expanded where used.
   */
  directives: number;
}

export function measureOperation(
  operation: OperationDefinitionNode,
  fragments: readonly FragmentDefinitionNode[],
): OperationShape {
  const byName = new Map(fragments.map((f) => [f.name.value, f]));
  /** Shape of each fragment's selection set, once: a fragment spread many times is walked once. */
  const memo = new Map<string, OperationShape>();
  const path = new Set<string>();
  let definitionDirectives = 0;

  const visit = (set: SelectionSetNode): OperationShape => {
    const shape: OperationShape = { depth: 0, aliases: 0, directives: 0 };
    const add = (inner: OperationShape, depth: number): void => {
      shape.depth = Math.max(shape.depth, depth);
      shape.aliases += inner.aliases;
      shape.directives += inner.directives;
    };
    for (const sel of set.selections) {
      shape.directives += sel.directives?.length ?? 0;
      if (sel.kind === Kind.FIELD) {
        if (sel.alias) shape.aliases++;
        const inner = sel.selectionSet ? visit(sel.selectionSet) : { depth: 0, aliases: 0, directives: 0 };
        const name = sel.name.value;
        add(inner, name === '__schema' || name === '__type' ? 1 : 1 + inner.depth);
      } else if (sel.kind === Kind.INLINE_FRAGMENT) {
        const inner = visit(sel.selectionSet);
        add(inner, inner.depth);
      } else {
        const frag = byName.get(sel.name.value);
        if (!frag || path.has(frag.name.value)) continue;
        let inner = memo.get(frag.name.value);
        if (!inner) {
          definitionDirectives += frag.directives?.length ?? 0;
          path.add(frag.name.value);
          inner = visit(frag.selectionSet);
          path.delete(frag.name.value);
          memo.set(frag.name.value, inner);
        }
        add(inner, inner.depth);
      }
    }
    return shape;
  };

  const shape = visit(operation.selectionSet);
  return {
    depth: shape.depth,
    aliases: shape.aliases,
    directives: (operation.directives?.length ?? 0) + definitionDirectives + shape.directives,
  };
}

/**
 * Lexical tokens of a document (comments excluded, as graphql's parser counts them for `maxTokens`), stopping once
 * `max` is passed (so a huge document costs at most `max + 1` tokens of work). A lexing error ends the count: the
 * parser reports it properly later.
 */
export function countTokens(query: string, max: number): number {
  const lexer = new Lexer(new Source(query));
  let n = 0;
  try {
    while (lexer.advance().kind !== TokenKind.EOF) {
      if (++n > max) break;
    }
  } catch {
    // a syntax error: let the parser report it
  }
  return n;
}

/** Fields selected by `operation` with every fragment spread expanded; linear in the document's size. */
export function expandedFieldCount(
  operation: OperationDefinitionNode,
  fragments: readonly FragmentDefinitionNode[],
): number {
  const byName = new Map(fragments.map((f) => [f.name.value, f]));
  const perFragment = new Map<string, number>();
  const open = new Set<string>();
  const count = (set: SelectionSetNode): number => {
    let n = 0;
    for (const sel of set.selections) {
      if (sel.kind === Kind.FIELD) n += 1 + (sel.selectionSet ? count(sel.selectionSet) : 0);
      else if (sel.kind === Kind.INLINE_FRAGMENT) n += count(sel.selectionSet);
      else {
        const name = sel.name.value;
        let m = perFragment.get(name);
        if (m === undefined) {
          const frag = byName.get(name);
          // Unknown and cyclic spreads are validation errors; never loop here.
          if (!frag || open.has(name)) continue;
          open.add(name);
          m = count(frag.selectionSet);
          open.delete(name);
          perFragment.set(name, m);
        }
        n += m;
      }
    }
    return n;
  };
  return count(operation.selectionSet);
}

/** The fragments of a document, once per document. */
const fragmentLists = new WeakMap<DocumentNode, FragmentDefinitionNode[]>();
function fragmentsOf(document: DocumentNode): FragmentDefinitionNode[] {
  let list = fragmentLists.get(document);
  if (!list) {
    list = document.definitions.filter(
      (d): d is FragmentDefinitionNode => d.kind === Kind.FRAGMENT_DEFINITION,
    );
    fragmentLists.set(document, list);
  }
  return list;
}

/** Depth, aliases and directives of an operation, measured in one walk for the three rules that read them. */
const shapes = new WeakMap<OperationDefinitionNode, OperationShape>();
function shapeOf(ctx: ValidationContext, operation: OperationDefinitionNode): OperationShape {
  let shape = shapes.get(operation);
  if (!shape) {
    shape = measureOperation(operation, fragmentsOf(ctx.getDocument()));
    shapes.set(operation, shape);
  }
  return shape;
}

/** The validation error a rule reports: the router's refusal, as its original error. */
const limitError = (refusal: ApiError): GraphQLError =>
  new GraphQLError(refusal.message, { extensions: { code: refusal.code }, originalError: refusal });

/** A rule that measures each operation (not the fragments on their own: they are measured where spread). */
function operationRule(check: (ctx: ValidationContext, op: OperationDefinitionNode) => ApiError | null) {
  return (ctx: ValidationContext) => ({
    OperationDefinition(node: OperationDefinitionNode) {
      const refusal = check(ctx, node);
      if (refusal) ctx.reportError(limitError(refusal));
      return false;
    },
    FragmentDefinition: () => false,
  });
}

/** At most `max` fields once fragments are expanded where spread (`MAX_FIELDS_EXCEEDED`). */
export const maxFieldsRule = (max: number): ValidationRule =>
  operationRule((ctx, op) => {
    const n = expandedFieldCount(op, fragmentsOf(ctx.getDocument()));
    return n > max ? routerErrors.tooManyFields(n, max) : null;
  });

/** Fields nested at most `max` deep; an introspection subtree counts as 1 (`MAX_DEPTH_EXCEEDED`). */
export const maxDepthRule = (max: number): ValidationRule =>
  operationRule((ctx, op) => {
    const { depth } = shapeOf(ctx, op);
    return depth > max ? routerErrors.tooDeep(depth, max) : null;
  });

/** At most `max` aliased fields, fragments expanded (`MAX_ALIASES_EXCEEDED`). */
export const maxAliasesRule = (max: number): ValidationRule =>
  operationRule((ctx, op) => {
    const { aliases } = shapeOf(ctx, op);
    return aliases > max ? routerErrors.tooManyAliases(aliases, max) : null;
  });

/** At most `max` directive applications (`MAX_DIRECTIVES_EXCEEDED`). */
export const maxDirectivesRule = (max: number): ValidationRule =>
  operationRule((ctx, op) => {
    const { directives } = shapeOf(ctx, op);
    return directives > max ? routerErrors.tooManyDirectives(directives, max) : null;
  });

/** The limits' rules, in the order they are checked: the linear field count first. */
export function limitRules(limits: Limits): ValidationRule[] {
  return [
    maxFieldsRule(limits.maxFields),
    maxDepthRule(limits.maxDepth),
    maxAliasesRule(limits.maxAliases),
    maxDirectivesRule(limits.maxDirectives),
  ];
}

/** Thrown by the adapter to stop the visit at the first error. */
const STOP = Symbol('first limit error');

/**
 * The adapter: `rules` run over `operation` (with the fragments of its document) as graphql-js's `validate` runs
 * them — one visit, the rules in parallel — stopping at the first error, given back as the router's refusal. Only
 * the operation chosen is measured (as before the rules, another operation of the document is not run). Without
 * the type information `validate` tracks: no rule here reads it.
 */
export function limitRefusal(
  schema: GraphQLSchema,
  document: DocumentNode,
  operation: OperationDefinitionNode,
  rules: readonly ValidationRule[],
): ApiError | null {
  const ops = document.definitions.filter((d) => d.kind === Kind.OPERATION_DEFINITION).length;
  const checked: DocumentNode =
    ops === 1 ? document : { kind: Kind.DOCUMENT, definitions: [operation, ...fragmentsOf(document)] };
  let first: GraphQLError | null = null;
  const ctx = new ValidationContext(schema, checked, new TypeInfo(schema), (e) => {
    first = e;
    throw STOP;
  });
  try {
    visit(checked, visitInParallel(rules.map((rule) => rule(ctx))));
  } catch (e) {
    if (e !== STOP) throw e;
  }
  if (first === null) return null;
  const error: GraphQLError = first;
  return error.originalError instanceof ApiError
    ? error.originalError
    : new ApiError(400, 'GRAPHQL_VALIDATION_FAILED', error.message);
}

export function limitsPlugin(limits: Limits): RouterPlugin {
  const rules = limitRules(limits);
  /** Per parsed document (the runtime and the stream opener reuse them) and operation name: the verdict. */
  const verdicts = new WeakMap<DocumentNode, Map<string, ApiError | null>>();
  return {
    name: 'limits',
    onHttpRequest(req) {
      if (req.batched && req.operations.length === 0) throw routerErrors.batchEmpty();
      if (req.batched && req.operations.length > limits.maxBatch)
        throw routerErrors.batchTooLarge(req.operations.length, limits.maxBatch);
      for (const op of req.operations) {
        if (typeof op.query !== 'string') continue;
        if (op.query.length > limits.maxQueryLength)
          throw routerErrors.queryTooLong(op.query.length, limits.maxQueryLength);
        if (countTokens(op.query, limits.maxTokens) > limits.maxTokens)
          throw routerErrors.tooManyTokens(limits.maxTokens);
      }
    },
    onOperation(op) {
      let byName = verdicts.get(op.document);
      if (!byName) verdicts.set(op.document, (byName = new Map()));
      const name = op.operation.name?.value ?? '';
      let refusal = byName.get(name);
      if (refusal === undefined) {
        refusal = limitRefusal(op.schema, op.document, op.operation, rules);
        byName.set(name, refusal);
      }
      if (refusal) throw refusal;
    },
  };
}
