/**
 * Opening a stream (GraphQL over SSE or WebSocket), transport-free: the router's own checks in the order a query
 * gets them — the HTTP phase (API key, request budget, tokens, persisted documents), the parameters' shape
 * (`shape.ts`: the engine's checks of a plain request, which a stream does not reach), parse and validate, the
 * operation phase (shape limits, cost ceiling, cost budget charged at the estimate) — then the subscription's own:
 * coins per stream and open streams per plan, and its first event, computed at once. A refusal before the stream
 * starts has an HTTP status and coded errors; an admitted subscription is a {@link PushStream} whose first event is
 * queued. A query or mutation sent this way runs as one, through the engine (one event, then the end); a mutation
 * sent by GET is refused (405) as over plain HTTP.
 */
import { getOperationAST, getVariableValues, GraphQLError, parse, validate } from 'graphql';
import type { DocumentNode, ExecutionResult, GraphQLFormattedError, GraphQLSchema } from 'graphql';
import { LRUCache } from 'lru-cache';
import type { LoadShedder } from '../../src/access/overload.ts';
import type { UsageSink } from '../../src/access/usage.ts';
import { ApiError } from '../../src/core/errors.ts';
import { fromApiError } from '../../subgraphs/shared/errors.ts';
import type { Engine } from '../engines/hive.ts';
import { httpPhase, operationNotResolved, operationPhase, responsePhase, subscribePhase } from '../phases.ts';
import { routerErrors } from '../errors.ts';
import { readRequest } from '../http-phase.ts';
import type { RouterRequest } from '../http-phase.ts';
import type { OperationState, RequestState, RouterPlugin } from '../plugin.ts';
import type { RequestNotes } from '../../src/core/request-notes.ts';
import { ITEMISED_FIELDS } from './diff.ts';
import type { SubscriptionHub } from './hub.ts';
import { coinsAsked, fragmentsOf, operationText, rootField } from './operation.ts';
import { PushStream } from './stream.ts';
import { pushEvents } from '../incremental.ts';
import { peekOperation } from '../negotiation.ts';
import { searchVariables, shapeError } from './shape.ts';

export interface OpenOptions {
  plugins: readonly RouterPlugin[];
  engine: Pick<Engine, 'execute' | 'schema'>;
  hub: SubscriptionHub;
  usage?: Pick<UsageSink, 'request' | 'cost'> | undefined;
  shedder?: Pick<LoadShedder, 'begin'> | undefined;
}

/** What opening gave: a refusal (with its HTTP status), one answer (a query or mutation), or a stream. */
export type Opening =
  | { kind: 'refused'; status: number; headers: Record<string, string>; errors: GraphQLFormattedError[] }
  | { kind: 'result'; headers: Record<string, string>; result: ExecutionResult }
  | { kind: 'stream'; headers: Record<string, string>; stream: PushStream };

/** An opening with what the transport notes for its access line: the key's id, a refusal's code. */
export type Opened = Opening & { notes: RequestNotes };

/** A GraphQL request error (no code of the router's): 400 with graphql-js's message and the runtime's code. */
const requestError = (message: string, code: string): GraphQLFormattedError => ({
  message,
  extensions: { code },
});

/** A parsed and validated document, or its errors, per query text. */
type Checked = { document: DocumentNode } | { errors: GraphQLFormattedError[] };

export function createOpener(opts: OpenOptions): (req: RouterRequest) => Promise<Opened> {
  const checked = new LRUCache<string, Checked>({ max: 1_000 });
  const usage = opts.usage;

  const check = (schema: GraphQLSchema, query: string): Checked => {
    let c = checked.get(query);
    if (!c) {
      try {
        const document = parse(query);
        const errors = validate(schema, document);
        c = errors.length
          ? {
              errors: errors.map((e) => ({
                ...e.toJSON(),
                extensions: { code: 'GRAPHQL_VALIDATION_FAILED' },
              })),
            }
          : { document };
      } catch (e) {
        c = { errors: [requestError((e as Error).message, 'GRAPHQL_PARSE_FAILED')] };
      }
      checked.set(query, c);
    }
    return c;
  };

  return async function open(req: RouterRequest): Promise<Opened> {
    const state: RequestState = { caller: null, headers: {} };
    const opening = await openWith(req, state);
    const keyId = state.caller?.key?.id ?? state.refusedKeyId;
    return {
      ...opening,
      notes: { ...(keyId ? { keyId } : {}), ...(state.refusal ? { refusal: state.refusal } : {}) },
    };
  };

  async function openWith(req: RouterRequest, state: RequestState): Promise<Opening> {
    const plan = () => state.caller?.plan ?? state.refusedPlan ?? 'keyless';
    const refuse = (
      status: number,
      errors: GraphQLFormattedError[],
      headers: Record<string, string> = {},
    ) => {
      usage?.request(plan(), status);
      return { kind: 'refused' as const, status, headers: { ...state.headers, ...headers }, errors };
    };
    const refuseApi = (e: ApiError) => {
      state.refusal = e.code;
      return refuse(e.status, [{ message: e.message, extensions: { code: e.code, ...e.extensions } }], {
        ...e.headers,
      });
    };
    const info = readRequest(req);
    try {
      await httpPhase(opts.plugins, info, state);
      if (req.bodyError) throw new ApiError(req.bodyError.status, req.bodyError.code, req.bodyError.message);
      if (info.batched) throw routerErrors.batchedSubscription();
      const shape = shapeError(req);
      if (shape) throw shape;
    } catch (e) {
      if (e instanceof ApiError) return refuseApi(e);
      throw e;
    }
    const sent = info.operations[0] ?? {};
    const op = info.method === 'GET' ? { ...sent, variables: searchVariables(req.search) } : sent;
    if (typeof op.query !== 'string' || op.query === '')
      return refuse(400, [
        requestError('a GraphQL request needs a query (or a persisted documentId)', 'BAD_REQUEST'),
      ]);
    const schema = await opts.engine.schema();
    const c = check(schema, op.query);
    if ('errors' in c) return refuse(400, c.errors);
    const operation = getOperationAST(c.document, op.operationName);
    if (!operation) return refuse(400, [operationNotResolved(c.document, op.operationName).toJSON()]);
    // GET only reads, over a stream as over plain HTTP.
    if (info.method === 'GET' && operation.operation === 'mutation')
      return refuseApi(routerErrors.mutationOverGet());
    if (operation.operation !== 'subscription') {
      // A query or mutation over the stream: the engine answers it as it would over HTTP (one event, then the end).
      const body = {
        query: op.query,
        operationName: op.operationName,
        variables: op.variables,
        extensions: op.extensions,
      };
      // With `@defer` or `@stream` the engine answers in events, passed on one payload at a time (`incremental.ts`).
      const incremental = peekOperation(op.query, op.operationName)?.incremental === true;
      const accept = incremental ? 'text/event-stream' : 'application/json';
      const headers = { ...info.headers, 'content-type': 'application/json', accept };
      const r = await opts.engine.execute({ method: 'POST', headers, search: '', body }, state);
      usage?.request(plan(), r.status);
      if (usage && r.cost !== null) usage.cost(r.cost);
      const events = r.stream ? new PushStream() : null;
      if (r.stream && events) {
        pushEvents(r.stream, events);
        if (r.status < 400) return { kind: 'stream', headers: state.headers, stream: events };
      }
      const result = (
        events ? ((await events.next()).value ?? {}) : JSON.parse(r.body)
      ) as ExecutionResult & {
        errors?: GraphQLFormattedError[];
      };
      if (r.status >= 400)
        return { kind: 'refused', status: r.status, headers: state.headers, errors: result.errors ?? [] };
      return { kind: 'result', headers: state.headers, result };
    }
    const coerced = getVariableValues(schema, operation.variableDefinitions ?? [], op.variables ?? {});
    if (coerced.errors)
      return refuse(
        400,
        coerced.errors.map((e) => ({ ...e.toJSON(), extensions: { code: 'BAD_USER_INPUT' } })),
      );
    const variables = coerced.coerced;
    const opState: OperationState = { cost: null };
    const phase = await operationPhase(
      opts.plugins,
      { schema, document: c.document, operationName: op.operationName, variables },
      state,
      opState,
      fromApiError,
    );
    if ('refused' in phase) {
      const { http, ...extensions } = phase.refused.extensions as {
        http?: { status?: number; headers?: Record<string, string> };
      };
      return refuse(
        http?.status ?? 400,
        [{ message: phase.refused.message, extensions }],
        http?.headers ?? {},
      );
    }
    /** Gives back the cost charged at the estimate (nothing was delivered). */
    const refund = () => responsePhase(opts.plugins, state, opState, undefined);
    const caller = state.caller;
    const fragments = fragmentsOf(c.document);
    const field = rootField(operation, fragments);
    if (!field)
      return refuse(400, [requestError('a subscription needs a root field', 'GRAPHQL_VALIDATION_FAILED')]);
    // Its places per plan (coins per stream, open streams), then the process's load.
    let release: () => void;
    try {
      release = subscribePhase(opts.plugins, state, { asked: coinsAsked(schema, field, variables) });
    } catch (e) {
      if (!(e instanceof ApiError)) throw e;
      refund();
      return refuseApi(e);
    }
    const work = opts.shedder?.begin();
    if (work instanceof ApiError) {
      refund();
      release();
      return refuseApi(work);
    }
    const stream = new PushStream();
    stream.onEnded(release);
    const query = operationText(operation, fragments);
    let joined;
    try {
      joined = await opts.hub.join(
        {
          key: `${query}\u0000${JSON.stringify(variables)}`,
          fetch: {
            query,
            variables: op.variables ?? {},
            ...(operation.name ? { operationName: operation.name.value } : {}),
          },
          responseKey: field.alias?.value ?? field.name.value,
          itemised: ITEMISED_FIELDS.has(field.name.value),
        },
        {
          caller: caller ?? { plan: 'keyless', identity: 'ip:unknown', key: null, limitPerMinute: 0 },
          head: caller?.key ? { headers: info.headers, query: info.query, socketIp: info.socketIp } : null,
          stream,
          measure: opState.measure ?? (() => 0),
        },
      );
    } finally {
      work?.();
    }
    if (!joined.joined) {
      refund();
      stream.end();
      return refuse(
        400,
        (joined.result.errors ?? []).map((e) => (e instanceof GraphQLError ? e.toJSON() : e)),
      );
    }
    const out = responsePhase(opts.plugins, state, opState, joined.result.data);
    usage?.request(plan(), 200);
    if (usage && opState.cost) usage.cost(opState.cost.estimated);
    stream.push({
      ...joined.result,
      ...(Object.keys(out.extensions).length ? { extensions: out.extensions } : {}),
    });
    return { kind: 'stream', headers: { ...state.headers, ...out.headers }, stream };
  }
}
