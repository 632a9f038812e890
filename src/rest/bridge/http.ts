import { createHash } from 'node:crypto';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { notModified } from '../../core/conditional.ts';

/**
 * Sends `body` as JSON with a strong ETag over its bytes and `Cache-Control: public, max-age=<maxAge>`; answers 304
 * when `If-None-Match` matches it (`src/core/conditional.ts`). The bodies are small and cheap, so nothing is kept
 * between requests.
 */
export function sendJson(
  req: FastifyRequest,
  reply: FastifyReply,
  body: unknown,
  maxAge: number,
): FastifyReply {
  const bytes = Buffer.from(JSON.stringify(body));
  const etag = `"${createHash('sha1').update(bytes).digest('base64url')}"`;
  return (
    notModified(req, reply, { etag, cacheControl: `public, max-age=${maxAge}` }) ??
    reply.type('application/json; charset=utf-8').send(bytes)
  );
}
