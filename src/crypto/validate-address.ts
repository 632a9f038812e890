/**
 * Address validation for name resolution: is `address` a valid address of `asset` on `network`?
 *
 * - UTXO coins (table in `chains.ts`): Base58Check with a 21-byte payload (1 version byte + 20-byte
 *   hash) whose version is the coin's P2PKH or one of its P2SH versions; or, for coins with a bech32
 *   HRP, a segwit address — v0 bech32 with a 20-byte (P2WPKH) or 32-byte (P2WSH) program, or v1
 *   bech32m with a 32-byte program (P2TR). Other witness versions/lengths are rejected.
 * - SOL: Base58 (no checksum, no version byte) decoding to exactly 32 bytes. The point is NOT required
 *   to lie on ed25519: program-derived addresses are deliberately off-curve and valid recipients.
 *
 * Only the requested ticker matters: a `D…` address is valid for DOGE, DGB and DINGO alike (shared
 * version 30). When the address is valid for the same coin's other network, or for another listed
 * coin but not the requested one, the result is `WRONG_NETWORK` with a message naming what it is and
 * what was expected. Never throws.
 */
import { sha256 } from '@noble/hashes/sha2.js';
import { base58, bech32, bech32m, createBase58check } from '@scure/base';
import { CHAINS, chainTicker, KIT_TICKERS } from './chains.ts';
import type { ChainParams, Network } from './chains.ts';

export type ValidatedAddressKind = 'p2pkh' | 'p2sh' | 'p2wpkh' | 'p2wsh' | 'p2tr' | 'solana';
export type ValidateAddressErrorCode = 'INVALID_ADDRESS' | 'WRONG_NETWORK' | 'UNSUPPORTED_ASSET';

export type ValidateAddressResult =
  | {
      ok: true;
      /** Canonical form: bech32 lower-cased; Base58 forms unchanged. */
      address: string;
      kind: ValidatedAddressKind;
    }
  | { ok: false; code: ValidateAddressErrorCode; message: string };

const b58c = createBase58check(sha256);
const NETWORKS: readonly Network[] = ['mainnet', 'testnet'];
/** BIP173 maximum length of a bech32 string; longer than any Base58 or Solana address too. */
const MAX_ADDRESS_LENGTH = 90;

const other = (n: Network): Network => (n === 'mainnet' ? 'testnet' : 'mainnet');

function fail(code: ValidateAddressErrorCode, message: string): ValidateAddressResult {
  return { ok: false, code, message };
}

// ---------------------------------------------------------------------------------------------
// Decoders (never throw)

interface Segwit {
  hrp: string;
  version: number;
  program: Uint8Array;
  kind: 'p2wpkh' | 'p2wsh' | 'p2tr';
}

type SegwitDecode = { ok: true; value: Segwit } | { ok: false; reason: string } | null;

/**
 * Decode a segwit address (BIP173 / BIP350). `null` when the string is not bech32/bech32m at all;
 * `{ ok: false }` when it is a checksum-valid bech32(m) string that is not an acceptable address.
 */
function decodeSegwit(addr: string): SegwitDecode {
  if (addr !== addr.toLowerCase() && addr !== addr.toUpperCase()) {
    // Mixed case is never valid bech32; report it only when it would otherwise decode.
    const lower = addr.toLowerCase();
    if (bech32.decodeUnsafe(lower) || bech32m.decodeUnsafe(lower)) {
      return { ok: false, reason: 'bech32 address mixes upper and lower case' };
    }
    return null;
  }
  const v0 = bech32.decodeUnsafe(addr);
  const v1 = v0 ? undefined : bech32m.decodeUnsafe(addr);
  const decoded = v0 ?? v1;
  if (!decoded) return null;
  const [version, ...rest] = decoded.words;
  if (version === undefined || version > 16) return { ok: false, reason: 'invalid witness version' };
  const program = bech32.fromWordsUnsafe(rest);
  if (!program) return { ok: false, reason: 'invalid witness program padding' };
  if (version === 0) {
    if (!v0) return { ok: false, reason: 'segwit v0 address must use bech32, not bech32m' };
    if (program.length === 20)
      return { ok: true, value: { hrp: decoded.prefix, version, program, kind: 'p2wpkh' } };
    if (program.length === 32)
      return { ok: true, value: { hrp: decoded.prefix, version, program, kind: 'p2wsh' } };
    return { ok: false, reason: `segwit v0 program must be 20 or 32 bytes, got ${program.length}` };
  }
  if (v0) return { ok: false, reason: `segwit v${version} address must use bech32m, not bech32` };
  if (version === 1 && program.length === 32) {
    return { ok: true, value: { hrp: decoded.prefix, version, program, kind: 'p2tr' } };
  }
  return { ok: false, reason: `unsupported witness version ${version} / program length ${program.length}` };
}

function decodeBase58check(addr: string): Uint8Array | null {
  try {
    return b58c.decode(addr);
  } catch {
    return null;
  }
}

function decodeSolana(addr: string): Uint8Array | null {
  if (addr.length < 32 || addr.length > 44) return null;
  let bytes: Uint8Array;
  try {
    bytes = base58.decode(addr);
  } catch {
    return null;
  }
  if (bytes.length !== 32) return null;
  // Base58 is canonical for a given byte string; re-encoding guards against any decoder leniency.
  return base58.encode(bytes) === addr ? bytes : null;
}

// ---------------------------------------------------------------------------------------------
// Describing what an address is / what was expected

interface Owner {
  ticker: string;
  network: Network;
}

function ownersOfVersion(version: number): Owner[] {
  const out: Owner[] = [];
  for (const ticker of KIT_TICKERS) {
    for (const network of NETWORKS) {
      const p = CHAINS[ticker]?.[network];
      if (p && (p.p2pkh === version || p.p2sh.includes(version))) out.push({ ticker, network });
    }
  }
  return out;
}

function ownersOfHrp(hrp: string): Owner[] {
  const out: Owner[] = [];
  for (const ticker of KIT_TICKERS) {
    for (const network of NETWORKS) {
      if (CHAINS[ticker]?.[network]?.bech32Hrp === hrp) out.push({ ticker, network });
    }
  }
  return out;
}

function joinOr(items: readonly string[]): string {
  if (items.length <= 1) return items.join('');
  return `${items.slice(0, -1).join(', ')} or ${items[items.length - 1]}`;
}

const leadingCache = new Map<number, string[]>();

/** Possible first characters of a 25-byte Base58Check string with this version byte. */
function leadingChars(version: number): string[] {
  const cached = leadingCache.get(version);
  if (cached) return cached;
  const chars: string[] = [];
  // The first character is fixed by the top bits: sampling the first hash byte over 0..255 (rest all
  // 0x00 / all 0xff) visits every possible first character (a character spans > 2^184 values).
  for (let b = 0; b < 256; b++) {
    for (const fill of [0x00, 0xff]) {
      const payload = new Uint8Array(21).fill(fill);
      payload[0] = version;
      payload[1] = b;
      const c = b58c.encode(payload)[0] as string;
      if (!chars.includes(c)) chars.push(c);
    }
  }
  leadingCache.set(version, chars);
  return chars;
}

/** e.g. "a mainnet LTC address (L…, M…, 3… or ltc1…)". */
function describeExpected(p: ChainParams): string {
  const forms: string[] = [];
  for (const v of [p.p2pkh, ...p.p2sh]) {
    for (const c of leadingChars(v)) if (!forms.includes(`${c}…`)) forms.push(`${c}…`);
  }
  if (p.bech32Hrp !== null) forms.push(`${p.bech32Hrp}1…`);
  return `a ${p.network} ${p.ticker} address (${joinOr(forms)})`;
}

/**
 * Given the (ticker, network) pairs an address is valid for — none of which is the requested one —
 * pick what to report: the same coin's other network first, else other coins on the same network,
 * else other coins on the other network. `null` when there are none.
 */
function describeOwners(owners: readonly Owner[], asked: ChainParams): string | null {
  const sameCoin = owners.find((o) => o.ticker === asked.ticker);
  if (sameCoin) return `a ${sameCoin.network} ${sameCoin.ticker} address`;
  for (const network of [asked.network, other(asked.network)]) {
    const tickers = owners.filter((o) => o.network === network).map((o) => o.ticker);
    if (tickers.length > 0) return `a ${network} ${joinOr([...new Set(tickers)])} address`;
  }
  return null;
}

function wrongNetwork(what: string, asked: ChainParams): ValidateAddressResult {
  return fail('WRONG_NETWORK', `address is ${what}; expected ${describeExpected(asked)}`);
}

// ---------------------------------------------------------------------------------------------

function validateUtxo(address: string, p: ChainParams): ValidateAddressResult {
  const sw = decodeSegwit(address);
  if (sw) {
    if (!sw.ok) return fail('INVALID_ADDRESS', sw.reason);
    const { hrp, kind } = sw.value;
    if (p.bech32Hrp !== null && hrp === p.bech32Hrp.toLowerCase()) {
      return { ok: true, address: address.toLowerCase(), kind };
    }
    const what = describeOwners(ownersOfHrp(hrp), p);
    if (what) return wrongNetwork(what, p);
    if (p.bech32Hrp === null) {
      return fail(
        'INVALID_ADDRESS',
        `${p.ticker} has no segwit (bech32) addresses; expected ${describeExpected(p)}`,
      );
    }
    return fail('INVALID_ADDRESS', `unknown bech32 prefix "${hrp}"; expected ${describeExpected(p)}`);
  }

  const payload = decodeBase58check(address);
  if (!payload) {
    if (decodeSolana(address)) return wrongNetwork('a Solana address', p);
    return fail(
      'INVALID_ADDRESS',
      `not a valid address (bad characters or checksum); expected ${describeExpected(p)}`,
    );
  }
  if (payload.length === 33 || payload.length === 34) {
    return fail('INVALID_ADDRESS', 'this looks like a WIF private key, not an address — never share it');
  }
  if (payload.length !== 21) {
    return fail('INVALID_ADDRESS', `Base58Check payload must be 21 bytes, got ${payload.length}`);
  }
  const version = payload[0] as number;
  if (version === p.p2pkh) return { ok: true, address, kind: 'p2pkh' };
  if (p.p2sh.includes(version)) return { ok: true, address, kind: 'p2sh' };
  const what = describeOwners(ownersOfVersion(version), p);
  if (what) return wrongNetwork(what, p);
  return fail('INVALID_ADDRESS', `unknown address version ${version}; expected ${describeExpected(p)}`);
}

function describeForSolana(address: string): string | null {
  const sw = decodeSegwit(address);
  if (sw?.ok) {
    const owners = ownersOfHrp(sw.value.hrp);
    const o = owners[0];
    return o
      ? `a ${o.network} ${joinOr([...new Set(owners.filter((x) => x.network === o.network).map((x) => x.ticker))])} address`
      : null;
  }
  const payload = decodeBase58check(address);
  if (payload?.length !== 21) return null;
  const owners = ownersOfVersion(payload[0] as number);
  for (const network of NETWORKS) {
    const tickers = owners.filter((x) => x.network === network).map((x) => x.ticker);
    if (tickers.length > 0) return `a ${network} ${joinOr([...new Set(tickers)])} address`;
  }
  return null;
}

function validateSolana(address: string): ValidateAddressResult {
  if (decodeSolana(address)) return { ok: true, address, kind: 'solana' };
  const what = describeForSolana(address);
  if (what)
    return fail('WRONG_NETWORK', `address is ${what}; expected a Solana address (32-byte base58 public key)`);
  return fail(
    'INVALID_ADDRESS',
    'not a valid Solana address (base58 of a 32-byte public key, 32–44 characters)',
  );
}

/**
 * Validate `address` for `asset` (ticker, case-insensitive) on `network` (default mainnet).
 * See the module comment for the accepted forms and the error codes.
 */
export function validateAddress(
  asset: string,
  address: string,
  network: Network = 'mainnet',
): ValidateAddressResult {
  if (typeof asset !== 'string') return fail('UNSUPPORTED_ASSET', 'asset must be a ticker string');
  const isSol = asset.trim().toUpperCase() === 'SOL';
  const ticker = isSol ? 'SOL' : chainTicker(asset);
  if (ticker === null) return fail('UNSUPPORTED_ASSET', `unsupported asset "${asset}"`);
  if (network !== 'mainnet' && network !== 'testnet') {
    return fail('UNSUPPORTED_ASSET', `unsupported network "${String(network)}"`);
  }

  if (typeof address !== 'string' || address.length === 0) return fail('INVALID_ADDRESS', 'address is empty');
  if (address.length > MAX_ADDRESS_LENGTH) {
    return fail(
      'INVALID_ADDRESS',
      `address is too long (${address.length} characters, max ${MAX_ADDRESS_LENGTH})`,
    );
  }
  // Addresses are printable ASCII; no whitespace is ever part of one (the caller must not pad it).
  if (!/^[\x21-\x7e]+$/.test(address)) {
    return fail('INVALID_ADDRESS', 'address contains whitespace or non-ASCII characters');
  }

  if (isSol) return validateSolana(address);
  const params = CHAINS[ticker]?.[network];
  if (!params) return fail('UNSUPPORTED_ASSET', `unsupported asset "${asset}"`);
  return validateUtxo(address, params);
}
