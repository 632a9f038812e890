import { describe, expect, it } from 'vitest';
import { ApiError } from '../../src/core/errors.ts';
import { checkSuffix, parseAsset, parseName } from '../../src/names/name-rules.ts';
import {
  canonicalRequest,
  checkSignature,
  checkTimestamp,
  partnerKeyHash,
  partnerSignature,
  readPartnerHeaders,
} from '../../src/names/partner-auth.ts';

function codeOf(fn: () => unknown): [number, string, string] | 'ok' {
  try {
    fn();
    return 'ok';
  } catch (e) {
    if (!(e instanceof ApiError)) throw e;
    return [e.status, e.code, e.message];
  }
}

describe('parseName', () => {
  it('normalises case and surrounding spaces', () => {
    expect(parseName('  Alice-99.COIN ', 'coin')).toEqual({ label: 'alice-99', name: 'alice-99.coin' });
    expect(parseName('abc.coin', 'coin').label).toBe('abc');
    expect(parseName(`${'a'.repeat(32)}.coin`, 'coin').label).toHaveLength(32);
  });

  it.each([
    ['ab.coin', 'this label has 2 characters'],
    [`${'a'.repeat(33)}.coin`, 'this label has 33 characters'],
    ['-abc.coin', 'must not begin or end with a hyphen'],
    ['abc-.coin', 'must not begin or end with a hyphen'],
    ['a_bc.coin', 'dots and other characters'],
    ['a.bc.coin', 'dots and other characters'],
    ['alice.eth', 'names of this service end in .coin'],
    ['alice', 'the name must end in .coin'],
    ['alice.coin.', 'names of this service end in .coin'],
    ['álice.coin', 'only ASCII'],
    ['\u212Aelvin.coin', 'only ASCII'], // KELVIN SIGN lowercases to ASCII "k": refused, never folded
    ['ａｌｉｃｅ.coin', 'only ASCII'],
    ['xn--lice-qqa.coin', 'punycode'],
    ['ab--c.coin', 'punycode'],
    ['ali ce.coin', 'only ASCII'],
    ['', 'the name must end in .coin'],
  ])('%j → 400 INVALID_NAME stating the rule (%s)', (input, detail) => {
    const r = codeOf(() => parseName(input, 'coin'));
    expect(r).not.toBe('ok');
    const [status, code, message] = r as [number, string, string];
    expect([status, code]).toEqual([400, 'INVALID_NAME']);
    expect(message).toContain('3 to 32 lowercase letters (a-z), digits and inner hyphens');
    expect(message).toContain(detail);
  });

  it('inner hyphens (not in positions 3–4) are fine', () => {
    expect(parseName('a-b-c.coin', 'coin').label).toBe('a-b-c');
  });

  it('uses the configured suffix', () => {
    expect(parseName('alice.LTC', checkSuffix('ltc')).name).toBe('alice.ltc');
    expect(codeOf(() => parseName('alice.coin', 'ltc'))).not.toBe('ok');
    expect(() => checkSuffix('bad suffix')).toThrow(/NAME_SUFFIX/);
  });
});

describe('parseAsset', () => {
  it('accepts the 19 kit tickers and SOL, uppercase', () => {
    expect(parseAsset('LTC')).toBe('LTC');
    expect(parseAsset('B1T')).toBe('B1T');
    expect(parseAsset('SOL')).toBe('SOL');
  });

  it.each([
    [undefined, 'MISSING_PARAMETER', 'asset is required'],
    ['', 'MISSING_PARAMETER', 'asset is required'],
    ['ltc', 'INVALID_PARAMETER', 'must be uppercase: LTC'],
    ['BTC', 'INVALID_PARAMETER', 'uppercase ticker such as LTC'],
    ['ETH', 'INVALID_PARAMETER', 'LTC, DOGE'],
  ])('%j → 400 %s', (input, code, detail) => {
    const r = codeOf(() => parseAsset(input));
    expect(r).not.toBe('ok');
    expect((r as string[])[1]).toBe(code);
    expect((r as string[])[2]).toContain(detail);
  });
});

describe('partner signing', () => {
  const secret = 'cwp_test-secret';
  const key = partnerKeyHash(secret);
  const canonical = canonicalRequest(
    'post',
    '/api/partner/names?x=1',
    1_767_225_600,
    'n'.repeat(16),
    '{"a":1}',
  );

  it('canonical text: METHOD, path with query, timestamp, nonce, sha256 of the body', () => {
    expect(canonical).toBe(
      // sha256('{"a":1}')
      `POST\n/api/partner/names?x=1\n1767225600\n${'n'.repeat(16)}\n015abd7f5cc57a2dd94b7590f04ad8084273905ee33ec5cebeae62276a97f862`,
    );
    expect(canonicalRequest('DELETE', '/p', 1, 'n', '')).toMatch(
      /e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855$/,
    );
  });

  it('accepts its own signature, refuses any other (same length or not)', () => {
    const sig = partnerSignature(key, canonical);
    expect(() => checkSignature(key, canonical, sig)).not.toThrow();
    expect(
      codeOf(() =>
        checkSignature(
          key,
          canonical,
          sig.replace(/^./, (c) => (c === '0' ? '1' : '0')),
        ),
      ),
    ).toEqual(expect.arrayContaining([401, 'PARTNER_SIGNATURE']));
    expect(codeOf(() => checkSignature(partnerKeyHash('other'), canonical, sig))).not.toBe('ok');
    expect(codeOf(() => checkSignature(key, canonical, sig.slice(0, 10)))).not.toBe('ok');
  });

  it('timestamp window: 5 minutes either way', () => {
    const now = 1_767_225_600_000;
    expect(() => checkTimestamp(now / 1000 - 300, now)).not.toThrow();
    expect(() => checkTimestamp(now / 1000 + 300, now)).not.toThrow();
    expect(codeOf(() => checkTimestamp(now / 1000 - 301, now))).toEqual(
      expect.arrayContaining(['PARTNER_TIMESTAMP']),
    );
    expect(codeOf(() => checkTimestamp(now / 1000 + 301, now))).toEqual(
      expect.arrayContaining(['PARTNER_TIMESTAMP']),
    );
  });

  it('headers: missing → PARTNER_AUTH_REQUIRED, malformed → their own code', () => {
    const ok = {
      'x-partner-id': '00000000-0000-4000-8000-000000000000',
      'x-partner-timestamp': '1767225600',
      'x-partner-nonce': 'abcdefghijklmnop',
      'x-partner-signature': 'a'.repeat(64),
    };
    expect(readPartnerHeaders(ok).timestamp).toBe(1_767_225_600);
    const { 'x-partner-nonce': _n, ...noNonce } = ok;
    expect(codeOf(() => readPartnerHeaders(noNonce))).toEqual(
      expect.arrayContaining(['PARTNER_AUTH_REQUIRED']),
    );
    expect(codeOf(() => readPartnerHeaders({ ...ok, 'x-partner-timestamp': '-5' }))).toEqual(
      expect.arrayContaining(['PARTNER_TIMESTAMP']),
    );
    expect(codeOf(() => readPartnerHeaders({ ...ok, 'x-partner-nonce': 'short' }))).toEqual(
      expect.arrayContaining(['PARTNER_NONCE']),
    );
    expect(codeOf(() => readPartnerHeaders({ ...ok, 'x-partner-signature': 'zz' }))).toEqual(
      expect.arrayContaining(['PARTNER_SIGNATURE']),
    );
  });
});
