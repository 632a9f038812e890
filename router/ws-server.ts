/**
 * graphql-ws's protocol server (`makeServer`) on a `ws` server, in place of graphql-ws's `useServer` (`use/ws`), so
 * that whatever a client sends wrong is the client's error: the socket closes with the protocol's 44xx code and a
 * reason saying what was expected, and the log gets one line with the code and no stack. (`useServer` answers a
 * client's `next` or `connection_ack` with 4500, internal error, and prints a stack trace to stderr for it and for
 * every frame `ws` refuses.)
 *
 * - A message must be a JSON object whose `type` is one a client sends (PROTOCOL.md: `connection_init`, `ping`,
 *   `pong`, `subscribe`, `complete`); `next`, `error`, `connection_ack`, an unknown type, malformed JSON or a
 *   message of the wrong shape close with 4400 and what was wrong.
 * - A frame over {@link MAX_MESSAGE_BYTES}, text that is not UTF-8 and any other malformed WebSocket frame close with
 *   4400 too (where `ws` alone would send RFC 6455's 1009, 1007 or 1002).
 * - graphql-ws's own closes stand: 4401 (subscribe before the ack), 4409 (an id in use), 4429 (a second
 *   `connection_init`), 4408 (no `connection_init` within 3 s), 4406 (no `graphql-transport-ws` subprotocol).
 *   A `complete` for an id that is not running is ignored, as PROTOCOL.md allows.
 * - Every close with a 44xx code, whoever asked for it, is logged once at `warn`: `code`, `reason`. A fault of ours
 *   while handling a message is 4500 `internal error`, logged at `error` with its stack.
 * - Keep-alive as `useServer`'s: a ping every 12 s; a socket that has not answered it 12 s later is cut.
 */
import type { IncomingMessage } from 'node:http';
import { CloseCode, handleProtocols, makeServer, validateMessage } from 'graphql-ws';
import type { ServerOptions } from 'graphql-ws';
import { WebSocket, WebSocketServer } from 'ws';
import type { RawData } from 'ws';

/** The largest message a client may send, in bytes: a subscription document with its variables fits many times. */
export const MAX_MESSAGE_BYTES = 1_048_576;
const KEEP_ALIVE_MS = 12_000;

/** What the socket's handlers get beside graphql-ws's context. */
export type WsExtra = { socket: WebSocket; request: IncomingMessage };

/** The part of the host's logger (pino, Fastify's `app.log`) this needs. */
export interface WsLog {
  warn(fields: Record<string, unknown>, msg: string): void;
  error(fields: Record<string, unknown>, msg: string): void;
}

const CLIENT_TYPES: ReadonlySet<string> = new Set([
  'connection_init',
  'ping',
  'pong',
  'subscribe',
  'complete',
]);
const OBJECT_EXPECTED = 'a message must be a JSON object with a "type", such as {"type":"ping"}';

/** A close frame's reason is at most 123 bytes (RFC 6455): longer text is cut at a character boundary. */
export function closeReason(text: string): string {
  if (Buffer.byteLength(text) <= 123) return text;
  let out = '';
  for (const ch of text) {
    if (Buffer.byteLength(out + ch) > 120) break;
    out += ch;
  }
  return `${out}…`;
}

/** Why a client's message is refused (the reason of its 4400), or null when graphql-ws may have it. */
export function messageFault(data: string): string | null {
  let value: unknown;
  try {
    value = JSON.parse(data);
  } catch {
    return `${OBJECT_EXPECTED}: the message is not JSON`;
  }
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return OBJECT_EXPECTED;
  const type = (value as { type?: unknown }).type;
  if (typeof type !== 'string' || !CLIENT_TYPES.has(type)) {
    const got = typeof type === 'string' ? JSON.stringify(type.slice(0, 24)) : typeof type;
    return `a client sends messages of type connection_init, ping, pong, subscribe or complete; got ${got}`;
  }
  try {
    // The message's shape (ids, payloads) by graphql-ws's own rules, whose messages say what is expected.
    validateMessage(value);
  } catch (e) {
    return (e as Error).message;
  }
  return null;
}

/** RFC 6455 codes `ws` closes with when it refuses a frame (before it reports the fault), as the reason we give. */
const FRAME_FAULTS: Readonly<Record<number, string>> = {
  1002: 'invalid WebSocket frame (RFC 6455)',
  1007: 'messages must be UTF-8 text',
  1009: `a message must be at most ${MAX_MESSAGE_BYTES / 1_048_576} MiB`,
};

/**
 * A graphql-ws server on a new `ws` server (no listener of its own: hand it upgrades with `handleUpgrade`).
 * `options` are graphql-ws's `ServerOptions`, as `useServer` takes them.
 */
export function graphqlWsServer<P extends Record<string, unknown> | undefined>(
  options: ServerOptions<P, WsExtra>,
  log: WsLog,
): WebSocketServer {
  /**
   * Each close of a socket goes through here, once: a frame `ws` refused becomes 4400, and a 44xx close is logged.
   * `ws` calls `close(code)` without a reason only when its receiver refuses a frame; every other close (ours,
   * graphql-ws's, the echo of a client's close frame) carries one.
   */
  class GraphqlWsSocket extends WebSocket {
    override close(code?: number, data?: string | Buffer): void {
      if (this.readyState === WebSocket.OPEN) {
        const fault = data === undefined && code !== undefined ? FRAME_FAULTS[code] : undefined;
        if (fault !== undefined) [code, data] = [CloseCode.BadRequest, fault];
        if (code !== undefined && code >= 4400 && code < 4500)
          log.warn({ code, reason: String(data ?? '') }, 'graphql-ws connection closed');
      }
      super.close(code, data);
    }
  }

  const server = makeServer<P, WsExtra>(options);
  const wss = new WebSocketServer({
    noServer: true,
    maxPayload: MAX_MESSAGE_BYTES,
    handleProtocols,
    WebSocket: GraphqlWsSocket,
  });

  wss.on('connection', (socket: WebSocket, request: IncomingMessage) => {
    // `ws` reports a refused frame here after it has closed the socket (logged above): nothing more to do.
    socket.on('error', () => undefined);
    let pongWait: NodeJS.Timeout | null = null;
    const ping = setInterval(() => {
      if (socket.readyState !== WebSocket.OPEN) return;
      pongWait = setTimeout(() => socket.terminate(), KEEP_ALIVE_MS);
      socket.once('pong', () => {
        if (pongWait) clearTimeout(pongWait);
        pongWait = null;
      });
      socket.ping();
    }, KEEP_ALIVE_MS);

    const closed = server.opened(
      {
        protocol: socket.protocol,
        send: (data) =>
          new Promise<void>((resolve, reject) => {
            if (socket.readyState !== WebSocket.OPEN) return resolve();
            socket.send(data, (err) => (err ? reject(err) : resolve()));
          }),
        close: (code, reason) => socket.close(code, closeReason(reason ?? '')),
        onMessage: (handle) =>
          socket.on('message', async (raw: RawData) => {
            const data = String(raw);
            // Parsed here to say what is wrong, then again by graphql-ws: a client sends few messages.
            const fault = messageFault(data);
            if (fault !== null) return socket.close(CloseCode.BadRequest, closeReason(fault));
            try {
              await handle(data);
            } catch (err) {
              // A send to a socket the client has just closed: nothing wrong here.
              if (socket.readyState !== WebSocket.OPEN) return;
              log.error({ err }, 'graphql-ws message failed');
              socket.close(CloseCode.InternalServerError, 'internal error');
            }
          }),
      },
      { socket, request },
    );
    socket.once('close', (code: number, reason: Buffer) => {
      clearInterval(ping);
      if (pongWait) clearTimeout(pongWait);
      closed(code, reason.toString()).catch((err: unknown) =>
        log.error({ err }, 'graphql-ws close handler failed'),
      );
    });
  });
  return wss;
}
