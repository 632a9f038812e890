/**
 * `preferredType` (src/core/negotiate.ts): which offered type an `Accept` header prefers, by RFC 9110's rules; and
 * `normaliseMediaType`, a content type as HTTP compares it.
 */
import { describe, expect, it } from 'vitest';
import { normaliseMediaType, preferredCoding, preferredType } from '../../src/core/negotiate.ts';

const OFFERED = ['text/html', 'application/json'];
const pick = (accept: string | undefined) => preferredType(accept, OFFERED);

describe('preferredType', () => {
  it('no Accept header, or an empty one, accepts anything: the first offered type', () => {
    expect(pick(undefined)).toBe('text/html');
    expect(pick('')).toBe('text/html');
    expect(pick('  ')).toBe('text/html');
  });

  it('a single type, a wildcard, a type wildcard', () => {
    expect(pick('application/json')).toBe('application/json');
    expect(pick('text/html')).toBe('text/html');
    expect(pick('*/*')).toBe('text/html');
    expect(pick('application/*')).toBe('application/json');
    expect(pick('text/*')).toBe('text/html');
  });

  it('what a browser, curl and fetch send', () => {
    expect(
      pick('text/html,application/xhtml+xml,application/xml;q=0.9,image/avif,image/webp,*/*;q=0.8'),
    ).toBe('text/html');
    expect(pick('*/*')).toBe('text/html');
  });

  it('the higher q-value wins, wherever it is listed', () => {
    expect(pick('text/html;q=0.5, application/json;q=0.6')).toBe('application/json');
    expect(pick('application/json;q=0.4, text/html;q=0.9')).toBe('text/html');
    expect(pick('text/html;q=0.8, */*;q=0.9')).toBe('application/json'); // JSON only through */*, at 0.9
    expect(pick('application/json, */*;q=0.1')).toBe('application/json');
  });

  it('the most specific range decides a type’s quality', () => {
    // text/html is refused explicitly, though */* would allow it.
    expect(pick('*/*, text/html;q=0')).toBe('application/json');
    expect(pick('text/*;q=0.1, text/html;q=0.9, application/json;q=0.5')).toBe('text/html');
    expect(pick('text/*;q=0.9, text/html;q=0.1, application/json;q=0.5')).toBe('application/json');
  });

  it('equal q-values: the more specific range, then the client’s order', () => {
    expect(pick('*/*, application/json')).toBe('application/json');
    expect(pick('application/json, text/html')).toBe('application/json');
    expect(pick('text/html, application/json')).toBe('text/html');
    expect(pick('text/*, application/json')).toBe('application/json');
  });

  it('accepting none of the offered types: null', () => {
    expect(pick('image/png')).toBeNull();
    expect(pick('application/xml, text/plain')).toBeNull();
    expect(pick('text/html;q=0, application/json;q=0')).toBeNull();
    expect(pick('*/*;q=0')).toBeNull();
  });

  it('case does not matter; what follows q is ignored; malformed ranges are skipped', () => {
    expect(pick('application/json; charset=utf-8')).toBe('application/json');
    expect(pick('Application/JSON')).toBe('application/json');
    expect(pick('APPLICATION/JSON; CHARSET=UTF-8; Q=0.5, TEXT/HTML; Q=0.4')).toBe('application/json');
    expect(pick('application/json;q=0.5;level=1, text/html;q=0.4')).toBe('application/json');
    expect(pick('json, application/json')).toBe('application/json');
    expect(pick('*/json, application/json;q=0.2')).toBe('application/json');
    // A q that is not a number from 0 to 1 drops its range.
    expect(pick('application/json;q=2, text/html;q=0.1')).toBe('text/html');
    expect(pick('application/json;q=abc')).toBeNull();
    expect(pick('application/json;q=0.123, text/html;q=0.12')).toBe('application/json');
  });
});

describe('preferredType: media-type parameters', () => {
  const MULTIPART = ['application/json', 'multipart/mixed;deferSpec=20220824'];

  it('a range with parameters matches only an offered type that has them (names and values in any case)', () => {
    expect(preferredType('multipart/mixed;deferSpec=20220824', MULTIPART)).toBe(
      'multipart/mixed;deferSpec=20220824',
    );
    expect(preferredType('MULTIPART/MIXED; DEFERSPEC="20220824"', MULTIPART)).toBe(
      'multipart/mixed;deferSpec=20220824',
    );
    expect(preferredType('multipart/mixed;deferSpec=20230101', MULTIPART)).toBeNull();
    expect(preferredType('multipart/mixed;subscriptionSpec=1.0', MULTIPART)).toBeNull();
    expect(preferredType('application/json;version=2', MULTIPART)).toBeNull();
    // A range without parameters matches the offered type with them.
    expect(preferredType('multipart/mixed', MULTIPART)).toBe('multipart/mixed;deferSpec=20220824');
  });

  it('a range with parameters is more specific than one without', () => {
    const offered = ['text/plain;format=flowed', 'text/plain'];
    expect(preferredType('text/plain;q=0.2, text/plain;format=flowed', offered)).toBe(
      'text/plain;format=flowed',
    );
    expect(preferredType('text/plain;format=flowed;q=0, text/plain', offered)).toBe('text/plain');
    // Apollo Client with @defer: multipart first, JSON at 0.9.
    expect(preferredType('multipart/mixed;deferSpec=20220824,application/json;q=0.9', MULTIPART)).toBe(
      'multipart/mixed;deferSpec=20220824',
    );
  });

  it('charset: UTF-8 (any case) matches every type; another charset none', () => {
    expect(pick('application/json;charset=UTF-8')).toBe('application/json');
    expect(pick('application/json;charset="utf-8"')).toBe('application/json');
    expect(pick('application/json;charset=iso-8859-1')).toBeNull();
    expect(pick('application/json;charset=iso-8859-1, text/html;q=0.1')).toBe('text/html');
  });

  it('a parameter that is not name=value is ignored', () => {
    expect(pick('application/json;;foo, text/html;q=0.5')).toBe('application/json');
  });
});

describe('normaliseMediaType', () => {
  it('lowercases the type, the subtype and the parameter names, keeping the values', () => {
    expect(normaliseMediaType('APPLICATION/JSON')).toBe('application/json');
    expect(normaliseMediaType('Application/Json; Charset=UTF-8')).toBe('application/json; charset=UTF-8');
    expect(normaliseMediaType(' multipart/form-data;Boundary=AbC ')).toBe(
      'multipart/form-data; boundary=AbC',
    );
    expect(normaliseMediaType('text/plain;;')).toBe('text/plain');
  });
});

describe('preferredCoding', () => {
  const coding = (h: string | undefined) => preferredCoding(h, ['br', 'gzip']);

  it('what browsers and curl send; none asked, none sent', () => {
    expect(coding('gzip, deflate, br, zstd')).toBe('br');
    expect(coding('gzip')).toBe('gzip');
    expect(coding(undefined)).toBe('identity');
    expect(coding('')).toBe('identity');
    expect(coding('identity')).toBe('identity');
  });

  it('by q-value, then the server’s order; q=0 refuses; * covers the codings not named', () => {
    expect(coding('br;q=0, gzip')).toBe('gzip');
    expect(coding('br;q=0.5, gzip;q=0.8')).toBe('gzip');
    expect(coding('gzip, br')).toBe('br');
    expect(coding('*')).toBe('br');
    expect(coding('*, br;q=0')).toBe('gzip');
    expect(coding('*;q=0')).toBe('identity');
    expect(coding('GZIP;Q=1, BR;Q=0')).toBe('gzip');
    // A q that is not a number from 0 to 1 drops its entry.
    expect(coding('br;q=2, gzip;q=0.1')).toBe('gzip');
  });
});
