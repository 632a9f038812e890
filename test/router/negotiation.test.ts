/**
 * How `/graphql` chooses its answer (router/negotiation.ts): the JSON type or an event stream by the client's
 * `Accept` header, with GraphQL over HTTP's defaults, and the operation's kind read from its tokens.
 */
import { describe, expect, it } from 'vitest';
import { answerType, chooseDelivery, peekOperation } from '../../router/negotiation.ts';
import type { PeekedOperation } from '../../router/negotiation.ts';

/** What urql sends by default (Node and browsers alike). */
const URQL =
  'application/graphql-response+json, application/graphql+json, application/json, text/event-stream, multipart/mixed';

const op =
  (kind: PeekedOperation['kind'], incremental = false) =>
  () => ({ kind, incremental });
const noPeek = () => {
  throw new Error('the operation was looked at');
};

describe('chooseDelivery', () => {
  it('a query gets one answer unless the client prefers the stream', () => {
    expect(chooseDelivery(URQL, op('query'))).toEqual({
      mode: 'answer',
      type: 'application/graphql-response+json',
    });
    expect(chooseDelivery('application/json;q=1, text/event-stream;q=0.5', op('query'))).toEqual({
      mode: 'answer',
      type: 'application/json',
    });
    expect(chooseDelivery('text/event-stream, application/json;q=0.5', noPeek)).toEqual({
      mode: 'event-stream',
    });
    expect(chooseDelivery('text/event-stream', noPeek)).toEqual({ mode: 'event-stream' });
    // Equal q: the more specific range wins, then the client's order.
    expect(chooseDelivery('*/*, text/event-stream', noPeek)).toEqual({ mode: 'event-stream' });
    expect(chooseDelivery('application/json, text/event-stream', op('mutation'))).toEqual({
      mode: 'answer',
      type: 'application/json',
    });
    expect(chooseDelivery('text/event-stream, application/json', noPeek)).toEqual({ mode: 'event-stream' });
  });

  it('a subscription is streamed whenever the client accepts a stream', () => {
    expect(chooseDelivery(URQL, op('subscription'))).toEqual({ mode: 'event-stream' });
    expect(chooseDelivery('*/*', op('subscription'))).toEqual({ mode: 'event-stream' });
    expect(chooseDelivery('application/json, text/event-stream;q=0.1', op('subscription'))).toEqual({
      mode: 'event-stream',
    });
    // Refused or not listed: answered as JSON (the router then says a stream is needed).
    expect(chooseDelivery('application/json', op('subscription'))).toEqual({
      mode: 'answer',
      type: 'application/json',
    });
    expect(chooseDelivery('*/*, text/event-stream;q=0', op('subscription'))).toEqual({
      mode: 'answer',
      type: 'application/json',
    });
    // No Accept header is application/json (GraphQL over HTTP).
    expect(chooseDelivery(undefined, op('subscription'))).toEqual({
      mode: 'answer',
      type: 'application/json',
    });
  });

  it('the JSON types by the rules of HTTP; */* and no header get application/json', () => {
    const pick = (accept: string | undefined) => answerType(accept, noPeek);
    expect(pick(undefined)).toBe('application/json');
    expect(pick('')).toBe('application/json');
    expect(pick('*/*')).toBe('application/json');
    expect(pick('application/*')).toBe('application/json');
    expect(pick('application/graphql-response+json')).toBe('application/graphql-response+json');
    expect(pick('application/graphql-response+json, application/json;q=0.9')).toBe(
      'application/graphql-response+json',
    );
    expect(pick('application/json, application/graphql-response+json')).toBe('application/json');
    expect(pick('application/json;q=0.5, application/graphql-response+json')).toBe(
      'application/graphql-response+json',
    );
    expect(pick('APPLICATION/GRAPHQL-RESPONSE+JSON; CHARSET=UTF-8')).toBe(
      'application/graphql-response+json',
    );
    expect(pick('*/*, application/json;q=0')).toBe('application/graphql-response+json');
    expect(pick('image/png')).toBeNull();
    // Parts only for an operation with @defer or @stream: asking for them, the operation is looked at.
    expect(answerType('multipart/mixed', op('query'))).toBeNull();
    expect(pick('text/event-stream')).toBeNull();
    expect(chooseDelivery('image/png', op('query'))).toBeNull();
  });

  it('multipart/mixed is offered to operations with @defer or @stream, once the router serves it', () => {
    const multipart = ['multipart/mixed;deferSpec=20220824', 'multipart/mixed'];
    const apollo =
      'multipart/mixed;deferSpec=20220824,application/graphql-response+json,application/json;q=0.9';
    expect(answerType(apollo, op('query', true), multipart)).toBe('multipart/mixed;deferSpec=20220824');
    expect(answerType(apollo, op('query', false), multipart)).toBe('application/graphql-response+json');
    expect(answerType('multipart/mixed', op('query', true), multipart)).toBe(
      'multipart/mixed;deferSpec=20220824',
    );
    // Named at any quality, multipart wins for such an operation (Apollo Router's rule; urql lists it last).
    expect(chooseDelivery(URQL, op('query', true), multipart)).toEqual({
      mode: 'answer',
      type: 'multipart/mixed;deferSpec=20220824',
    });
    expect(answerType(apollo, op('query', true))).toBe('multipart/mixed;deferSpec=20220824');
    // `*/*` alone does not ask for parts; a preferred stream stays a stream.
    expect(answerType('*/*', op('query', true))).toBe('application/json');
    expect(chooseDelivery('text/event-stream, multipart/mixed;q=0.5', op('query', true))).toEqual({
      mode: 'event-stream',
    });
  });
});

describe('peekOperation', () => {
  it('the kind of the only operation, or of the one named', () => {
    expect(peekOperation('{ a }')).toEqual({ kind: 'query', incremental: false });
    expect(peekOperation('query { a }')?.kind).toBe('query');
    expect(peekOperation('mutation M { a }')?.kind).toBe('mutation');
    expect(peekOperation('subscription($x: [ID!] = ["a"]) { a(x: $x) }')?.kind).toBe('subscription');
    expect(peekOperation('# comment\n  mutation\n{ a }')?.kind).toBe('mutation');
    const two = 'query Q { a } mutation M($i: In = { b: { c: 1 } }) @d(x: { y: 2 }) { a { b } }';
    expect(peekOperation(two, 'M')?.kind).toBe('mutation');
    expect(peekOperation(two, 'Q')?.kind).toBe('query');
    expect(peekOperation(two)).toBeNull(); // several and no name: the engine says so
    expect(peekOperation(two, 'X')).toBeNull();
  });

  it('fragments are not operations; names that are keywords are names', () => {
    const doc = 'fragment F on Query { mutation } query subscription { ...F }';
    expect(peekOperation(doc)).toEqual({ kind: 'query', incremental: false });
    expect(peekOperation(doc, 'subscription')?.kind).toBe('query');
    expect(peekOperation('mutation query { a } ', 'query')?.kind).toBe('mutation');
  });

  it('@defer and @stream anywhere make it incremental', () => {
    expect(peekOperation('{ a ... @defer { b } }')?.incremental).toBe(true);
    expect(peekOperation('{ a(first: 2) @stream(initialCount: 1) { b } }')?.incremental).toBe(true);
    expect(peekOperation('fragment F on Q { b } { ...F @defer }')?.incremental).toBe(true);
    expect(peekOperation('{ defer stream @skip(if: true) }')?.incremental).toBe(false);
  });

  it('no text, or one that does not lex: null', () => {
    expect(peekOperation(undefined)).toBeNull();
    expect(peekOperation('')).toBeNull();
    expect(peekOperation('{ a "unterminated }')).toBeNull();
    expect(peekOperation('mutation { a } }')?.kind).toBe('mutation'); // the parser, not the peek, refuses it
  });
});
