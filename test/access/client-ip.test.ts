import { describe, expect, it } from 'vitest';
import { clientIp, normalizeIp, parseTrustedProxies } from '../../src/access/client-ip.ts';

const TRUSTED = parseTrustedProxies('10.0.0.0/8, 127.0.0.1, ::1, fd00::/8');

describe('clientIp', () => {
  it('is the socket peer when there are no trusted proxies', () => {
    expect(clientIp('203.0.113.7', '198.51.100.1', [])).toBe('203.0.113.7');
  });

  it('ignores X-Forwarded-For from an untrusted peer (spoofing)', () => {
    expect(clientIp('203.0.113.7', '198.51.100.1', TRUSTED)).toBe('203.0.113.7');
  });

  it('takes the address a trusted proxy reports', () => {
    expect(clientIp('10.1.2.3', '198.51.100.1', TRUSTED)).toBe('198.51.100.1');
    expect(clientIp('127.0.0.1', '198.51.100.1', TRUSTED)).toBe('198.51.100.1');
  });

  it('walks right to left past trusted hops and ignores what the client prepended', () => {
    // The client sent "X-Forwarded-For: 1.1.1.1"; its proxy chain appended its real address and an inner proxy.
    expect(clientIp('10.0.0.1', '1.1.1.1, 198.51.100.9, 10.0.0.2', TRUSTED)).toBe('198.51.100.9');
  });

  it('stops at the last trusted hop when every hop is trusted', () => {
    expect(clientIp('10.0.0.1', '10.0.0.3, 10.0.0.2', TRUSTED)).toBe('10.0.0.3');
  });

  it('stops at a hop that is not an address', () => {
    expect(clientIp('10.0.0.1', '198.51.100.9, not-an-ip', TRUSTED)).toBe('10.0.0.1');
    expect(clientIp('10.0.0.1', 'not-an-ip, 10.0.0.2', TRUSTED)).toBe('10.0.0.2');
  });

  it('handles IPv6 peers, hops and CIDRs', () => {
    expect(clientIp('::1', '2001:DB8::5', TRUSTED)).toBe('2001:db8::5');
    expect(clientIp('fd12:3456::1', '2001:db8::7', TRUSTED)).toBe('2001:db8::7');
    expect(clientIp('2001:db8::1', '198.51.100.1', TRUSTED)).toBe('2001:db8::1');
    expect(clientIp('10.0.0.1', '[2001:db8::8]:4711', TRUSTED)).toBe('2001:db8::8');
  });

  it('treats ::ffff: mapped IPv4 as IPv4', () => {
    expect(clientIp('::ffff:10.1.2.3', '198.51.100.1', TRUSTED)).toBe('198.51.100.1');
    expect(clientIp('::ffff:203.0.113.7', '198.51.100.1', TRUSTED)).toBe('203.0.113.7');
    expect(clientIp('10.0.0.1', '::ffff:198.51.100.2', TRUSTED)).toBe('198.51.100.2');
  });

  it('is the peer without X-Forwarded-For', () => {
    expect(clientIp('10.0.0.1', undefined, TRUSTED)).toBe('10.0.0.1');
  });

  it('reads several X-Forwarded-For headers as one list, in order', () => {
    expect(clientIp('10.0.0.1', ['1.1.1.1', '198.51.100.9, 10.0.0.2'], TRUSTED)).toBe('198.51.100.9');
  });
});

describe('parseTrustedProxies', () => {
  it('splits on commas and drops blanks', () => {
    expect(parseTrustedProxies(' 10.0.0.0/8 ,, ::1 ')).toEqual(['10.0.0.0/8', '::1']);
    expect(parseTrustedProxies(undefined)).toEqual([]);
  });

  it.each(['10.0.0.0/33', 'proxy.local', '10.0.0.0/', '::1/129', '1.2.3.4/8/9'])('refuses %s', (bad) => {
    expect(() => parseTrustedProxies(bad)).toThrow(/TRUSTED_PROXIES entry/);
  });
});

describe('normalizeIp', () => {
  it('canonicalises addresses and refuses others', () => {
    expect(normalizeIp(' 1.2.3.4:80 ')).toBe('1.2.3.4');
    expect(normalizeIp('::FFFF:1.2.3.4')).toBe('1.2.3.4');
    expect(normalizeIp('[::1]')).toBe('::1');
    expect(normalizeIp('unknown')).toBeNull();
  });
});
