import { randomBytes } from 'node:crypto';

/**
 * The sign-in challenge: the text a wallet shows and signs as a Litecoin signed message. It follows Sign-In with
 * Ethereum (EIP-4361) as generalised by CAIP-122 (“Sign-In with X”), one field per line, so a wallet can show the
 * user which site asks, for which address, until when:
 *
 * ```text
 * 127.0.0.1:4000 wants you to sign in with your Litecoin account:
 * ltc1qw508d6qejxtdg4y5r3zarvary0c5xw7kgmn4n9
 *
 * Sign in to Coin Wallet. Signing proves you hold this address's key; it sends no transaction and costs no fee.
 *
 * URI: http://127.0.0.1:4000
 * Version: 1
 * Chain ID: bip122:12a765e31ffd4059bada1e25190f6e98
 * Nonce: 0f3c9a4e5b6d7e8f90a1b2c3d4e5f607
 * Issued At: 2026-01-01T12:00:00.000Z
 * Expiration Time: 2026-01-01T12:05:00.000Z
 * ```
 *
 * - the first line names the domain of the server (phishing protection: a wallet can compare it with the page);
 * - `Chain ID` is the CAIP-2 id of Litecoin mainnet (`bip122:` + the first 16 bytes of its genesis block hash);
 * - `Nonce` is 128 random bits in hex, the challenge's id: each challenge signs in once;
 * - times are ISO 8601 UTC; the server keeps its own copy of the text and of the times, so the signed text is never
 *   parsed to decide anything.
 */
export interface ChallengeFields {
  /** Host (and port) of the server asking, e.g. `api.coinwallet.example` or `127.0.0.1:4000`. */
  domain: string;
  /** The LTC address signing in (as normalised by the server). */
  address: string;
  /** The resource signed in to; default `http://<domain>`. */
  uri: string;
  nonce: string;
  /** UNIX ms. */
  issuedAt: number;
  /** UNIX ms. */
  expiresAt: number;
}

/** CAIP-2 chain id of Litecoin mainnet. */
export const LITECOIN_CHAIN_ID = 'bip122:12a765e31ffd4059bada1e25190f6e98';

export const SIGN_IN_STATEMENT =
  "Sign in to Coin Wallet. Signing proves you hold this address's key; it sends no transaction and costs no fee.";

/** A fresh nonce: 16 random bytes, 32 lowercase hex characters. */
export function newNonce(): string {
  return randomBytes(16).toString('hex');
}

/** The exact text to sign. Fields must not contain line breaks (the server's own values never do). */
export function challengeText(f: ChallengeFields): string {
  for (const [name, v] of Object.entries({
    domain: f.domain,
    address: f.address,
    uri: f.uri,
    nonce: f.nonce,
  })) {
    if (/[\r\n]/.test(v)) throw new Error(`challenge ${name} must be one line`);
  }
  return [
    `${f.domain} wants you to sign in with your Litecoin account:`,
    f.address,
    '',
    SIGN_IN_STATEMENT,
    '',
    `URI: ${f.uri}`,
    'Version: 1',
    `Chain ID: ${LITECOIN_CHAIN_ID}`,
    `Nonce: ${f.nonce}`,
    `Issued At: ${new Date(f.issuedAt).toISOString()}`,
    `Expiration Time: ${new Date(f.expiresAt).toISOString()}`,
  ].join('\n');
}

/** Reads the fields back from a challenge text (for clients and tests); null when it is not one. */
export function parseChallenge(text: string): ChallengeFields | null {
  const lines = text.split('\n');
  const head = /^(.+) wants you to sign in with your Litecoin account:$/.exec(lines[0] ?? '');
  const field = (name: string): string | undefined =>
    lines.find((l) => l.startsWith(`${name}: `))?.slice(name.length + 2);
  const [uri, nonce, issued, expires] = ['URI', 'Nonce', 'Issued At', 'Expiration Time'].map(field);
  if (!head?.[1] || !lines[1] || !uri || !nonce || !issued || !expires) return null;
  const issuedAt = Date.parse(issued);
  const expiresAt = Date.parse(expires);
  if (!Number.isFinite(issuedAt) || !Number.isFinite(expiresAt)) return null;
  return { domain: head[1], address: lines[1], uri, nonce, issuedAt, expiresAt };
}
