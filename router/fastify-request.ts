/** What the router's HTTP transports (`http.ts`, `sse.ts`) hand it of a Fastify request. */
import type { FastifyRequest } from 'fastify';
import { socketGone } from '../src/core/client-gone.ts';
import { normaliseMediaType } from '../src/core/negotiate.ts';
import type { RouterRequest } from './http-phase.ts';

/**
 * Method, headers (the content type's media type in lowercase: media types compare case-insensitively), the query
 * string, the parsed body (none when it could not be read: `bodyError`), the peer, and its going away.
 */
export function routerRequest(req: FastifyRequest, bodyError?: RouterRequest['bodyError']): RouterRequest {
  const q = req.url.indexOf('?');
  const contentType = req.headers['content-type'];
  return {
    method: req.method,
    headers:
      contentType === undefined
        ? req.headers
        : { ...req.headers, 'content-type': normaliseMediaType(contentType) },
    search: q === -1 ? '' : req.url.slice(q + 1),
    body: bodyError ? undefined : req.body,
    bodyError,
    socketIp: req.socket.remoteAddress ?? '',
    gone: socketGone(req.socket),
  };
}
