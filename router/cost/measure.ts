/**
 * Shape measures of an operation for the limits plugin: depth, aliases and directives (after parsing), tokens
 * (before parsing, with graphql's own lexer).
 */
import { Kind, Lexer, Source, TokenKind } from 'graphql';
import type { FragmentDefinitionNode, OperationDefinitionNode, SelectionSetNode } from 'graphql';

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
