/**
 * What every REST document shares: the one error body (`ApiError.toBody()` of `src/core/errors.ts`) as the component
 * `ApiError`, the error responses built on it, the security schemes of every surface, and a small vocabulary for
 * describing an operation without a Fastify route schema (so documenting a route never changes how it validates or
 * serialises). The price API's route schemas use the same error component (`src/rest/price/schemas/common.ts`).
 */
/** A JSON-schema or OpenAPI fragment. */
export type Json = Record<string, unknown>;

/** Name of the error component in every document. */
export const ERROR_COMPONENT = 'ApiError';

/** `{ code, message }`: the error itself (also one item's error in a bulk answer). */
export const ERROR_DETAIL: Json = {
  type: 'object',
  properties: {
    code: {
      type: 'string',
      pattern: '^[A-Z][A-Z0-9_]*$',
      examples: ['INVALID_PARAMETER', 'AUTH_REQUIRED', 'NAME_NOT_FOUND', 'NOT_READY'],
    },
    message: { type: 'string', minLength: 1 },
  },
  required: ['code', 'message'],
  additionalProperties: false,
};

/**
 * The body of every 4xx/5xx answer of every REST surface. Closed (`additionalProperties: false`): the shape is the
 * contract clients switch on, so a stray field is a bug the response tests catch.
 */
export const ERROR_SCHEMA: Json = {
  type: 'object',
  description:
    'Every error of every REST surface: a stable code to switch on and a message naming what was expected',
  properties: { error: ERROR_DETAIL },
  required: ['error'],
  additionalProperties: false,
};

const ERROR_REF = { $ref: `#/components/schemas/${ERROR_COMPONENT}` };

/** `Retry-After` on a 429 or 503: seconds to wait. */
const RETRY_AFTER = {
  'Retry-After': {
    description: 'Seconds to wait before asking again',
    schema: { type: 'integer', minimum: 0 },
  },
};

/** An error response: `description` says which codes and why. */
export function errorResponse(description: string, status?: number): Json {
  const headers = status === 429 || status === 503 ? { headers: RETRY_AFTER } : {};
  return { description, ...headers, content: { 'application/json': { schema: ERROR_REF } } };
}

/** A JSON success response. */
export function jsonResponse(description: string, schema: Json, headers?: Json): Json {
  return { description, ...(headers ? { headers } : {}), content: { 'application/json': { schema } } };
}

/** The security schemes of the `/api` surfaces (the price API's key schemes come from its own document). */
export const API_SECURITY_SCHEMES: Json = {
  session: {
    type: 'http',
    scheme: 'bearer',
    description:
      'A session token (cws_…) from POST /api/auth/session: sign a challenge of POST /api/auth/challenge with the wallet',
  },
  operatorToken: {
    type: 'http',
    scheme: 'bearer',
    description: 'The operator token (ADMIN_TOKEN, or DATA_DIR/secrets/admin-token of the embedded server)',
  },
  partnerId: {
    type: 'apiKey',
    in: 'header',
    name: 'x-partner-id',
    description:
      'A partner request carries x-partner-id, x-partner-timestamp (UNIX s), x-partner-nonce and x-partner-signature ' +
      '(hex HMAC-SHA256 of method, path with query, timestamp, nonce and body hash, keyed by SHA-256 of the secret); ' +
      'see docs/names.md',
  },
};

/** Who may call an operation. */
export const SECURITY = {
  /** No credential; counted per client IP. */
  public: [] as Json[],
  session: [{ session: [] }],
  /** An administrator's session, or the operator token. */
  admin: [{ session: [] }, { operatorToken: [] }],
  partner: [{ partnerId: [] }],
};

/** A path parameter. */
export const pathParam = (name: string, description: string, schema: Json = { type: 'string' }): Json => ({
  in: 'path',
  name,
  required: true,
  description,
  schema,
});

/** A query parameter. */
export const queryParam = (name: string, description: string, schema: Json, required = false): Json => ({
  in: 'query',
  name,
  required,
  description,
  schema,
});

/** What one operation of an `/api` surface is: the document is made from these (see {@link operation}). */
export interface OperationSpec {
  operationId: string;
  summary: string;
  description?: string;
  tags: string[];
  security: Json[];
  parameters?: Json[];
  /** The JSON request body's schema; omitted → the operation takes no body (an empty JSON object is accepted). */
  body?: Json;
  /** Success responses by status. */
  responses: Record<number, Json>;
  /** Error responses by status: what they mean (every one has the `ApiError` body). */
  errors: Record<number, string>;
}

/**
 * An OpenAPI operation from `s`. Errors every operation of the surface can give are added: 429 (the `/api` rate
 * limits, when configured), and for an operation with a body 400 `INVALID_JSON`, 413 and 415.
 */
export function operation(s: OperationSpec): Json {
  const errors: Record<number, string> = { ...s.errors };
  errors[429] ??= 'RATE_LIMITED: over a rate limit of /api (per IP, account or partner); see Retry-After';
  if (s.body) {
    errors[400] = `${errors[400] ?? 'INVALID_BODY, UNKNOWN_FIELD: the body is not what is described'}; INVALID_JSON: not valid JSON`;
    errors[413] ??= 'PAYLOAD_TOO_LARGE: the body is over 16 KiB';
    // Fastify reads text/plain as text: such a body is refused 400 INVALID_BODY (not a JSON object), not 415.
    errors[415] ??= 'UNSUPPORTED_MEDIA_TYPE: the body is neither application/json nor text/plain';
  }
  const responses: Json = {};
  for (const [status, r] of Object.entries(s.responses)) responses[status] = r;
  for (const [status, d] of Object.entries(errors)) responses[status] = errorResponse(d, Number(status));
  return {
    operationId: s.operationId,
    summary: s.summary,
    ...(s.description ? { description: s.description } : {}),
    tags: s.tags,
    security: s.security,
    ...(s.parameters?.length ? { parameters: s.parameters } : {}),
    ...(s.body
      ? {
          requestBody: {
            // A body whose fields are all optional may be left out (it counts as `{}`).
            required: Array.isArray(s.body['required']) && s.body['required'].length > 0,
            content: { 'application/json': { schema: s.body } },
          },
        }
      : {}),
    responses,
  };
}

/** OpenAPI `paths`: path template → method → operation. */
export type Paths = Record<string, Record<string, Json>>;

/** A strict JSON-object body schema: `required` lists the mandatory fields; no other field is accepted. */
export function bodySchema(properties: Record<string, Json>, required: string[] = []): Json {
  return { type: 'object', properties, required, additionalProperties: false };
}

/** A reference to a component schema. */
export const ref = (name: string): Json => ({ $ref: `#/components/schemas/${name}` });
/** An array of a component schema. */
export const list = (name: string): Json => ({ type: 'array', items: ref(name) });
export const str: Json = { type: 'string' };
export const uuid: Json = { type: 'string', format: 'uuid' };
export const ms: Json = { type: 'integer', description: 'UNIX milliseconds' };
export const nMs: Json = {
  type: ['integer', 'null'],
  description: 'UNIX milliseconds; null when it has not happened',
};
/** An object schema whose properties are all required unless `required` says otherwise. */
export const object = (properties: Record<string, Json>, required = Object.keys(properties)): Json => ({
  type: 'object',
  properties,
  required,
});
/** A 200 (`ok`) or 201 (`created`) JSON response. */
export const ok = (description: string, schema: Json): Record<number, Json> => ({
  200: jsonResponse(description, schema),
});
export const created = (description: string, schema: Json): Record<number, Json> => ({
  201: jsonResponse(description, schema),
});

/** The 401 of an endpoint for signed-in accounts. */
export const SESSION_ERRORS = {
  401: 'AUTH_REQUIRED, INVALID_SESSION, SESSION_EXPIRED: no current session in Authorization: Bearer',
};
/** The 401 and 403 of an administrators' endpoint. */
export const ADMIN_ERRORS = {
  401: 'AUTH_REQUIRED, INVALID_SESSION, SESSION_EXPIRED: neither an administrator session nor the operator token',
  403: 'FORBIDDEN: the session is not an administrator’s',
};
/** Past tense of the review actions, for messages. */
export const DONE = {
  approve: 'approved',
  reject: 'rejected',
  revoke: 'revoked',
  delist: 'delisted',
} as const;
