/**
 * The router's own errors (`ApiError`, the one error type: `src/core/errors.ts`): stable codes, messages that state the
 * contract, an HTTP status. Access refusals are the access module's (`src/access/errors.ts`); the rest are listed in
 * docs/graph.md ("Router errors") and docs/error-codes.md.
 */
import { errorCatalog } from '../src/core/errors.ts';

export const routerErrors = errorCatalog('router', {
  costTooHigh: {
    status: 400,
    code: 'COST_ESTIMATED_TOO_EXPENSIVE',
    message: (estimated: number, max: number, plan: string) =>
      `the operation's estimated cost ${estimated} exceeds the ${plan} plan's limit of ${max}: ask for fewer items (smaller first, fewer nested lists) or use a higher plan`,
    extensions: (estimated: number, max: number, plan: string) => ({ cost: { estimated, max, plan } }),
  },
  tooDeep: {
    status: 400,
    code: 'MAX_DEPTH_EXCEEDED',
    message: (depth: number, max: number) =>
      `the operation nests fields ${depth} deep: at most ${max} levels are allowed`,
  },
  tooManyAliases: {
    status: 400,
    code: 'MAX_ALIASES_EXCEEDED',
    message: (n: number, max: number) => `the operation uses ${n} aliases: at most ${max} are allowed`,
  },
  tooManyDirectives: {
    status: 400,
    code: 'MAX_DIRECTIVES_EXCEEDED',
    message: (n: number, max: number) => `the operation applies ${n} directives: at most ${max} are allowed`,
  },
  tooManyFields: {
    status: 400,
    code: 'MAX_FIELDS_EXCEEDED',
    message: (n: number, max: number) =>
      `the operation selects ${Number.isSafeInteger(n) ? n : `more than ${max}`} fields once its fragments are expanded: at most ${max} are allowed`,
  },
  tooManyTokens: {
    status: 400,
    code: 'MAX_TOKENS_EXCEEDED',
    message: (max: number) =>
      `the document has more than ${max} tokens: send a smaller document (or a persisted query)`,
  },
  queryTooLong: {
    status: 400,
    code: 'MAX_QUERY_LENGTH_EXCEEDED',
    message: (n: number, max: number) =>
      `the document is ${n} characters long: at most ${max} are allowed (send a smaller document, or a persisted query)`,
  },
  batchTooLarge: {
    status: 400,
    code: 'BATCH_TOO_LARGE',
    message: (n: number, max: number) =>
      `the batch holds ${n} operations: send at most ${max} operations per request`,
  },
  batchEmpty: {
    status: 400,
    code: 'BAD_REQUEST',
    message: 'a batched request must be a non-empty JSON array of operations',
  },
  notInSafelist: {
    status: 400,
    code: 'PERSISTED_QUERY_NOT_IN_LIST',
    message:
      'this router only runs persisted operations: send the documentId (or extensions.persistedQuery.sha256Hash) of an operation in its manifest',
  },
  unknownDocument: {
    status: 400,
    code: 'PERSISTED_QUERY_NOT_FOUND',
    message: (id: string) =>
      `no persisted operation has the id ${JSON.stringify(id.slice(0, 80))}: regenerate the client's documents or send the query text`,
  },
  tooManySubscriptionIds: {
    status: 400,
    code: 'TOO_MANY_SUBSCRIPTION_IDS',
    message: (n: number, max: number, plan: string, arg: string) =>
      `the subscription asks for ${n} coins (${arg}): at most ${max} per subscription on the ${plan} plan; split it or use a higher plan`,
  },
  subscriptionOverHttp: {
    status: 400,
    code: 'SUBSCRIPTION_NEEDS_STREAM',
    message:
      'a subscription needs a stream: POST it with Accept: text/event-stream (GraphQL over SSE, the graphql-sse protocol) or send it over a WebSocket (the graphql-ws protocol), both at /graphql',
  },
  /** A mutation sent by GET, over any transport (plain, event stream or multipart): GET only reads. */
  mutationOverGet: {
    status: 405,
    code: 'BAD_REQUEST',
    message: 'GET requests only support query operations, not mutation operations',
    headers: {
      allow: 'POST',
    },
  },
  /** An `Accept` header that allows no type `/graphql` answers in (`router/negotiation.ts`); sent as JSON. */
  notAcceptable: {
    status: 406,
    code: 'NOT_ACCEPTABLE',
    message:
      '/graphql answers in application/graphql-response+json or application/json (a subscription, or a request preferring it, in text/event-stream): send an Accept header that allows one of them (or none)',
  },
  batchedSubscription: {
    status: 400,
    code: 'BAD_REQUEST',
    message: 'an event stream carries one operation: send a JSON object, not a batch',
  },
  /** A stream's POST whose body is no JSON object, or not `application/json` (`router/subscriptions/shape.ts`). */
  notARequestObject: {
    status: 400,
    code: 'BAD_REQUEST',
    message:
      'a POST to /graphql must be a JSON object such as {"query":"subscription { … }"}, sent with Content-Type: application/json',
  },
  /** A parameter of the wrong JSON type, in the engine's words for a plain request (`router/subscriptions/shape.ts`). */
  wrongParameter: {
    status: 400,
    code: 'BAD_REQUEST',
    message: (name: string, expected: 'a string' | 'an object', where: 'body' | 'search') =>
      where === 'body'
        ? `\`${name}\` in a POST body must be ${expected} if provided.`
        : `The ${name} search parameter should contain a JSON-encoded object.`,
  },
  /** Any method but GET and POST (PUT is graphql-sse's single connection mode, which is not served). */
  methodNotAllowed: {
    status: 405,
    code: 'METHOD_NOT_ALLOWED',
    message: (method: string) =>
      `/graphql takes GET or POST, not ${method.slice(0, 16)}: GraphQL over HTTP, and GraphQL over SSE in graphql-sse's distinct connections mode (its client's default; single connection mode, whose reservations are PUTs, is not served)`,
    headers: { allow: 'GET, POST' },
  },
});
