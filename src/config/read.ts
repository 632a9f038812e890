/**
 * How the sections of the configuration read a variable: the shapes several areas share (an integer in a range, a
 * boolean, `name=value` pairs, a secret, a network), each refusing a bad value with a `ConfigError` that names the
 * variable and what it accepts.
 */
import { ConfigError } from '../config-error.ts';

/** `name`: an integer from `min` to `max`; unset or empty → `def`. */
export function int(env: NodeJS.ProcessEnv, name: string, def: number, min: number, max: number): number {
  const raw = env[name];
  if (raw === undefined || raw === '') return def;
  const n = Number(raw);
  if (!Number.isInteger(n) || n < min || n > max)
    throw new ConfigError(`${name} must be an integer from ${min} to ${max}`);
  return n;
}

/** `name`: `true`/`1` or `false`/`0`; unset or empty → `def`. */
export function bool(env: NodeJS.ProcessEnv, name: string, def: boolean): boolean {
  const v = env[name];
  if (v === undefined || v === '') return def;
  if (v === 'true' || v === '1') return true;
  if (v === 'false' || v === '0') return false;
  throw new ConfigError(`${name} must be true or false`);
}

/** Comma-separated `key=value` pairs, trimmed; `expected` completes the message when a pair has no key. */
export function pairs(v: string, name: string, expected: string): [string, string][] {
  return v
    .split(',')
    .map((p) => p.trim())
    .filter(Boolean)
    .map((p) => {
      const i = p.indexOf('=');
      if (i <= 0) throw new ConfigError(`${name} must be ${expected}`);
      return [p.slice(0, i).trim(), p.slice(i + 1).trim()];
    });
}

/** The shortest `ADMIN_TOKEN` / `API_KEY_PEPPER` accepted: a shorter one could be guessed. */
const MIN_SECRET_LENGTH = 16;

/** A server-side secret: unset, or at least {@link MIN_SECRET_LENGTH} characters (`why` says what it guards). */
export function secret(env: NodeJS.ProcessEnv, name: string, why: string): string | undefined {
  const v = env[name];
  if (v === undefined || v === '') return undefined;
  if (v.length < MIN_SECRET_LENGTH)
    throw new ConfigError(
      `${name} must be at least ${MIN_SECRET_LENGTH} characters (${why}, so it must not be guessable); ` +
        `generate one with: openssl rand -hex 32`,
    );
  return v;
}

/** `name`: `mainnet` or `testnet` (the names' and the bridge's networks); unset or empty → `def`. */
export function network(
  env: NodeJS.ProcessEnv,
  name: string,
  def: 'mainnet' | 'testnet',
): 'mainnet' | 'testnet' {
  const v = env[name];
  if (v === undefined || v === '') return def;
  if (v !== 'mainnet' && v !== 'testnet') throw new ConfigError(`${name} must be mainnet or testnet`);
  return v;
}
