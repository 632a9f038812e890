/**
 * Conditional GET by entity tag, the one rule every route that sends a validator follows (RFC 9110 §8.8.3, §13.1.2,
 * §13.2.1, §15.4.5): the price API's cache, the bridge, name resolution, images, the provider script, kits, the pages
 * and widgets, the documentation files and the landing page.
 *
 * - `If-None-Match` is `*` or a comma-separated list of entity tags (`"x"`, `W/"x"`); empty list elements and the
 *   spaces around commas are allowed, as for any list field (§5.6.1). Several header lines are one list.
 * - Comparison is weak: `W/"x"` matches `"x"` and the reverse, since a 304 only says the client's copy is still
 *   good (§8.8.3.2).
 * - `*` matches whenever there is a current representation, which is every time this helper is called.
 * - A field that is not valid (`x` unquoted, `*` inside a list, a control character or a space in a tag) matches
 *   nothing: the client gets the full 200, never a 4xx, as nginx and Apache do with a field they cannot read.
 * - Only GET and HEAD are answered 304 (§13.1.2: for other methods a match would be 412; no route here takes a
 *   precondition on a write, so the field is ignored there).
 * - A 304 carries the headers the 200 would have carried to update a cache (ETag, Cache-Control, Vary; Date is
 *   Node's), and no body and no content type.
 *
 * Pure functions and an adapter over the few methods of a reply it calls, so that REST, the pages and the router may
 * all use it without importing one another (core imports no transport).
 */
import { createHash } from 'node:crypto';

/** A strong ETag from the exact bytes served: `"<sha-256, base64url, 32 characters>"`. */
export function strongEtag(body: string | Buffer): string {
  return `"${createHash('sha256').update(body).digest('base64url').slice(0, 32)}"`;
}

/** The opaque-tag of an entity tag (its quoted part, quotes included): what weak comparison compares. */
const opaque = (etag: string): string => (etag.startsWith('W/') ? etag.slice(2) : etag);

/** `etagc` of RFC 9110 §8.8.3: `!`, `#`–`~` and obs-text; no space, no `"`, no control character. */
const ETAGC = /^[\x21\x23-\x7e\x80-\xff]*$/;

/**
 * The entity tags `field` lists (each as sent, `W/` kept), `'*'`, or null when the field is absent, empty or not
 * valid. Several header lines (an array) are read as one list joined by commas.
 */
export function parseIfNoneMatch(field: string | readonly string[] | undefined): '*' | string[] | null {
  if (field === undefined) return null;
  const s = typeof field === 'string' ? field : field.join(',');
  if (s.trim() === '*') return '*';
  const tags: string[] = [];
  let i = 0;
  const n = s.length;
  for (;;) {
    // OWS and empty elements before a tag (`, , "x"` is a list of one).
    while (i < n && (s[i] === ' ' || s[i] === '\t' || s[i] === ',')) i++;
    if (i >= n) break;
    const start = i;
    if (s.startsWith('W/', i)) i += 2;
    if (s[i] !== '"') return null;
    // A tag may hold a comma (`"a,b"`): it ends at the next quote, not at the next comma.
    const close = s.indexOf('"', i + 1);
    if (close < 0 || !ETAGC.test(s.slice(i + 1, close))) return null;
    tags.push(s.slice(start, close + 1));
    i = close + 1;
    while (i < n && (s[i] === ' ' || s[i] === '\t')) i++;
    if (i < n && s[i] !== ',') return null;
  }
  return tags.length > 0 ? tags : null;
}

/**
 * Whether `field` (an `If-None-Match` value) matches the current representation, tagged `etag`: `*`, or a tag of
 * the list equal to `etag` by weak comparison. Absent or not valid: false.
 */
export function ifNoneMatchHits(field: string | readonly string[] | undefined, etag: string): boolean {
  const tags = parseIfNoneMatch(field);
  if (tags === null) return false;
  if (tags === '*') return true;
  const mine = opaque(etag);
  return tags.some((t) => opaque(t) === mine);
}

/** The request as the rule reads it: a Fastify request and Node's `IncomingMessage` both are one. */
export interface ConditionalRequest {
  readonly method?: string | undefined;
  readonly headers: { readonly 'if-none-match'?: string | readonly string[] | undefined };
}

/** The reply methods the rule calls: a Fastify reply is one. */
export interface ConditionalReply {
  header(name: string, value: string): unknown;
  code(status: number): unknown;
  send(): unknown;
}

/** What a 200 and its 304 both carry. */
export interface Validators {
  /** The representation's entity tag, quoted (`"…"`, or `W/"…"` for a weak one). */
  etag: string;
  /** `Cache-Control`, e.g. `no-cache` (revalidate every time) or `public, max-age=60`. */
  cacheControl: string;
  /** `Vary`, when the representation depends on request headers; it replaces any `Vary` set before. Default none. */
  vary?: string | undefined;
}

/**
 * Sets the validators on `reply`, then answers 304 (no body) when `req` is a GET or HEAD whose `If-None-Match`
 * matches. Returns the reply when it answered; undefined when the caller sends the 200 (its type and body):
 * `return notModified(req, reply, v) ?? reply.type(t).send(body)`. Set the 200's own headers (content type,
 * encoding) after it, so that a 304 does not carry them.
 */
export function notModified<R extends ConditionalReply>(
  req: ConditionalRequest,
  reply: R,
  v: Validators,
): R | undefined {
  reply.header('etag', v.etag);
  reply.header('cache-control', v.cacheControl);
  if (v.vary !== undefined) reply.header('vary', v.vary);
  if (req.method !== 'GET' && req.method !== 'HEAD') return undefined;
  if (!ifNoneMatchHits(req.headers['if-none-match'], v.etag)) return undefined;
  reply.code(304);
  reply.send();
  return reply;
}
