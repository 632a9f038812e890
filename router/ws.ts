/**
 * GraphQL over WebSocket at `/graphql`: the `graphql-ws` protocol (subprotocol `graphql-transport-ws`), graphql-ws's
 * server on a `ws` server that takes the HTTP server's upgrades for that path.
 *
 * - `connection_init`: the API key is checked at once (the upgrade request's headers and query, with the
 *   `connectionParams` as headers — browsers cannot set a WebSocket's headers: send
 *   `{ "x-sp-api-key": "cw_live_…" }`); an unusable key closes the socket with 4403 and the access code as reason, a
 *   key that could not be looked up (the store not answering) with 1013, Try Again Later, and `STORE_UNAVAILABLE`.
 *   A key in the params that differs from the upgrade request's is `API_KEY_CONFLICT` (as two keys are on HTTP):
 *   the params never replace a key the request carries.
 * - each `subscribe` goes through the router's checks (`router/subscriptions/open.ts`) with those headers: a refusal
 *   is an `error` message with the coded errors, the socket stays; a query or mutation is one `next`, then `complete`.
 * - a stream ended by its key (revoked, …) ends with a `next` carrying the coded error and `complete`, and the socket
 *   is then closed with 4403 and the code: the key is no longer usable for any of its streams.
 *
 * Protocol errors (a message a client may not send, a malformed or oversized frame) close with graphql-ws's 44xx
 * codes and one log line: `router/ws-server.ts`. `closeAll` (shutdown) closes every socket with 1001 (going away),
 * which clients retry.
 */
import type { IncomingMessage } from 'node:http';
import type { Duplex } from 'node:stream';
import type { FastifyInstance } from 'fastify';
import { GraphQLError, Kind, OperationTypeNode } from 'graphql';
import type { DocumentNode, ExecutionArgs, ExecutionResult, FormattedExecutionResult } from 'graphql';
import type { Context } from 'graphql-ws';
import type { WebSocket } from 'ws';
import { requestKey } from '../src/access/request-key.ts';
import type { RouterSubscriptions, PushStream } from './subscriptions/index.ts';
import { graphqlWsServer } from './ws-server.ts';
import type { WsExtra } from './ws-server.ts';

/** Close code of a connection whose key cannot be used (graphql-ws's Forbidden). */
export const KEY_REFUSED_CLOSE = 4403;
/** Close code of a connection whose key could not be looked up, the store not answering: WebSocket's Try Again Later. */
export const TRY_AGAIN_CLOSE = 1013;

/** A document of each kind, for graphql-ws to pick `execute` or `subscribe` (which answer what the router opened). */
const docOf = (operation: OperationTypeNode): DocumentNode => ({
  kind: Kind.DOCUMENT,
  definitions: [
    {
      kind: Kind.OPERATION_DEFINITION,
      operation,
      selectionSet: { kind: Kind.SELECTION_SET, selections: [] },
    },
  ],
});
const STREAM_DOC = docOf(OperationTypeNode.SUBSCRIPTION);
const RESULT_DOC = docOf(OperationTypeNode.QUERY);

/** What graphql-ws hands back to `execute`/`subscribe`: the router's answer. */
interface Opened {
  result?: ExecutionResult;
  stream?: PushStream;
}

const searchOf = (req: IncomingMessage): string => {
  const url = req.url ?? '';
  const q = url.indexOf('?');
  return q === -1 ? '' : url.slice(q + 1);
};

type Ctx = Context<Record<string, unknown> | undefined, WsExtra>;

/** The connection params that can be headers: string values, lowercase names. */
function paramHeaders(ctx: Ctx): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [k, v] of Object.entries(ctx.connectionParams ?? {}))
    if (typeof v === 'string') out[k.toLowerCase()] = v;
  return out;
}

/** The upgrade request's headers with the connection params over them. */
function connectionHeaders(ctx: Ctx): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [k, v] of Object.entries(ctx.extra.request.headers))
    if (v !== undefined) out[k.toLowerCase()] = Array.isArray(v) ? v.join(', ') : v;
  return Object.assign(out, paramHeaders(ctx));
}

/**
 * Whether the connection params carry a key other than the upgrade request's (headers or query): merged, the params
 * would silently replace it, even a revoked one. Two keys among the params alone the access layer refuses itself.
 */
function keysConflict(ctx: Ctx): boolean {
  const fromParams = requestKey(paramHeaders(ctx), {});
  if (fromParams.kind !== 'one') return false;
  const query: Record<string, string[]> = {};
  for (const [k, v] of new URLSearchParams(searchOf(ctx.extra.request))) (query[k] ??= []).push(v);
  const fromRequest = requestKey(ctx.extra.request.headers, query);
  return (
    fromRequest.kind === 'conflict' || (fromRequest.kind === 'one' && fromRequest.key !== fromParams.key)
  );
}

/** A result as JSON (graphql-ws sends what `onNext` returns as it is). */
const formatted = (r: ExecutionResult): FormattedExecutionResult =>
  JSON.parse(JSON.stringify(r)) as FormattedExecutionResult;

export interface WsTransport {
  /** Open sockets now. */
  open(): number;
  /** Closes every socket with 1001 (going away). */
  closeAll(): void;
}

export function wsTransport(
  app: FastifyInstance,
  subscriptions: RouterSubscriptions,
  path: string,
): WsTransport {
  /** Each connection's streams by operation id, to close the socket when a key ends one. */
  const streams = new WeakMap<object, Map<string, PushStream>>();
  const wss = graphqlWsServer<Record<string, unknown> | undefined>(
    {
      async onConnect(ctx) {
        if (keysConflict(ctx)) {
          ctx.extra.socket.close(KEY_REFUSED_CLOSE, 'API_KEY_CONFLICT');
          return false;
        }
        const refused = await subscriptions.connect({
          headers: connectionHeaders(ctx),
          search: searchOf(ctx.extra.request),
          socketIp: ctx.extra.request.socket.remoteAddress ?? '',
        });
        if (!refused) return true;
        ctx.extra.socket.close(refused.status === 503 ? TRY_AGAIN_CLOSE : KEY_REFUSED_CLOSE, refused.code);
        return false;
      },
      async onSubscribe(ctx, id, payload) {
        const opened = await subscriptions.open({
          method: 'POST',
          headers: { ...connectionHeaders(ctx), 'content-type': 'application/json' },
          search: searchOf(ctx.extra.request),
          body: payload,
          socketIp: ctx.extra.request.socket.remoteAddress ?? '',
        });
        if (opened.kind === 'refused')
          return opened.errors.map((e) => new GraphQLError(e.message, { extensions: e.extensions ?? {} }));
        if (opened.kind === 'result') {
          const contextValue: Opened = { result: opened.result };
          return { schema: undefined as never, document: RESULT_DOC, contextValue };
        }
        let byId = streams.get(ctx);
        if (!byId) streams.set(ctx, (byId = new Map()));
        byId.set(id, opened.stream);
        const contextValue: Opened = { stream: opened.stream };
        return { schema: undefined as never, document: STREAM_DOC, contextValue };
      },
      execute: (args: ExecutionArgs) => (args.contextValue as Opened).result as ExecutionResult,
      subscribe: (args: ExecutionArgs) => (args.contextValue as Opened).stream as PushStream,
      onNext: (_ctx, _id, _payload, _args, result: unknown) => formatted(result as ExecutionResult),
      onComplete(ctx, id) {
        const byId = streams.get(ctx);
        const stream = byId?.get(id);
        byId?.delete(id);
        const code = stream?.endReason?.code;
        // After graphql-ws has sent `complete` (it calls this hook first).
        if (code?.startsWith('API_KEY_')) setImmediate(() => ctx.extra.socket.close(KEY_REFUSED_CLOSE, code));
      },
    },
    app.log,
  );
  const upgrade = (req: IncomingMessage, socket: Duplex, head: Buffer) => {
    const url = req.url ?? '';
    const pathname = url.split('?')[0];
    if (pathname !== path) {
      socket.end('HTTP/1.1 404 Not Found\r\nconnection: close\r\ncontent-length: 0\r\n\r\n');
      return;
    }
    wss.handleUpgrade(req, socket, head, (ws: WebSocket) => wss.emit('connection', ws, req));
  };
  app.server.on('upgrade', upgrade);
  return {
    open: () => wss.clients.size,
    closeAll() {
      app.server.off('upgrade', upgrade);
      for (const ws of wss.clients) ws.close(1001, 'server shutting down');
    },
  };
}
