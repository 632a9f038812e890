/**
 * Shape measures of an operation for the limits plugin: depth, aliases and directives (after parsing), tokens
 * (before parsing, with graphql's own lexer).
 */
import { Kind, Lexer, Source, TokenKind } from 'graphql';
import type { FragmentDefinitionNode, OperationDefinitionNode, SelectionSetNode } from 'graphql';

export interface OperationShape {
  /** Deepest field nesting, counted in fields; introspection subtrees (`__schema`, `__type`) count as 1. */
  depth: number;
  /** Aliased fields, fragments expanded where used. */
  aliases: number;
  /** Directive applications in the operation and the fragments it uses. */
  directives: number;
}

export function measureOperation(
  operation: OperationDefinitionNode,
  fragments: readonly FragmentDefinitionNode[],
): OperationShape {
  const byName = new Map(fragments.map((f) => [f.name.value, f]));
  let aliases = 0;
  let directives = operation.directives?.length ?? 0;
  const counted = new Set<string>();
  const visit = (set: SelectionSetNode, path: Set<string>): number => {
    let deepest = 0;
    for (const sel of set.selections) {
      directives += sel.directives?.length ?? 0;
      if (sel.kind === Kind.FIELD) {
        if (sel.alias) aliases++;
        const name = sel.name.value;
        const below =
          sel.selectionSet && name !== '__schema' && name !== '__type' ? visit(sel.selectionSet, path) : 0;
        deepest = Math.max(deepest, 1 + below);
      } else if (sel.kind === Kind.INLINE_FRAGMENT) {
        deepest = Math.max(deepest, visit(sel.selectionSet, path));
      } else {
        const frag = byName.get(sel.name.value);
        if (!frag || path.has(frag.name.value)) continue;
        if (!counted.has(frag.name.value)) {
          counted.add(frag.name.value);
          directives += frag.directives?.length ?? 0;
        }
        path.add(frag.name.value);
        deepest = Math.max(deepest, visit(frag.selectionSet, path));
        path.delete(frag.name.value);
      }
    }
    return deepest;
  };
  const depth = visit(operation.selectionSet, new Set());
  return { depth, aliases, directives };
}

/**
 * Lexical tokens of a document, stopping once `max` is passed (so a huge document costs at most `max + 1` tokens of
 * work). A lexing error ends the count: the parser reports it properly later.
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
