/// <reference lib="dom" />
/**
 * The pages' GraphQL client: persisted documents only (`{ documentId, variables }`, the ids generated into
 * `src/web/generated/` by `npm run codegen`; the product router always accepts them), same origin, with the signed-in
 * session token (`Authorization: Bearer`) when there is one. Errors are thrown as {@link GraphError} with the API's
 * `extensions.code` and message, which the pages show as they are (they state what was expected).
 */

/** What the client preset generates for a document in `replaceDocumentWithHash` mode. */
export interface WebDocument<TResult, TVariables> {
  __meta__?: { hash?: string };
  /** Phantom types carried by the generated TypedDocumentNode. */
  __apiType?: (variables: TVariables) => TResult;
}

export class GraphError extends Error {
  constructor(
    readonly code: string,
    message: string,
    readonly status: number,
    readonly retryAfterSeconds: number | null = null,
  ) {
    super(message);
    this.name = 'GraphError';
  }
}

const SESSION_KEY = 'coinwallet.session';

/** The signed-in session token of this browser (sessionStorage: gone when the tab closes). */
export const session = {
  get: (): string | null => {
    try {
      return sessionStorage.getItem(SESSION_KEY);
    } catch {
      return null;
    }
  },
  set: (token: string | null): void => {
    try {
      if (token) sessionStorage.setItem(SESSION_KEY, token);
      else sessionStorage.removeItem(SESSION_KEY);
    } catch {
      // storage unavailable (private mode): the session lasts as long as the page
    }
  },
};

interface GraphBody {
  data?: unknown;
  errors?: { message?: string; extensions?: { code?: string; retryAfter?: number } }[];
}

export async function gql<TResult, TVariables>(
  doc: WebDocument<TResult, TVariables>,
  variables: TVariables,
  opts: { token?: string | null } = {},
): Promise<TResult> {
  const documentId = (doc as { __meta__?: { hash?: string } }).__meta__?.hash;
  if (!documentId) throw new GraphError('BAD_DOCUMENT', 'internal: document without a persisted id', 0);
  const headers: Record<string, string> = {
    'content-type': 'application/json',
    accept: 'application/graphql-response+json, application/json',
  };
  const token = opts.token === undefined ? session.get() : opts.token;
  if (token) headers['authorization'] = `Bearer ${token}`;
  let res: Response;
  try {
    res = await fetch('/graphql', {
      method: 'POST',
      headers,
      body: JSON.stringify({ documentId, variables }),
    });
  } catch (err) {
    throw new GraphError('NETWORK_ERROR', `the server could not be reached: ${String(err)}`, 0);
  }
  let body: GraphBody | null = null;
  try {
    body = (await res.json()) as GraphBody;
  } catch {
    body = null;
  }
  const first = body?.errors?.[0];
  if (first) {
    const retry = Number(res.headers.get('retry-after'));
    throw new GraphError(
      first.extensions?.code ?? 'ERROR',
      first.message ?? 'the request failed',
      res.status,
      Number.isFinite(retry) && retry > 0 ? retry : (first.extensions?.retryAfter ?? null),
    );
  }
  if (!res.ok || !body || body.data === null || typeof body.data !== 'object')
    throw new GraphError('BAD_RESPONSE', `unexpected answer (HTTP ${res.status})`, res.status);
  return body.data as TResult;
}
