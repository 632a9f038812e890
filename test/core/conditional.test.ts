/**
 * The conditional-request rule (src/core/conditional.ts), RFC 9110 §13.1.2: how an `If-None-Match` field is read
 * (a list, `*`, weak tags, a field that is not valid), then the adapter on a real Fastify server over loopback: what
 * a 304 carries and lacks, HEAD like GET, other methods never 304, and a malformed field a 200 rather than a 4xx.
 */
import Fastify from 'fastify';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ifNoneMatchHits, notModified, parseIfNoneMatch, strongEtag } from '../../src/core/conditional.ts';

const ETAG = '"abc"';

describe('parseIfNoneMatch', () => {
  it('reads a list of tags, weak ones as sent, with empty elements and spaces around commas', () => {
    expect(parseIfNoneMatch('"a"')).toEqual(['"a"']);
    expect(parseIfNoneMatch('"a", W/"b",,  "c"\t,')).toEqual(['"a"', 'W/"b"', '"c"']);
    expect(parseIfNoneMatch(', "a"')).toEqual(['"a"']);
    expect(parseIfNoneMatch('""')).toEqual(['""']);
  });

  it('a comma inside a tag belongs to the tag', () => {
    expect(parseIfNoneMatch('"a,b", "c"')).toEqual(['"a,b"', '"c"']);
  });

  it('several header lines are one list', () => {
    expect(parseIfNoneMatch(['"a"', 'W/"b"'])).toEqual(['"a"', 'W/"b"']);
  });

  it('`*` alone, with or without spaces around it', () => {
    expect(parseIfNoneMatch('*')).toBe('*');
    expect(parseIfNoneMatch(' * ')).toBe('*');
  });

  it.each([
    ['absent', undefined],
    ['empty', ''],
    ['only commas and spaces', ' , ,'],
    ['unquoted', 'abc'],
    ['a tag without its closing quote', '"abc'],
    ['`*` inside a list', '*, "abc"'],
    ['lowercase weak prefix', 'w/"abc"'],
    ['a space inside a tag', '"a b"'],
    ['a control character inside a tag', '"a\u0001b"'],
    ['two tags without a comma', '"a" "b"'],
    ['garbage after a tag', '"a"x'],
    ['a valid tag followed by an unquoted one', '"abc", abc'],
  ])('%s: null (no match)', (_what, field) => {
    expect(parseIfNoneMatch(field)).toBeNull();
  });
});

describe('ifNoneMatchHits', () => {
  it('the tag itself, anywhere in the list', () => {
    expect(ifNoneMatchHits('"abc"', ETAG)).toBe(true);
    expect(ifNoneMatchHits('"x", "abc"', ETAG)).toBe(true);
    expect(ifNoneMatchHits('"abc", "x"', ETAG)).toBe(true);
    expect(ifNoneMatchHits(['"x"', '"abc"'], ETAG)).toBe(true);
  });

  it('weak comparison: W/ on either side, or both, still matches', () => {
    expect(ifNoneMatchHits('W/"abc"', ETAG)).toBe(true);
    expect(ifNoneMatchHits('"abc"', 'W/"abc"')).toBe(true);
    expect(ifNoneMatchHits('W/"abc"', 'W/"abc"')).toBe(true);
  });

  it('`*` matches any current representation', () => {
    expect(ifNoneMatchHits('*', ETAG)).toBe(true);
    expect(ifNoneMatchHits('*', 'W/"anything"')).toBe(true);
  });

  it('another tag, a prefix or an extension of it, or a different case does not match', () => {
    expect(ifNoneMatchHits('"abcd"', ETAG)).toBe(false);
    expect(ifNoneMatchHits('"ab"', ETAG)).toBe(false);
    expect(ifNoneMatchHits('"ABC"', ETAG)).toBe(false);
    expect(ifNoneMatchHits('"x", W/"y"', ETAG)).toBe(false);
  });

  it('a field that is not valid matches nothing, even when it holds the tag', () => {
    expect(ifNoneMatchHits(undefined, ETAG)).toBe(false);
    expect(ifNoneMatchHits('', ETAG)).toBe(false);
    expect(ifNoneMatchHits('abc', ETAG)).toBe(false);
    expect(ifNoneMatchHits('"abc", abc', ETAG)).toBe(false);
    expect(ifNoneMatchHits('*, "abc"', ETAG)).toBe(false);
  });
});

describe('strongEtag', () => {
  it('is a quoted 32-character hash of the bytes, the same for a string and its UTF-8 bytes', () => {
    expect(strongEtag('hello')).toMatch(/^"[\w-]{32}"$/);
    expect(strongEtag('hello')).toBe(strongEtag(Buffer.from('hello')));
    expect(strongEtag('hello')).not.toBe(strongEtag('hello!'));
  });
});

describe('notModified on a Fastify server', () => {
  let app: FastifyInstance;
  let base: string;
  const BODY = 'the representation';
  const TAG = strongEtag(BODY);

  beforeAll(async () => {
    app = Fastify();
    for (const method of ['GET', 'POST'] as const) {
      app.route({
        method,
        url: '/thing',
        handler: async (req, reply) => {
          void reply.header('x-content-type-options', 'nosniff');
          return (
            notModified(req, reply, {
              etag: TAG,
              cacheControl: 'public, max-age=60',
              vary: 'accept-encoding',
            }) ?? reply.type('text/plain; charset=utf-8').header('content-language', 'en').send(BODY)
          );
        },
      });
    }
    base = await app.listen({ port: 0, host: '127.0.0.1' });
  });
  afterAll(() => app.close());

  const get = (inm?: string, method = 'GET') =>
    fetch(`${base}/thing`, { method, headers: inm === undefined ? {} : { 'if-none-match': inm } });

  it('a 200 carries the validators and the body', async () => {
    const r = await get();
    expect(r.status).toBe(200);
    expect(r.headers.get('etag')).toBe(TAG);
    expect(r.headers.get('cache-control')).toBe('public, max-age=60');
    expect(r.headers.get('vary')).toBe('accept-encoding');
    expect(await r.text()).toBe(BODY);
  });

  it('a 304: ETag, Cache-Control, Vary, Date and the headers set before it; no body, no type', async () => {
    for (const inm of [TAG, `W/${TAG}`, `"other", ${TAG}`, '*']) {
      const r = await get(inm);
      expect([inm, r.status]).toEqual([inm, 304]);
      expect(r.headers.get('etag')).toBe(TAG);
      expect(r.headers.get('cache-control')).toBe('public, max-age=60');
      expect(r.headers.get('vary')).toBe('accept-encoding');
      expect(r.headers.get('date')).toBeTruthy();
      expect(r.headers.get('x-content-type-options')).toBe('nosniff');
      expect(r.headers.get('content-type')).toBeNull();
      expect(r.headers.get('content-language')).toBeNull();
      expect(await r.text()).toBe('');
    }
  });

  it('HEAD is answered like GET', async () => {
    expect((await get(TAG, 'HEAD')).status).toBe(304);
    const r = await get('"other"', 'HEAD');
    expect([r.status, r.headers.get('etag')]).toEqual([200, TAG]);
  });

  it('another method ignores If-None-Match', async () => {
    const r = await get(TAG, 'POST');
    expect([r.status, await r.text()]).toEqual([200, BODY]);
    expect(r.headers.get('etag')).toBe(TAG);
  });

  it('a tag that does not match, or a malformed field, is the full 200, never a 4xx', async () => {
    for (const inm of ['"other"', 'garbage', TAG.slice(1, -1), `*, ${TAG}`, '"unterminated']) {
      const r = await get(inm);
      expect([inm, r.status, await r.text()]).toEqual([inm, 200, BODY]);
    }
  });
});
