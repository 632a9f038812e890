import { LRUCache } from 'lru-cache';
import { createHash } from 'node:crypto';
import { brotliCompressSync, constants, gzipSync } from 'node:zlib';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { LoadShedder } from '../access/overload.ts';
import { redactUrl } from '../access/request-key.ts';
import { notModified } from '../core/conditional.ts';
import { preferredCoding } from '../core/negotiate.ts';
import { noteRequest } from '../core/request-notes.ts';
import { servedNumbers } from '../engine/served-numbers.ts';

/**
 * A response computed once per market snapshot and served many times: the serialised JSON, its ETag and lazily made
 * gzip/brotli variants. Cache entries are keyed by the route's normalised parameters and die with their snapshot,
 * so a client never sees figures older than the tick that produced them.
 */
interface Entry {
  version: number;
  maxAge: number;
  body: Buffer;
  etag: string;
  gzip?: Buffer;
  br?: Buffer;
}

/** Responses smaller than this are sent uncompressed (compression would not pay for itself). */
const MIN_COMPRESS = 1024;
/** The content codings answers are compressed with, the smaller first. */
const CODINGS = ['br', 'gzip'];

const BROTLI = { params: { [constants.BROTLI_PARAM_QUALITY]: 5 } };

/** Bytes an entry holds: its body and the compressed variants made so far (256 for the rest of it). */
const entryBytes = (e: Entry): number => e.body.length + (e.gzip?.length ?? 0) + (e.br?.length ?? 0) + 256;

export class ResponseCache {
  private readonly entries: LRUCache<string, Entry>;
  /** Request URL (key parameters redacted) → entry key, for the fast path of `tryUrl`. */
  private readonly byUrl: LRUCache<string, string>;

  /**
   * @param maxEntries cap on distinct keys (and on URL aliases); the least recently used go first. Default 5,000.
   * @param shedder refuses a build (503 `OVERLOADED`) while the process is overloaded: answers already built are
   *   still served. Default none.
   * @param maxBytes cap on the bytes of all entries (bodies and their compressed variants), least recently used out
   *   first; an answer over an eighth of it is served but not kept. Default 32 MiB: without it, 5,000 varied chart
   *   answers of ~100 KB each held half a gigabyte, most of it of snapshots no request would see again.
   */
  constructor(
    maxEntries = 5_000,
    private readonly shedder?: Pick<LoadShedder, 'begin'>,
    maxBytes = 32 * 1024 * 1024,
  ) {
    this.entries = new LRUCache({
      max: maxEntries,
      maxSize: maxBytes,
      maxEntrySize: maxBytes / 8,
      sizeCalculation: entryBytes,
    });
    this.byUrl = new LRUCache({ max: maxEntries });
  }

  /** The newest snapshot version asked for (0: none yet). */
  private newest = 0;

  /** Entries and bytes held now (what `maxEntries` and `maxBytes` bound). */
  held(): { entries: number; bytes: number } {
    return { entries: this.entries.size, bytes: this.entries.calculatedSize };
  }

  /** Builds in flight, per key and version: concurrent misses wait for one build (no stampede on a tick). */
  private readonly pending = new Map<string, Promise<Entry>>();

  /**
   * Sends the cached response for `key` at snapshot `version`, building it with `build` (sync or async, e.g. a SQL
   * read) on a miss. Honours `If-None-Match` (304, `src/core/conditional.ts`) and `Accept-Encoding` (br, gzip, by
   * q-value). Sets ETag, Vary and Cache-Control (`maxAge` seconds). Numbers are serialised by the served-number rule unless `exact` (the caller
   * asked `precision=full`).
   */
  async send(
    req: FastifyRequest,
    reply: FastifyReply,
    key: string,
    version: number,
    maxAge: number,
    build: () => unknown,
    exact = false,
  ): Promise<FastifyReply> {
    this.advance(version);
    let e = this.entries.get(key);
    if (!e || e.version !== version) e = await this.fill(req, key, version, maxAge, build, exact);
    this.byUrl.set(urlKey(req), key);
    return this.deliver(req, reply, key, e);
  }

  /**
   * Fast path: serves the entry a previous request with the same URL produced, when it is still of `version`.
   * Only successful responses are cached, so a URL that hit before is valid and needs no parsing again. Returns
   * false (nothing sent) otherwise.
   */
  tryUrl(req: FastifyRequest, reply: FastifyReply, version: number): boolean {
    const key = this.byUrl.get(urlKey(req));
    const e = key === undefined ? undefined : this.entries.get(key);
    if (!e || e.version !== version || key === undefined) return false;
    this.deliver(req, reply, key, e);
    return true;
  }

  /**
   * A request for a newer snapshot than any before: the answers of older snapshots go now. None of them is served
   * again (an entry is served for its own version only), and kept they filled the byte bound with dead answers that
   * only newer ones pushed out, one by one, so a process kept its 32 MiB long after the traffic that filled it.
   * Answers of no snapshot (version 0: the coin list, `ping`) stay.
   */
  private advance(version: number): void {
    if (version <= this.newest) return;
    this.newest = version;
    const stale: string[] = [];
    this.entries.forEach((e, k) => {
      if (e.version !== 0 && e.version < version) stale.push(k);
    });
    for (const k of stale) this.entries.delete(k);
  }

  private deliver(req: FastifyRequest, reply: FastifyReply, key: string, e: Entry): FastifyReply {
    const validators = { etag: e.etag, cacheControl: `public, max-age=${e.maxAge}`, vary: 'accept-encoding' };
    if (notModified(req, reply, validators)) return reply;
    reply.type('application/json; charset=utf-8');
    if (e.body.length >= MIN_COMPRESS) {
      // By the client's q-values (`gzip;q=0` refuses gzip), br before gzip between equals.
      const coding = preferredCoding(req.headers['accept-encoding'], CODINGS);
      if (coding === 'br') {
        if (!e.br) {
          e.br = brotliCompressSync(e.body, BROTLI);
          this.recount(key, e);
        }
        return reply.header('content-encoding', 'br').send(e.br);
      }
      if (coding === 'gzip') {
        if (!e.gzip) {
          e.gzip = gzipSync(e.body, { level: 6 });
          this.recount(key, e);
        }
        return reply.header('content-encoding', 'gzip').send(e.gzip);
      }
    }
    return reply.send(e.body);
  }

  /**
   * `e` has a new compressed variant: its size counted again against the byte cap, when it is still the entry
   * (lru-cache sizes a value when it is set, and setting the same value again keeps the old size).
   */
  private recount(key: string, e: Entry): void {
    if (this.entries.peek(key) !== e) return;
    this.entries.delete(key);
    this.entries.set(key, e);
  }

  private fill(
    req: FastifyRequest,
    key: string,
    version: number,
    maxAge: number,
    build: () => unknown,
    exact: boolean,
  ): Promise<Entry> {
    const pk = `${version}\u0000${key}`;
    let p = this.pending.get(pk);
    if (!p) {
      const end = this.shedder?.begin();
      if (end instanceof Error) {
        noteRequest(req.raw, { refusal: end.code });
        return Promise.reject(end);
      }
      p = (async () => {
        const body = Buffer.from(JSON.stringify(await build(), exact ? undefined : servedNumbers));
        const e: Entry = {
          version,
          maxAge,
          body,
          etag: `"${createHash('sha1').update(body).digest('base64url')}"`,
        };
        // Built for a snapshot that a newer one replaced meanwhile: served to its askers, not kept.
        if (version === 0 || version >= this.newest) this.entries.set(key, e);
        return e;
      })().finally(() => {
        end?.();
        this.pending.delete(pk);
      });
      this.pending.set(pk, p);
    }
    return p;
  }
}

/** Method and URL with API-key parameters redacted: one cache alias per request shape, whoever asks. */
function urlKey(req: FastifyRequest): string {
  return `${req.method} ${req.url.includes('?') ? redactUrl(req.url) : req.url}`;
}
