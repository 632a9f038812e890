import { createHash } from 'node:crypto';
import type { FastifyReply, FastifyRequest } from 'fastify';

/**
 * Sends `body` as JSON with a strong ETag over its bytes and `Cache-Control: public, max-age=<maxAge>`; answers 304
 * when `If-None-Match` holds that ETag. The bodies are small and cheap, so nothing is kept between requests.
 */
export function sendJson(
  req: FastifyRequest,
  reply: FastifyReply,
  body: unknown,
  maxAge: number,
): FastifyReply {
  const bytes = Buffer.from(JSON.stringify(body));
  const etag = `"${createHash('sha1').update(bytes).digest('base64url')}"`;
  reply.header('etag', etag).header('cache-control', `public, max-age=${maxAge}`);
  const inm = req.headers['if-none-match'];
  if (inm && inm.split(',').some((t) => t.trim() === etag || t.trim() === `W/${etag}`)) {
    return reply.code(304).send();
  }
  return reply.type('application/json; charset=utf-8').send(bytes);
}
