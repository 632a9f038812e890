/**
 * Sends a body the server makes or reads itself (the landing page, a documentation file, the graph's schema) with a
 * strong ETag over its bytes and `Cache-Control: no-cache` (revalidated each time, 304 while unchanged, by
 * `src/core/conditional.ts`).
 */
import type { FastifyReply, FastifyRequest } from 'fastify';
import { notModified, strongEtag } from '../core/conditional.ts';

export function sendEtagged(
  req: FastifyRequest,
  reply: FastifyReply,
  body: string | Buffer,
  type: string,
): FastifyReply {
  return (
    notModified(req, reply, { etag: strongEtag(body), cacheControl: 'no-cache' }) ??
    reply.type(type).send(body)
  );
}
