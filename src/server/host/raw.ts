/**
 * The answers a host gives on the socket itself, where Node's HTTP server has no request for Fastify to route:
 * a request its parser refuses (Fastify's `clientErrorHandler`) and a `CONNECT` (Node's `connect` event, which
 * otherwise closes the socket without a word). Each is our error body with its code, then the connection closes.
 * Likewise an `Expect` Node will not meet, which it would answer 417 with an empty body.
 */
import type { IncomingMessage, Server, ServerResponse } from 'node:http';
import { maxHeaderSize } from 'node:http';
import type { Duplex } from 'node:stream';
import type { FastifyInstance } from 'fastify';
import { hostErrors, parserError, rawAnswer } from './errors.ts';
import { requestId } from './request-id.ts';

/** A socket as Node's HTTP server holds it: the response in progress on it, if any. */
type ServerSocket = Duplex & { _httpMessage?: { headersSent?: boolean } | null };

/**
 * Fastify's `clientErrorHandler` (called with the instance as `this`): the parser's refusal in our words, unless
 * the client is gone or an answer is already under way on the socket (a second request of a kept-alive connection
 * refused while the first is answered): then the socket is only closed, as Node does.
 */
export function clientError(
  this: FastifyInstance,
  err: NodeJS.ErrnoException & { reason?: string },
  socket: Duplex,
): void {
  if (err.code === 'ECONNRESET' || socket.destroyed) return;
  // The host sets no limit of its own: Node's (16 KiB, or `--max-http-header-size`).
  const e = parserError(err.code, err.reason, maxHeaderSize);
  this.log.debug({ code: err.code, status: e.status }, 'request refused by the HTTP parser');
  if (socket.writable && !(socket as ServerSocket)._httpMessage?.headersSent) socket.write(rawAnswer(e));
  socket.destroy();
}

/** Answers every `CONNECT` on `server`: 405 `METHOD_NOT_ALLOWED` (this is no proxy), then closes. */
export function answerConnect(server: Server): void {
  server.on('connect', (req: IncomingMessage, socket: Duplex) => {
    socket.on('error', () => socket.destroy());
    const e = hostErrors.methodNotAllowed('CONNECT');
    socket.end(rawAnswer(e, { 'x-request-id': requestId(req) }));
  });
}

/**
 * Answers every request whose `Expect` is not `100-continue` (Node's `checkExpectation` event, instead of its 417
 * with an empty body): 417 `EXPECTATION_FAILED` without reading the body, then the connection closes (the body the
 * client may still send is not a request).
 */
export function answerExpectations(server: Server): void {
  server.on('checkExpectation', (req: IncomingMessage, res: ServerResponse) => {
    const e = hostErrors.expectationFailed();
    const body = JSON.stringify(e.toBody());
    res.writeHead(e.status, {
      'content-type': 'application/json; charset=utf-8',
      'content-length': Buffer.byteLength(body),
      'x-content-type-options': 'nosniff',
      'x-request-id': requestId(req),
      connection: 'close',
    });
    res.end(body);
  });
}
