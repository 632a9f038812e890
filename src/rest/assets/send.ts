/** Sending an image: validators, caching and safety headers shared by the image routes. */
import { createHash } from 'node:crypto';
import type { FastifyReply, FastifyRequest } from 'fastify';

/** A strong ETag from the exact bytes served: `"<sha-256, base64url, 32 characters>"`. */
export function strongEtag(body: string | Buffer): string {
  return `"${createHash('sha256').update(body).digest('base64url').slice(0, 32)}"`;
}

/**
 * Whether an `If-None-Match` header matches `etag`, by the weak comparison RFC 9110 prescribes for this header:
 * `*`, the tag itself, or the tag with a `W/` prefix, anywhere in a comma-separated list.
 */
export function ifNoneMatchHits(header: string | undefined, etag: string): boolean {
  if (!header) return false;
  return header.split(',').some((t) => {
    const tag = t.trim();
    return tag === '*' || tag === etag || tag === `W/${etag}`;
  });
}

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
    .header('etag', image.etag)
    .header('cache-control', `public, max-age=${maxAgeSeconds}`)
    .header('x-content-type-options', 'nosniff')
    .header('cross-origin-resource-policy', 'cross-origin')
    .header('content-security-policy', "default-src 'none'; style-src 'unsafe-inline'; sandbox");
  if (ifNoneMatchHits(req.headers['if-none-match'], image.etag)) return reply.code(304).send();
  return reply.type(image.type).send(image.body);
}
