import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto';
import { join } from 'node:path';
import { fileSecret } from '../secret-file.ts';

/**
 * API key format: `cw_live_` followed by 32 random bytes written as 44 base58 characters (Bitcoin alphabet, fixed
 * width). Base58 rather than base64url: no look-alike characters (0/O, I/l), nothing that needs URL encoding in the
 * `x_sp_api_key` query parameter, and a double-click selects the whole key.
 */
export const KEY_PREFIX = 'cw_live_';
const ALPHABET = '123456789ABCDEFGHJKLMNPQRSTUVWXYZabcdefghijkmnopqrstuvwxyz';
const BODY_LENGTH = 44; // 58^44 > 2^256
const KEY_RE = new RegExp(`^${KEY_PREFIX}[${ALPHABET}]{${BODY_LENGTH}}$`);
/** Characters of a key kept in clear for display (`cw_live_` + 4): enough to tell keys apart in a list. */
export const DISPLAY_PREFIX_LENGTH = 12;

/** A new random API key. Show it once; store only {@link hashKey} of it. */
export function generateKey(): string {
  let n = BigInt('0x' + randomBytes(32).toString('hex'));
  let body = '';
  for (let i = 0; i < BODY_LENGTH; i++) {
    body = ALPHABET[Number(n % 58n)] + body;
    n /= 58n;
  }
  return KEY_PREFIX + body;
}

/** True when `key` has the shape of a key we issue (cheap check before any hashing or lookup). */
export function isWellFormedKey(key: string): boolean {
  return KEY_RE.test(key);
}

/** The part of a key shown in key lists. */
export function displayPrefix(key: string): string {
  return key.slice(0, DISPLAY_PREFIX_LENGTH);
}

/** HMAC-SHA256 of the key under the server-side pepper, hex: what the database stores and is searched by. */
export function hashKey(key: string, pepper: string): string {
  return createHmac('sha256', pepper).update(key).digest('hex');
}

/** Constant-time string equality (lengths are not secret). */
export function safeEqual(a: string, b: string): boolean {
  const x = Buffer.from(a);
  const y = Buffer.from(b);
  return x.length === y.length && timingSafeEqual(x, y);
}

export class PepperError extends Error {}

/** Shortest `API_KEY_PEPPER` accepted. */
export const MIN_PEPPER_LENGTH = 16;

export interface PepperOptions {
  /** `API_KEY_PEPPER`; wins when set. At least 16 characters (`openssl rand -hex 32` is a good value). */
  env: string | undefined;
  /** `DATA_DIR`: in embedded mode the pepper lives in `<dataDir>/secrets/api-key-pepper`. Undefined → in-memory store. */
  dataDir: string | undefined;
  /** True when `DATABASE_URL` is set: several processes share the keys, so they must share the pepper. */
  scaleOut: boolean;
}

/**
 * The pepper keys are hashed with. `API_KEY_PEPPER` wins. Embedded mode without it: read or create
 * `<dataDir>/secrets/api-key-pepper` (32 random bytes, hex, mode 0600); without a data dir (in-memory store) a
 * random pepper for this process. Scale-out mode without it: a {@link PepperError}, since every process must hash
 * keys the same way. Changing the pepper invalidates every issued key.
 */
export function resolvePepper(opts: PepperOptions): string {
  const env = opts.env?.trim();
  if (env) {
    if (env.length < MIN_PEPPER_LENGTH)
      throw new PepperError(`API_KEY_PEPPER must be at least ${MIN_PEPPER_LENGTH} characters`);
    return env;
  }
  if (opts.scaleOut) {
    throw new PepperError(
      'API_KEY_PEPPER is required when DATABASE_URL is set: every server process must hash API keys with the same ' +
        'secret (generate one with `openssl rand -hex 32` and give it to all of them)',
    );
  }
  if (!opts.dataDir) return randomBytes(32).toString('hex');
  return pepperFile(opts.dataDir);
}

function pepperFile(dataDir: string): string {
  const pepper = fileSecret(dataDir, 'api-key-pepper', () => randomBytes(32).toString('hex'));
  if (pepper.length < MIN_PEPPER_LENGTH) {
    throw new PepperError(
      `${join(dataDir, 'secrets', 'api-key-pepper')} is damaged (shorter than ${MIN_PEPPER_LENGTH} characters): restore it`,
    );
  }
  return pepper;
}
