/**
 * The router's HTTP phase, before anything is parsed: what a request asks (its method, headers, query parameters and
 * raw operations, one or a batch), what the engine is handed for each operation, and how a refusal and a batch are
 * answered. Pure functions; `router/index.ts` runs the plugins' `onHttpRequest` between them.
 */
import type { GraphQLFormattedError } from 'graphql';
import type { Caller } from '../src/access/access.ts';
import type { ApiError } from '../src/core/errors.ts';
import type { RequestNotes } from '../src/core/request-notes.ts';
import type { Executed } from './engines/hive.ts';
import { routerErrors } from './errors.ts';
import { answerType, JSON_TYPE, peekOperation } from './negotiation.ts';
import type { HttpRequestInfo, RawOperation } from './plugin.ts';

export interface RouterRequest {
  method: string;
  /** Lowercase header names. */
  headers: Readonly<Record<string, string | string[] | undefined>>;
  /** The URL's query string without `?`. */
  search: string;
  /** The parsed JSON body (POST), or undefined. */
  body: unknown;
  /**
   * Set when the transport could not read the body (not JSON, too large): the router answers this error after the
   * API key and rate limit (as REST checks the key before reading the body), in the GraphQL error shape.
   */
  bodyError?: { status: 400 | 413; code: string; message: string } | undefined;
  socketIp: string;
  /** The caller, when the transport already identified it (`Router.refuseEarly`): not looked up again. */
  caller?: Caller | null | undefined;
  /** What `Router.refuseEarly` read of this request's head ({@link readHead}): not read again. */
  head?: RequestHead | undefined;
  /**
   * The client's going away (`src/core/client-gone.ts`): a request waiting for its place in flight leaves the queue
   * when its client does. Default: the wait ends only at its bound.
   */
  gone?: ((listener: () => void) => () => void) | undefined;
}

export interface RouterResponse {
  status: number;
  headers: Record<string, string>;
  body: string;
  /** An incremental answer (`@defer`, `@stream` as `multipart/mixed`), sent as it comes instead of `body`. */
  stream?: ReadableStream<Uint8Array> | undefined;
  /** What the transport notes for its access line and metrics: the key's id, the refusal's code. */
  notes?: RequestNotes;
}

/**
 * An answer as a transport that writes bytes gets it (`Router.respond`): the body may be bytes already, as a joined
 * heavy answer is (`withBudget`).
 */
export type RouterAnswer = Omit<RouterResponse, 'body'> & { body: string | Buffer };

/** A body as text. */
export const bodyText = (body: string | Buffer): string =>
  typeof body === 'string' ? body : body.toString('utf8');

function flatHeaders(h: RouterRequest['headers']): Record<string, string | undefined> {
  const out: Record<string, string | undefined> = {};
  for (const [k, v] of Object.entries(h)) out[k.toLowerCase()] = Array.isArray(v) ? v.join(', ') : v;
  return out;
}

function jsonParam(v: string | null): Record<string, unknown> | undefined {
  if (v === null) return undefined;
  try {
    const parsed: unknown = JSON.parse(v);
    return parsed && typeof parsed === 'object' && !Array.isArray(parsed)
      ? (parsed as Record<string, unknown>)
      : undefined;
  } catch {
    return undefined;
  }
}

function rawOperation(v: unknown): RawOperation {
  if (!v || typeof v !== 'object' || Array.isArray(v)) return {};
  const o = v as Record<string, unknown>;
  const obj = (x: unknown) =>
    x && typeof x === 'object' && !Array.isArray(x) ? (x as Record<string, unknown>) : undefined;
  return {
    query: typeof o['query'] === 'string' ? o['query'] : undefined,
    operationName: typeof o['operationName'] === 'string' ? o['operationName'] : undefined,
    variables: obj(o['variables']),
    extensions: obj(o['extensions']),
    documentId: typeof o['documentId'] === 'string' ? o['documentId'] : undefined,
  };
}

/**
 * What a request says before its body is read: its method, its headers (flat, lowercase names), its query parameters
 * (every value of a repeated one: two `x_sp_api_key` values are a conflict, as in REST) and its peer. Read once per
 * request: by `Router.refuseEarly` when the transport asks it first (then handed back in `RouterRequest.head`), else
 * by {@link readRequest}.
 */
export interface RequestHead {
  method: string;
  headers: Record<string, string | undefined>;
  query: Record<string, string | string[]>;
  /** The query string as parsed (a GET's operation is read from it). */
  params: URLSearchParams;
  socketIp: string;
}

export function readHead(
  req: Pick<RouterRequest, 'method' | 'headers' | 'search' | 'socketIp'>,
): RequestHead {
  const params = new URLSearchParams(req.search);
  const query: Record<string, string | string[]> = Object.create(null) as Record<string, string | string[]>;
  for (const [k, v] of params) {
    const prev = query[k];
    query[k] = prev === undefined ? v : Array.isArray(prev) ? [...prev, v] : [prev, v];
  }
  return {
    method: req.method.toUpperCase(),
    headers: flatHeaders(req.headers),
    query,
    params,
    socketIp: req.socketIp,
  };
}

/**
 * The media type an answer takes (`router/negotiation.ts`): the type the client prefers for the first operation, or
 * null when it accepts none the router answers in. A batch is answered as one JSON array: never incrementally.
 */
function chosenType(
  accept: string | undefined,
  batched: boolean,
  first: RawOperation | undefined,
): string | null {
  return answerType(accept, () => (batched ? null : peekOperation(first?.query, first?.operationName)));
}

/** The content type of an answer in `chosen`: the JSON type chosen, else `application/json` (a refusal's). */
const contentTypeOf = (chosen: string | null): string =>
  `${chosen?.startsWith('application/') ? chosen : JSON_TYPE}; charset=utf-8`;

/**
 * The content type a refusal made from the head alone (`Router.refuseEarly`) is sent in: as {@link readRequest} would
 * choose it before the body is read (a GET's operation is in its query string; a POST's is not yet known).
 */
export function headContentType(head: RequestHead): string {
  const first: RawOperation | undefined =
    head.method === 'GET'
      ? {
          query: head.params.get('query') ?? undefined,
          operationName: head.params.get('operationName') ?? undefined,
        }
      : undefined;
  return contentTypeOf(chosenType(head.headers['accept'], false, first));
}

/**
 * What the plugins see of a request (`HttpRequestInfo`), and the media type its answer takes (`router/negotiation.ts`):
 * the type the client prefers, or `application/json` when it accepts none the router answers in (`acceptable:
 * false`, for the router to refuse). The engine is handed `accept` as the chosen type alone, so that it answers in
 * that type whatever its own rules. The head is the one `refuseEarly` read, when it did (`req.head`).
 */
export function readRequest(
  req: RouterRequest,
  head: RequestHead = req.head ?? readHead(req),
): HttpRequestInfo & { contentType: string; acceptable: boolean } {
  const { method, headers, params } = head;
  const batched = !req.bodyError && method === 'POST' && Array.isArray(req.body);
  let operations: RawOperation[];
  if (req.bodyError) operations = [];
  else if (method === 'GET')
    operations = [
      {
        query: params.get('query') ?? undefined,
        operationName: params.get('operationName') ?? undefined,
        extensions: jsonParam(params.get('extensions')),
        documentId: params.get('documentId') ?? undefined,
      },
    ];
  else if (batched) operations = (req.body as unknown[]).map(rawOperation);
  else operations = [rawOperation(req.body)];
  const chosen = chosenType(headers['accept'], batched, operations[0]);
  // The head is this request's alone, read for this call or handed back by `refuseEarly`, which is done with it.
  if (chosen) headers['accept'] = chosen;
  return {
    method,
    headers,
    query: head.query,
    socketIp: head.socketIp,
    operations,
    batched,
    contentType: contentTypeOf(chosen),
    acceptable: chosen !== null,
    ...(req.caller ? { caller: req.caller } : {}),
  };
}

/**
 * A request refused before the engine for how it asks to be answered: a mutation over GET (405, whatever it accepts:
 * the method rule comes first), then an `Accept` header that allows no type it answers in (406). The engine refuses a
 * mutation over GET itself when the client accepts JSON; this catches the one whose `Accept` would hide it.
 */
export function deliveryRefusal(info: HttpRequestInfo, acceptable: boolean): ApiError | null {
  if (acceptable) return null;
  const op = info.operations[0];
  if (info.method === 'GET' && peekOperation(op?.query, op?.operationName)?.kind === 'mutation')
    return routerErrors.mutationOverGet();
  return routerErrors.notAcceptable();
}

/** What the engine is handed for one operation: the client's request with the plugins' rewrites. */
export function engineRequest(
  req: RouterRequest,
  method: string,
  op: RawOperation,
): { search: string; body: unknown } {
  if (method === 'GET') {
    const p = new URLSearchParams(req.search);
    if (op.query !== undefined) p.set('query', op.query);
    p.delete('documentId');
    // Extensions the plugins removed are left out; a parameter that is no JSON object stays, for the engine to refuse.
    if (op.extensions) p.set('extensions', JSON.stringify(op.extensions));
    else if (jsonParam(p.get('extensions')) !== undefined) p.delete('extensions');
    return { search: p.toString(), body: undefined };
  }
  const rewritten: Record<string, unknown> = {
    ...(op.query !== undefined ? { query: op.query } : {}),
    ...(op.operationName !== undefined ? { operationName: op.operationName } : {}),
    ...(op.variables !== undefined ? { variables: op.variables } : {}),
    ...(op.extensions !== undefined ? { extensions: op.extensions } : {}),
  };
  if (req.body && typeof req.body === 'object' && !Array.isArray(req.body)) {
    // Keep what the client sent (so the engine reports malformed fields itself), with plugin rewrites.
    const body: Record<string, unknown> = { ...(req.body as Record<string, unknown>), ...rewritten };
    delete body['documentId'];
    // Extensions the plugins removed are left out; a value that is no object stays, for the engine to refuse.
    const sent = body['extensions'];
    if (op.extensions === undefined && sent !== null && typeof sent === 'object' && !Array.isArray(sent))
      delete body['extensions'];
    return { search: req.search, body };
  }
  return { search: req.search, body: Array.isArray(req.body) ? rewritten : req.body };
}

/** A request refused whole (by a plugin, or a body that could not be read): the error alone, no data. */
export function refusal(
  e: ApiError,
  stateHeaders: Record<string, string>,
  contentType: string,
): RouterResponse {
  const err: GraphQLFormattedError = { message: e.message, extensions: { code: e.code, ...e.extensions } };
  return {
    status: e.status,
    headers: { ...stateHeaders, ...e.headers, 'content-type': contentType },
    body: JSON.stringify({ errors: [err] }),
  };
}

/** A batch's answer: the operations' answers in order, their headers merged, their costs summed. */
export function batchResponse(
  results: readonly Answered[],
  stateHeaders: Record<string, string>,
  contentType: string,
): RouterResponse {
  const merged: Record<string, string> = { ...stateHeaders };
  let cost = 0;
  for (const r of results) {
    Object.assign(merged, r.headers);
    cost += Number(r.headers['x-query-cost'] ?? 0);
  }
  merged['x-query-cost'] = String(cost);
  merged['content-type'] = contentType;
  return { status: 200, headers: merged, body: `[${results.map((r) => bodyText(r.body)).join(',')}]` };
}

/** An operation's answer as the router passes it on: a joined one's body may be bytes (`withBudget`). */
export type Answered = Omit<Executed, 'body'> & { body: string | Buffer };

/** Where a budget stands in an answer: `[at, end)`, or null when it has none there. */
export function budgetAt(body: string): [number, number] | null {
  const extensions = body.lastIndexOf('"extensions":');
  const at = extensions === -1 ? -1 : body.indexOf('"budget":{', extensions);
  const end = at === -1 ? -1 : body.indexOf('}', at);
  return end === -1 ? null : [at, end + 1];
}

/** Answers at least this long are joined as bytes (`withBudget`). */
const JOINED_AS_BYTES = 64 * 1024;
/** A shared answer's bytes before and after its budget, encoded once for every request that joined it. */
const splitAnswers = new WeakMap<Executed, { head: Buffer; tail: Buffer }>();

/** A long answer's bytes either side of its budget, kept for the next request that joins it; null for any other. */
function splitOnce(shared: Executed): { head: Buffer; tail: Buffer } | null {
  const where = shared.body.length >= JOINED_AS_BYTES ? budgetAt(shared.body) : null;
  if (!where) return null;
  const split = {
    head: Buffer.from(shared.body.slice(0, where[0])),
    tail: Buffer.from(shared.body.slice(where[1])),
  };
  splitAnswers.set(shared, split);
  return split;
}

/**
 * An answer shared by a request that joined its execution, with this request's own cost budget in
 * `extensions.cost.budget` (the answer as built carries the budget of the request that executed it). The answer's
 * `extensions` come after its `data`, so the budget is rewritten where it stands instead of the whole answer parsed
 * and written again: 15 ms for each of the requests that joined a chart of thousands of points, one after another.
 * A long answer becomes bytes, its parts either side of the budget encoded once for all who joined it: as a string
 * each copy was flattened and encoded again as it was written, ~30 ms for each copy of an 892 KB answer.
 */
export function withBudget(
  shared: Executed,
  budget: { limit: number; remaining: number; resetMs: number },
): string | Buffer {
  const own = `"budget":{"limit":${budget.limit},"remaining":${budget.remaining}}`;
  const { body } = shared;
  const split = splitAnswers.get(shared) ?? splitOnce(shared);
  if (split) return Buffer.concat([split.head, Buffer.from(own), split.tail]);
  const where = budgetAt(body);
  if (where) return body.slice(0, where[0]) + own + body.slice(where[1]);
  try {
    const parsed = JSON.parse(body) as { extensions?: { cost?: Record<string, unknown> } };
    const cost = parsed.extensions?.cost;
    if (!cost) return body;
    cost['budget'] = { limit: budget.limit, remaining: budget.remaining };
    return JSON.stringify(parsed);
  } catch {
    return body;
  }
}
