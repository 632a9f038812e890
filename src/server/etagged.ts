/**
 * Sends a body the server makes or reads itself (the landing page, a documentation file, the graph's schema) with a
 * strong ETag over its bytes and `Cache-Control: no-cache` (revalidated each time, 304 while unchanged), by the
 * conditional-request rule of the image routes (`src/rest/assets/send.ts`).
 */
import type { FastifyReply, FastifyRequest } from 'fastify';
import { ifNoneMatchHits, strongEtag } from '../rest/assets/send.ts';

export function sendEtagged(
  req: FastifyRequest,
  reply: FastifyReply,
  body: string | Buffer,
  type: string,
): FastifyReply {
  const etag = strongEtag(body);
  void reply.header('etag', etag).header('cache-control', 'no-cache');
  if (ifNoneMatchHits(req.headers['if-none-match'], etag)) return reply.code(304).send();
  return reply.type(type).send(body);
}
