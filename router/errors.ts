/**
 * The router's own errors (`ApiError`, the one error type: `src/core/errors.ts`): stable codes, messages that state the
 * contract, an HTTP status. Access denials reuse the REST codes (`src/access/access.ts`); the rest are listed in
 * docs/graph.md ("Router errors").
 */
import { ApiError } from '../src/core/errors.ts';

export const routerErrors = {
  costTooHigh: (estimated: number, max: number, plan: string) =>
    new ApiError(
      400,
      'COST_ESTIMATED_TOO_EXPENSIVE',
      `the operation's estimated cost ${estimated} exceeds the ${plan} plan's limit of ${max}: ask for fewer items (smaller first, fewer nested lists) or use a higher plan`,
      {},
      undefined,
      { cost: { estimated, max, plan } },
    ),
  tooDeep: (depth: number, max: number) =>
    new ApiError(
      400,
      'MAX_DEPTH_EXCEEDED',
      `the operation nests fields ${depth} deep: at most ${max} levels are allowed`,
    ),
  tooManyAliases: (n: number, max: number) =>
    new ApiError(400, 'MAX_ALIASES_EXCEEDED', `the operation uses ${n} aliases: at most ${max} are allowed`),
  tooManyDirectives: (n: number, max: number) =>
    new ApiError(
      400,
      'MAX_DIRECTIVES_EXCEEDED',
      `the operation applies ${n} directives: at most ${max} are allowed`,
    ),
  tooManyFields: (n: number, max: number) =>
    new ApiError(
      400,
      'MAX_FIELDS_EXCEEDED',
      `the operation selects ${Number.isSafeInteger(n) ? n : `more than ${max}`} fields once its fragments are expanded: at most ${max} are allowed`,
    ),
  tooManyTokens: (max: number) =>
    new ApiError(
      400,
      'MAX_TOKENS_EXCEEDED',
      `the document has more than ${max} tokens: send a smaller document (or a persisted query)`,
    ),
  queryTooLong: (n: number, max: number) =>
    new ApiError(
      400,
      'MAX_QUERY_LENGTH_EXCEEDED',
      `the document is ${n} characters long: at most ${max} are allowed (send a smaller document, or a persisted query)`,
    ),
  batchTooLarge: (n: number, max: number) =>
    new ApiError(
      400,
      'BATCH_TOO_LARGE',
      `the batch holds ${n} operations: send at most ${max} operations per request`,
    ),
  batchEmpty: () =>
    new ApiError(400, 'BAD_REQUEST', 'a batched request must be a non-empty JSON array of operations'),
  notInSafelist: () =>
    new ApiError(
      400,
      'PERSISTED_QUERY_NOT_IN_LIST',
      'this router only runs persisted operations: send the documentId (or extensions.persistedQuery.sha256Hash) of an operation in its manifest',
    ),
  unknownDocument: (id: string) =>
    new ApiError(
      400,
      'PERSISTED_QUERY_NOT_FOUND',
      `no persisted operation has the id ${JSON.stringify(id.slice(0, 80))}: regenerate the client's documents or send the query text`,
    ),
  tooManySubscriptionIds: (n: number, max: number, plan: string, arg: string) =>
    new ApiError(
      400,
      'TOO_MANY_SUBSCRIPTION_IDS',
      `the subscription asks for ${n} coins (${arg}): at most ${max} per subscription on the ${plan} plan; split it or use a higher plan`,
    ),
  subscriptionOverHttp: () =>
    new ApiError(
      400,
      'SUBSCRIPTION_NEEDS_STREAM',
      'a subscription needs a stream: POST it with Accept: text/event-stream (GraphQL over SSE, the graphql-sse protocol) or send it over a WebSocket (the graphql-ws protocol), both at /graphql',
    ),
  /** A mutation sent by GET, over any transport (plain, event stream or multipart): GET only reads. */
  mutationOverGet: () =>
    new ApiError(405, 'BAD_REQUEST', 'GET requests only support query operations, not mutation operations', {
      allow: 'POST',
    }),
  /** An `Accept` header that allows no type `/graphql` answers in (`router/negotiation.ts`); sent as JSON. */
  notAcceptable: () =>
    new ApiError(
      406,
      'NOT_ACCEPTABLE',
      '/graphql answers in application/graphql-response+json or application/json (a subscription, or a request preferring it, in text/event-stream): send an Accept header that allows one of them (or none)',
    ),
  batchedSubscription: () =>
    new ApiError(
      400,
      'BAD_REQUEST',
      'an event stream carries one operation: send a JSON object, not a batch',
    ),
  /** A stream's POST whose body is no JSON object, or not `application/json` (`router/subscriptions/shape.ts`). */
  notARequestObject: () =>
    new ApiError(
      400,
      'BAD_REQUEST',
      'a POST to /graphql must be a JSON object such as {"query":"subscription { … }"}, sent with Content-Type: application/json',
    ),
  /** A parameter of the wrong JSON type, in the engine's words for a plain request (`router/subscriptions/shape.ts`). */
  wrongParameter: (name: string, expected: 'a string' | 'an object', where: 'body' | 'search') =>
    new ApiError(
      400,
      'BAD_REQUEST',
      where === 'body'
        ? `\`${name}\` in a POST body must be ${expected} if provided.`
        : `The ${name} search parameter should contain a JSON-encoded object.`,
    ),
  /** Any method but GET and POST (PUT is graphql-sse's single connection mode, which is not served). */
  methodNotAllowed: (method: string) =>
    new ApiError(
      405,
      'METHOD_NOT_ALLOWED',
      `/graphql takes GET or POST, not ${method.slice(0, 16)}: GraphQL over HTTP, and GraphQL over SSE in graphql-sse's distinct connections mode (its client's default; single connection mode, whose reservations are PUTs, is not served)`,
      { allow: 'GET, POST' },
    ),
} as const;
