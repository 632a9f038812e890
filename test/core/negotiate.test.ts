/** `preferredType` (src/core/negotiate.ts): which offered type an `Accept` header prefers, by RFC 9110's rules. */
import { describe, expect, it } from 'vitest';
import { preferredType } from '../../src/core/negotiate.ts';

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

  it('parameters other than q are ignored; case does not matter; malformed ranges are skipped', () => {
    expect(pick('application/json; charset=utf-8')).toBe('application/json');
    expect(pick('Application/JSON')).toBe('application/json');
    expect(pick('application/json;q=0.5;level=1, text/html;q=0.4')).toBe('application/json');
    expect(pick('json, application/json')).toBe('application/json');
    expect(pick('*/json, application/json;q=0.2')).toBe('application/json');
    // A q that is not a number from 0 to 1 drops its range.
    expect(pick('application/json;q=2, text/html;q=0.1')).toBe('text/html');
    expect(pick('application/json;q=abc')).toBeNull();
    expect(pick('application/json;q=0.123, text/html;q=0.12')).toBe('application/json');
  });
});
