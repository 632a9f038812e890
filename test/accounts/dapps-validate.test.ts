import { describe, expect, it } from 'vitest';
import {
  DAPP_CHAINS,
  nextSubmission,
  parseOrigin,
  reviewBody,
  validateDappInput,
  validateNotes,
} from '../../src/accounts/dapp-validate.ts';
import { KIT_TICKERS } from '../../src/catalog/assets.ts';
import { ApiError } from '../../src/core/errors.ts';

const DAY = 86_400_000;
const valid = {
  name: 'Swap',
  site: 'https://swap.example/app?x=1',
  icon: 'https://cdn.example/i.svg',
  description: 'line one\nline two\tend',
  contactEmail: 'dev@swap.example',
  chains: ['SOL', 'LTC'],
};

function refusal(fn: () => unknown): ApiError {
  try {
    fn();
  } catch (e) {
    expect(e).toBeInstanceOf(ApiError);
    return e as ApiError;
  }
  throw new Error('expected a refusal');
}

describe('validateDappInput', () => {
  it('keeps the text verbatim and derives the normalised origin', () => {
    expect(validateDappInput(valid)).toEqual({ ...valid, siteOrigin: 'https://swap.example' });
  });

  it('supports the 19 kit tickers plus SOL', () => {
    expect(DAPP_CHAINS).toEqual([...KIT_TICKERS, 'SOL']);
    expect(DAPP_CHAINS).toHaveLength(20);
    expect(validateDappInput({ ...valid, chains: DAPP_CHAINS }).chains).toEqual(DAPP_CHAINS);
  });

  it('checks unknown fields before anything else, and fields in order', () => {
    expect(refusal(() => validateDappInput({ extra: 1 })).code).toBe('UNKNOWN_FIELD');
    expect(refusal(() => validateDappInput({})).code).toBe('INVALID_NAME');
    expect(refusal(() => validateDappInput({ ...valid, site: 'x', icon: 'y' })).code).toBe('INVALID_SITE');
    expect(refusal(() => validateDappInput(null)).code).toBe('INVALID_BODY');
    expect(refusal(() => validateDappInput('{}')).code).toBe('INVALID_BODY');
  });

  it('measures lengths in characters at the edges', () => {
    expect(
      validateDappInput({ ...valid, name: 'n'.repeat(80), description: 'd'.repeat(2000) }).name,
    ).toHaveLength(80);
    const url = `https://swap.example/${'p'.repeat(2048 - 'https://swap.example/'.length)}`;
    expect(validateDappInput({ ...valid, site: url, icon: url }).site).toBe(url);
    expect(refusal(() => validateDappInput({ ...valid, icon: `${url}p` })).code).toBe('INVALID_ICON');
  });
});

describe('notes', () => {
  it('are optional for approval, required and bounded otherwise', () => {
    expect(validateNotes(undefined, false)).toBeNull();
    expect(validateNotes(null, false)).toBeNull();
    expect(validateNotes('ok', true)).toBe('ok');
    expect(refusal(() => validateNotes(undefined, true)).code).toBe('INVALID_NOTES');
    expect(refusal(() => validateNotes('', false)).code).toBe('INVALID_NOTES');
    expect(refusal(() => validateNotes('n'.repeat(2001), false)).code).toBe('INVALID_NOTES');
    expect(reviewBody(undefined)).toEqual({});
    expect(refusal(() => reviewBody({ note: 'typo' })).code).toBe('UNKNOWN_FIELD');
  });
});

describe('nextSubmission (rolling window)', () => {
  const now = 10 * DAY;
  it('allows up to the limit inside the window', () => {
    expect(nextSubmission([], now)).toEqual({ allowed: true });
    expect(nextSubmission([now - 1, now - 2], now)).toEqual({ allowed: true });
  });

  it('names the time the oldest of the last three leaves', () => {
    expect(nextSubmission([now - 5000, now - 1000, now - 3000], now)).toEqual({
      allowed: false,
      nextAt: now - 5000 + DAY,
    });
    // More than the limit in the window (e.g. the limit was lowered): wait until only two are left.
    expect(nextSubmission([now - 4, now - 3, now - 2, now - 1], now)).toEqual({
      allowed: false,
      nextAt: now - 3 + DAY,
    });
  });

  it('ignores requests that left the window (exactly 24 hours old has left)', () => {
    expect(nextSubmission([now - DAY, now - 2, now - 1], now)).toEqual({ allowed: true });
    expect(nextSubmission([now - DAY + 1, now - 2, now - 1], now)).toEqual({
      allowed: false,
      nextAt: now + 1,
    });
  });
});

describe('parseOrigin', () => {
  it('reduces an http(s) URL to its origin', () => {
    expect(parseOrigin('https://A.example/x/y?z#w')).toBe('https://a.example');
    expect(parseOrigin('https://a.example:443/')).toBe('https://a.example');
    expect(parseOrigin('https://a.example:8443')).toBe('https://a.example:8443');
    expect(parseOrigin('http://a.example')).toBe('http://a.example');
    expect(parseOrigin('https://bücher.example')).toBe('https://xn--bcher-kva.example');
  });

  it('is null for anything else', () => {
    for (const v of [
      '',
      'a.example',
      'null',
      'file:///etc/passwd',
      'wss://a.example',
      'https://u@a.example',
      ' https://a.example',
    ]) {
      expect(parseOrigin(v)).toBeNull();
    }
  });
});
