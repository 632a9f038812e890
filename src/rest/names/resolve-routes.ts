import { createHash } from 'node:crypto';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { NameService } from '../../names/service.ts';
import type { BulkOutcome } from '../../names/service.ts';
import { parseBulkBody } from '../../names/bulk.ts';
import { notModified } from '../../core/conditional.ts';
import { single } from '../../core/params.ts';
import type { Query } from '../../core/params.ts';

/**
 * Public resolution, no key or session:
 * - `GET /resolve/:name?asset=TICKER` → `{ name, asset, address, updatedAt }`;
 * - `POST /resolve` `{ names: [{ name, asset }, …] }` (at most 100) → `{ results: [...] }`, one outcome per pair in
 *   the order asked: `{ status: 200, name, asset, address, updatedAt }` or `{ status: 404 | 400, name, asset,
 *   error: { code, message } }` (the single resolution's answer for the same pair);
 * - `GET /reverse/:address?asset=TICKER` → `{ address, asset, name, updatedAt }`, the address's primary name.
 * The GET answers carry an ETag and `Cache-Control: no-cache`: a client may keep the answer but revalidates it every
 * time (a 304 when unchanged), so a change is seen on the very next request; the 404s say `no-cache` too. The bulk
 * answer is `no-store`.
 */
export function registerResolveRoutes(app: FastifyInstance, o: { names: NameService }): void {
  app.get('/resolve/:name', { config: { apiLimit: 'public' } }, async (req, reply) => {
    const name = String((req.params as { name?: unknown }).name ?? '');
    const asset = single(req.query as Query, 'asset');
    const r = await o.names.resolve(name, asset);
    return sendWithEtag(req, reply, r);
  });

  app.post('/resolve', { config: { apiLimit: 'public' } }, async (req, reply) => {
    const items = parseBulkBody(req.body);
    const outcomes = await o.names.resolutions(items);
    // A POST answer is never reused: no validator to revalidate with, and nothing for a cache to keep.
    return reply.header('cache-control', 'no-store').send({ results: outcomes.map(bulkItem) });
  });

  app.get('/reverse/:address', { config: { apiLimit: 'public' } }, async (req, reply) => {
    const address = String((req.params as { address?: unknown }).address ?? '');
    const asset = single(req.query as Query, 'asset');
    return sendWithEtag(req, reply, await o.names.primary.reverse(address, asset));
  });
}

/** One item of a bulk answer: the resolution, or the error the single resolution gives, with its status. */
function bulkItem(o: BulkOutcome): Record<string, unknown> {
  if (o.kind === 'found') return { status: 200, ...o.resolution };
  return {
    status: o.error.status,
    name: o.name,
    asset: o.asset,
    error: { code: o.error.code, message: o.error.message },
  };
}

/** Sends `body` as JSON with a strong ETag (SHA-1 of the bytes); 304 by `src/core/conditional.ts`. */
export function sendWithEtag(req: FastifyRequest, reply: FastifyReply, body: unknown): FastifyReply {
  const bytes = JSON.stringify(body);
  const etag = `"${createHash('sha1').update(bytes).digest('base64url')}"`;
  return (
    notModified(req, reply, { etag, cacheControl: 'no-cache' }) ??
    reply.type('application/json; charset=utf-8').send(bytes)
  );
}
