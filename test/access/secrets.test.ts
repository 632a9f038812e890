import { mkdtempSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import {
  displayPrefix,
  generateKey,
  hashKey,
  isWellFormedKey,
  PepperError,
  resolvePepper,
  safeEqual,
} from '../../src/access/secrets.ts';

describe('key format', () => {
  it('is cw_live_ and 44 base58 characters, different every time', () => {
    const keys = new Set(Array.from({ length: 200 }, generateKey));
    expect(keys.size).toBe(200);
    for (const k of keys) {
      expect(k).toMatch(/^cw_live_[1-9A-HJ-NP-Za-km-z]{44}$/);
      expect(isWellFormedKey(k)).toBe(true);
    }
  });

  it('rejects other shapes before any lookup', () => {
    const k = generateKey();
    expect(isWellFormedKey(k.slice(0, -1))).toBe(false);
    expect(isWellFormedKey(k + 'x')).toBe(false);
    expect(isWellFormedKey(k.replace('cw_live_', 'cw_test_'))).toBe(false);
    expect(isWellFormedKey('cw_live_' + '0'.repeat(44))).toBe(false); // 0 is not base58
    expect(isWellFormedKey('CG-abcdefabcdefabcdef')).toBe(false);
  });

  it('shows the first 12 characters', () => {
    const k = generateKey();
    expect(displayPrefix(k)).toBe(k.slice(0, 12));
    expect(displayPrefix(k)).toMatch(/^cw_live_.{4}$/);
  });
});

describe('hashKey', () => {
  const key = 'cw_live_' + '2'.repeat(44);

  it('is a stable HMAC-SHA256 hex under the pepper', () => {
    const h = hashKey(key, 'pepper-one-0123456789');
    expect(h).toMatch(/^[0-9a-f]{64}$/);
    expect(hashKey(key, 'pepper-one-0123456789')).toBe(h);
    expect(h).not.toContain(key);
  });

  it('differs with another pepper or another key', () => {
    const h = hashKey(key, 'pepper-one-0123456789');
    expect(hashKey(key, 'pepper-two-0123456789')).not.toBe(h);
    expect(hashKey(key.replace(/2$/, '3'), 'pepper-one-0123456789')).not.toBe(h);
  });

  it('compares in constant time, including different lengths', () => {
    expect(safeEqual('abc', 'abc')).toBe(true);
    expect(safeEqual('abc', 'abd')).toBe(false);
    expect(safeEqual('abc', 'abcd')).toBe(false);
  });
});

describe('resolvePepper', () => {
  const dirs: string[] = [];
  const tmp = () => {
    const d = mkdtempSync(join(tmpdir(), 'cw-pepper-'));
    dirs.push(d);
    return d;
  };
  afterEach(() => {
    for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
  });

  it('uses API_KEY_PEPPER when set, in every mode', () => {
    const dir = tmp();
    expect(resolvePepper({ env: 'x'.repeat(32), dataDir: dir, scaleOut: true })).toBe('x'.repeat(32));
    expect(resolvePepper({ env: 'y'.repeat(32), dataDir: dir, scaleOut: false })).toBe('y'.repeat(32));
  });

  it('refuses a short API_KEY_PEPPER', () => {
    expect(() => resolvePepper({ env: 'short', dataDir: undefined, scaleOut: false })).toThrow(/at least 16/);
  });

  it('is a startup error in scale-out mode without API_KEY_PEPPER', () => {
    expect(() => resolvePepper({ env: undefined, dataDir: tmp(), scaleOut: true })).toThrow(PepperError);
    expect(() => resolvePepper({ env: '', dataDir: tmp(), scaleOut: true })).toThrow(
      /API_KEY_PEPPER is required when DATABASE_URL is set/,
    );
  });

  it('creates <dataDir>/secrets/api-key-pepper (0600) once and reads it afterwards', () => {
    const dir = tmp();
    const first = resolvePepper({ env: undefined, dataDir: dir, scaleOut: false });
    expect(first).toMatch(/^[0-9a-f]{64}$/);
    const path = join(dir, 'secrets', 'api-key-pepper');
    expect(readFileSync(path, 'utf8').trim()).toBe(first);
    expect(statSync(path).mode & 0o777).toBe(0o600);
    expect(resolvePepper({ env: undefined, dataDir: dir, scaleOut: false })).toBe(first);
    expect(resolvePepper({ env: undefined, dataDir: tmp(), scaleOut: false })).not.toBe(first);
  });

  it('makes a per-process pepper for an in-memory store', () => {
    const a = resolvePepper({ env: undefined, dataDir: undefined, scaleOut: false });
    expect(a).toMatch(/^[0-9a-f]{64}$/);
    expect(resolvePepper({ env: undefined, dataDir: undefined, scaleOut: false })).not.toBe(a);
  });
});
