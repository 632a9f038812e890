/** What the router's HTTP transports (`http.ts`, `sse.ts`) hand it of a Fastify request. */
import type { FastifyRequest } from 'fastify';
import { socketGone } from '../src/core/client-gone.ts';
import type { RouterRequest } from './http-phase.ts';

/**
 * Method, headers, the query string, the parsed body (none when it could not be read: `bodyError`), the peer, and its
 * going away.
 */
export function routerRequest(req: FastifyRequest, bodyError?: RouterRequest['bodyError']): RouterRequest {
  const q = req.url.indexOf('?');
  return {
    method: req.method,
    headers: req.headers,
    search: q === -1 ? '' : req.url.slice(q + 1),
    body: bodyError ? undefined : req.body,
    bodyError,
    socketIp: req.socket.remoteAddress ?? '',
    gone: socketGone(req.socket),
  };
}
