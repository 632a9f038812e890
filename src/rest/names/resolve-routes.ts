import { createHash } from 'node:crypto';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { NameService } from '../../names/service.ts';
import { single } from '../../core/params.ts';
import type { Query } from '../../core/params.ts';

/**
 * `GET /resolve/:name?asset=TICKER` → `{ name, asset, address, updatedAt }`, public. Answers carry an ETag and
 * `Cache-Control: no-cache`: a client may keep the answer but revalidates it every time (a 304 when unchanged), so a
 * change of address is seen on the very next request. Errors (NAME_NOT_FOUND, ADDRESS_NOT_LINKED) say `no-cache` too.
 */
export function registerResolveRoutes(app: FastifyInstance, o: { names: NameService }): void {
  app.get('/resolve/:name', { config: { apiLimit: 'public' } }, async (req, reply) => {
    const name = String((req.params as { name?: unknown }).name ?? '');
    const asset = single(req.query as Query, 'asset');
    const r = await o.names.resolve(name, asset);
    return sendWithEtag(req, reply, r);
  });
}

/** Sends `body` as JSON with a strong ETag (SHA-1 of the bytes); 304 when `If-None-Match` names it. */
export function sendWithEtag(req: FastifyRequest, reply: FastifyReply, body: unknown): FastifyReply {
  const bytes = JSON.stringify(body);
  const etag = `"${createHash('sha1').update(bytes).digest('base64url')}"`;
  reply.header('etag', etag).header('cache-control', 'no-cache');
  const inm = req.headers['if-none-match'];
  if (inm && inm.split(',').some((t) => t.trim() === etag || t.trim() === `W/${etag}` || t.trim() === '*')) {
    return reply.code(304).send();
  }
  return reply.type('application/json; charset=utf-8').send(bytes);
}
