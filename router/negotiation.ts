/**
 * How `/graphql` answers a request: one answer (`application/json` or `application/graphql-response+json`) or an
 * event stream (`text/event-stream`, GraphQL over SSE), chosen by the rules of HTTP (`src/core/negotiate.ts`: q-values,
 * then the more specific range, then the client's order) with the GraphQL-over-HTTP specification's defaults:
 *
 * - No `Accept` header is taken as `application/json` (the specification's rule for legacy clients); `*\/*` gets
 *   `application/json` too, the router's first choice between the two JSON types.
 * - A query or mutation is answered as a stream only when the client prefers `text/event-stream` to both JSON types.
 * - A subscription is streamed whenever the client accepts `text/event-stream` at all (urql's default header lists it
 *   last); a client that does not is told to use a stream (`SUBSCRIPTION_NEEDS_STREAM`).
 * - Accepting none of them is `406 NOT_ACCEPTABLE` (the specification's recommended choice), except that a mutation
 *   over GET is refused for its method first, whatever it accepts.
 *
 * - An operation that uses `@defer` or `@stream` ({@link peekOperation}: `incremental`) is answered as
 *   `multipart/mixed` ({@link MULTIPART_TYPES}) whenever the client names that type at any quality, as Apollo Router
 *   does (urql's default header lists it last), unless it prefers `text/event-stream`; any other client gets the
 *   whole answer at once, as JSON (docs/graph.md, "Incremental delivery").
 */
import { Lexer, Source, TokenKind } from 'graphql';
import { preferredType } from '../src/core/negotiate.ts';

export const JSON_TYPE = 'application/json';
export const GRAPHQL_RESPONSE_TYPE = 'application/graphql-response+json';
export const EVENT_STREAM_TYPE = 'text/event-stream';

/** The types of one answer, in the router's order of preference (what `*\/*` gets first). */
export const SINGLE_TYPES: readonly string[] = [JSON_TYPE, GRAPHQL_RESPONSE_TYPE];

export type OperationKind = 'query' | 'mutation' | 'subscription';

/** What the router can tell of the operation a request selects without parsing it. */
export interface PeekedOperation {
  kind: OperationKind;
  /** The document uses `@defer` or `@stream` (anywhere: the directives of a fragment count too). */
  incremental: boolean;
}

/**
 * The `multipart/mixed` types incremental delivery is served in, offered only to operations that use `@defer` or
 * `@stream`: the plain type (urql, meros) and the one Apollo Client asks for (`deferSpec=20220824`, the payload format
 * the runtime sends); the engine answers both alike.
 */
export const MULTIPART_TYPES: readonly string[] = ['multipart/mixed;deferSpec=20220824', 'multipart/mixed'];

/** How a request is answered: one answer of `type` (a JSON type, or a multipart one), or an event stream. */
export type Delivery = { mode: 'answer'; type: string } | { mode: 'event-stream' };

/** The `Accept` header as GraphQL over HTTP reads it: none (or an empty one) means `application/json`. */
const acceptOf = (accept: string | undefined): string =>
  accept === undefined || accept.trim() === '' ? JSON_TYPE : accept;

/** Remembers `peek`'s answer: the operation is looked at once, and only when it decides. */
function once(peek: () => PeekedOperation | null): () => PeekedOperation | null {
  let peeked: PeekedOperation | null | undefined;
  return () => (peeked === undefined ? (peeked = peek()) : peeked);
}

/**
 * The type of the one answer (not a stream) the client prefers: a JSON type, or for an operation that uses `@defer`
 * or `@stream` one of `multipart` when it accepts one; null when it accepts none of them. `peek` is called only when
 * the client accepts a type of `multipart`.
 */
export function answerType(
  accept: string | undefined,
  peek: () => PeekedOperation | null,
  multipart: readonly string[] = MULTIPART_TYPES,
): string | null {
  return incrementalType(acceptOf(accept), peek, multipart) ?? preferredType(acceptOf(accept), SINGLE_TYPES);
}

/**
 * For an operation that uses `@defer` or `@stream`, the type of `multipart` the client names (`multipart/mixed` or
 * `multipart/*`: `*\/*` alone does not ask for parts) and accepts at any quality; else null.
 */
function incrementalType(
  header: string,
  peek: () => PeekedOperation | null,
  multipart: readonly string[],
): string | null {
  if (multipart.length === 0 || !/multipart\/(?:mixed|\*)/i.test(header)) return null;
  if (preferredType(header, multipart) === null) return null;
  return peek()?.incremental === true ? preferredType(header, multipart) : null;
}

/**
 * How a request with this `Accept` header is answered, or null when the client accepts nothing the router serves.
 * `peek` is called only when the operation decides it (the client accepts a stream without preferring it, or
 * incremental delivery is offered), so most requests are not looked at.
 */
export function chooseDelivery(
  accept: string | undefined,
  peek: () => PeekedOperation | null,
  multipart: readonly string[] = MULTIPART_TYPES,
): Delivery | null {
  const header = acceptOf(accept);
  const operation = once(peek);
  const preferred = preferredType(header, [...SINGLE_TYPES, EVENT_STREAM_TYPE]);
  if (preferred === EVENT_STREAM_TYPE) return { mode: 'event-stream' };
  if (preferredType(header, [EVENT_STREAM_TYPE]) !== null && operation()?.kind === 'subscription')
    return { mode: 'event-stream' };
  const incremental = incrementalType(header, operation, multipart);
  if (incremental) return { mode: 'answer', type: incremental };
  return preferred === null ? null : { mode: 'answer', type: preferred };
}

const KINDS = new Set<string>(['query', 'mutation', 'subscription']);

/**
 * The kind of the operation `operationName` selects in `query` (the only operation when no name is given), read
 * from the document's tokens without parsing it; null when it cannot tell (no text, a text that does not lex, no
 * such operation, several and no name): the engine then reports what is wrong as usual.
 */
export function peekOperation(
  query: string | undefined,
  operationName?: string | undefined,
): PeekedOperation | null {
  if (typeof query !== 'string' || query === '') return null;
  const ops: { kind: OperationKind; name?: string }[] = [];
  let incremental = false;
  try {
    const lexer = new Lexer(new Source(query));
    let braces = 0;
    let parens = 0;
    /** The definition whose header is being read (`query Name(...) @dir`), until its selection set opens. */
    let header: { kind: OperationKind | 'fragment'; name?: string; named: boolean } | null = null;
    let afterAt = false;
    for (let t = lexer.advance(); t.kind !== TokenKind.EOF; t = lexer.advance()) {
      if (afterAt && t.kind === TokenKind.NAME && (t.value === 'defer' || t.value === 'stream'))
        incremental = true;
      afterAt = t.kind === TokenKind.AT;
      if (t.kind === TokenKind.PAREN_L) parens++;
      else if (t.kind === TokenKind.PAREN_R) parens--;
      if (parens > 0 || t.kind === TokenKind.PAREN_R) continue; // arguments, variable definitions and their values
      if (t.kind === TokenKind.BRACE_L) {
        if (braces === 0) {
          if (header === null) ops.push({ kind: 'query' });
          else if (header.kind !== 'fragment')
            ops.push({ kind: header.kind, ...(header.name !== undefined ? { name: header.name } : {}) });
          header = null;
        }
        braces++;
      } else if (t.kind === TokenKind.BRACE_R) braces--;
      else if (braces === 0 && t.kind === TokenKind.NAME) {
        if (header === null) {
          if (KINDS.has(t.value)) header = { kind: t.value as OperationKind, named: false };
          else if (t.value === 'fragment') header = { kind: 'fragment', named: false };
        } else if (!header.named) {
          header.named = true;
          header.name = t.value;
        }
      } else if (header) header.named = true; // `@` or `$`: the name, if any, came before
    }
  } catch {
    return null; // not a document: the engine's parser says why
  }
  const chosen =
    operationName === undefined || operationName === ''
      ? ops.length === 1
        ? ops[0]
        : undefined
      : ops.find((o) => o.name === operationName);
  return chosen ? { kind: chosen.kind, incremental } : null;
}
