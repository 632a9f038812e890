/** Sending an image: validators (`src/core/conditional.ts`), caching and safety headers of the image routes. */
import type { FastifyReply, FastifyRequest } from 'fastify';
import { notModified } from '../../core/conditional.ts';

/**
 * An image on a root-relative URL that any page may embed: `<img>` from another origin works without CORS, and
 * `Cross-Origin-Resource-Policy: cross-origin` lets pages that require it (COEP) embed it too. SVG is a document
 * type, so opened directly it runs under a sandboxing Content-Security-Policy (no scripts, no external loads): an
 * operator's SVG can never act on this origin.
 */
export interface Image {
  body: string | Buffer;
  type: string;
  etag: string;
}

export function sendImage(
  req: FastifyRequest,
  reply: FastifyReply,
  image: Image,
  maxAgeSeconds: number,
): FastifyReply {
  void reply
    .header('x-content-type-options', 'nosniff')
    .header('cross-origin-resource-policy', 'cross-origin')
    .header('content-security-policy', "default-src 'none'; style-src 'unsafe-inline'; sandbox");
  return (
    notModified(req, reply, { etag: image.etag, cacheControl: `public, max-age=${maxAgeSeconds}` }) ??
    reply.type(image.type).send(image.body)
  );
}
