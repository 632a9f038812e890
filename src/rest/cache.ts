import { createHash } from 'node:crypto';
import { brotliCompressSync, constants, gzipSync } from 'node:zlib';
import type { FastifyReply, FastifyRequest } from 'fastify';

/**
 * A response computed once per market snapshot and served many times: the serialised JSON, its ETag and lazily made
 * gzip/brotli variants. Cache entries are keyed by the route's normalised parameters and die with their snapshot,
 * so a client never sees figures older than the tick that produced them.
 */
interface Entry {
  version: number;
  body: Buffer;
  etag: string;
  gzip?: Buffer;
  br?: Buffer;
}

/** Responses smaller than this are sent uncompressed (compression would not pay for itself). */
const MIN_COMPRESS = 1024;

export class ResponseCache {
  private readonly entries = new Map<string, Entry>();

  /** @param maxEntries cap on distinct keys; the oldest are dropped first. Default 5,000. */
  constructor(private readonly maxEntries = 5_000) {}

  /**
   * Sends the cached response for `key` at snapshot `version`, building it with `build` on a miss. Honours
   * `If-None-Match` (304) and `Accept-Encoding` (br, gzip). Sets ETag, Vary and Cache-Control (`maxAge` seconds).
   */
  send(
    req: FastifyRequest,
    reply: FastifyReply,
    key: string,
    version: number,
    maxAge: number,
    build: () => unknown,
  ): FastifyReply {
    let e = this.entries.get(key);
    if (!e || e.version !== version) {
      const body = Buffer.from(JSON.stringify(build()));
      e = { version, body, etag: `"${createHash('sha1').update(body).digest('base64url')}"` };
      if (this.entries.size >= this.maxEntries) {
        const oldest = this.entries.keys().next().value;
        if (oldest !== undefined) this.entries.delete(oldest);
      }
      this.entries.set(key, e);
    }
    reply.header('etag', e.etag);
    reply.header('cache-control', `public, max-age=${maxAge}`);
    reply.header('vary', 'accept-encoding');
    const inm = req.headers['if-none-match'];
    if (inm && inm.split(',').some((t) => t.trim() === e.etag || t.trim() === `W/${e.etag}`)) {
      return reply.code(304).send();
    }
    reply.type('application/json; charset=utf-8');
    const accept = String(req.headers['accept-encoding'] ?? '');
    if (e.body.length >= MIN_COMPRESS) {
      if (/\bbr\b/.test(accept)) {
        e.br ??= brotliCompressSync(e.body, { params: { [constants.BROTLI_PARAM_QUALITY]: 5 } });
        return reply.header('content-encoding', 'br').send(e.br);
      }
      if (/\bgzip\b/.test(accept)) {
        e.gzip ??= gzipSync(e.body, { level: 6 });
        return reply.header('content-encoding', 'gzip').send(e.gzip);
      }
    }
    return reply.send(e.body);
  }
}
