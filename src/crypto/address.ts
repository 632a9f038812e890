/**
 * Address encoding for Bitcoin-derived coins: hash160, Base58Check (P2PKH / P2SH) and bech32
 * segwit v0 (P2WPKH). Parametric over {@link MessageCoinParams}; nothing here is Litecoin-specific.
 *
 * Only the address kinds a single secp256k1 key can sign for under the message-signing scheme are
 * modelled: P2PKH, P2SH (assumed P2SH-P2WPKH when a key is checked against it) and P2WPKH.
 * P2WSH, taproot and other witness versions are reported as unsupported (`null`).
 */
import { secp256k1 } from '@noble/curves/secp256k1.js';
import { ripemd160 } from '@noble/hashes/legacy.js';
import { sha256 } from '@noble/hashes/sha2.js';
import { bech32, createBase58check } from '@scure/base';
import type { MessageCoinParams } from './coins.ts';

const b58c = createBase58check(sha256);

/** Kind of a parsed address. `p2sh` is any script hash; message signing treats it as P2SH-P2WPKH. */
export type AddressKind = 'p2pkh' | 'p2sh' | 'p2wpkh';

export interface ParsedAddress {
  readonly type: AddressKind;
  /** 20-byte hash: pubkey hash (p2pkh, p2wpkh) or script hash (p2sh). */
  readonly hash: Uint8Array;
}

export interface PubkeyAddresses {
  readonly p2pkh: string;
  /** One P2SH-P2WPKH address per entry of `params.p2sh`, in the same order (current first). */
  readonly p2shP2wpkh: string[];
  /** Native segwit v0 address, or `null` when the coin has no bech32 HRP. */
  readonly p2wpkh: string | null;
}

/** RIPEMD160(SHA256(data)). */
export function hash160(data: Uint8Array): Uint8Array {
  return ripemd160(sha256(data));
}

/** Base58Check-encode `payload` (version byte(s) included) with the double-SHA256 checksum. */
export function base58checkEncode(payload: Uint8Array): string {
  return b58c.encode(payload);
}

/** Decode Base58Check; `null` on a bad alphabet character or checksum. */
export function base58checkDecode(str: string): Uint8Array | null {
  try {
    return b58c.decode(str);
  } catch {
    return null;
  }
}

/** Encode a segwit v0 address (BIP173 bech32): hrp ‖ '1' ‖ [0, ...toWords(program)] ‖ checksum. */
export function encodeSegwitV0(hrp: string, program: Uint8Array): string {
  if (program.length !== 20 && program.length !== 32) {
    throw new RangeError(`segwit v0 program must be 20 or 32 bytes, got ${program.length}`);
  }
  return bech32.encode(hrp, [0, ...bech32.toWords(program)]);
}

/**
 * Decode a segwit v0 address (bech32, not bech32m). Accepts all-lower or all-upper case, rejects
 * mixed case, non-zero witness versions and program lengths other than 20/32 (BIP173 rules).
 */
export function decodeSegwitV0(addr: string): { hrp: string; program: Uint8Array } | null {
  const decoded = bech32.decodeUnsafe(addr);
  if (!decoded) return null;
  const [version, ...rest] = decoded.words;
  if (version !== 0) return null;
  const program = bech32.fromWordsUnsafe(rest);
  if (!program || (program.length !== 20 && program.length !== 32)) return null;
  return { hrp: decoded.prefix, program };
}

function assertHash20(hash: Uint8Array): void {
  if (hash.length !== 20) throw new RangeError(`expected a 20-byte hash, got ${hash.length} bytes`);
}

function assertVersionByte(v: number): void {
  if (!Number.isInteger(v) || v < 0 || v > 255) throw new RangeError(`invalid version byte ${v}`);
}

/** P2PKH address of a 20-byte pubkey hash. */
export function encodeP2pkh(pubkeyHash: Uint8Array, params: MessageCoinParams): string {
  assertHash20(pubkeyHash);
  assertVersionByte(params.p2pkh);
  return base58checkEncode(Uint8Array.of(params.p2pkh, ...pubkeyHash));
}

/** P2SH address of a 20-byte script hash, with `version` (default: the current P2SH version). */
export function encodeP2sh(scriptHash: Uint8Array, params: MessageCoinParams, version?: number): string {
  assertHash20(scriptHash);
  const v = version ?? params.p2sh[0];
  if (v === undefined) throw new RangeError(`${params.ticker} has no P2SH version`);
  assertVersionByte(v);
  return base58checkEncode(Uint8Array.of(v, ...scriptHash));
}

/** P2WPKH (bech32 v0) address of a 20-byte pubkey hash. Throws when the coin has no HRP. */
export function encodeP2wpkh(pubkeyHash: Uint8Array, params: MessageCoinParams): string {
  assertHash20(pubkeyHash);
  if (params.bech32Hrp === null) throw new RangeError(`${params.ticker} has no bech32 addresses`);
  return encodeSegwitV0(params.bech32Hrp, pubkeyHash);
}

/** Script hash of the P2SH-P2WPKH redeem script `OP_0 <20-byte pubkey hash>` (0x00 0x14 ‖ h). */
export function p2shP2wpkhScriptHash(pubkeyHash: Uint8Array): Uint8Array {
  assertHash20(pubkeyHash);
  return hash160(Uint8Array.of(0x00, 0x14, ...pubkeyHash));
}

/**
 * Every address a compressed secp256k1 public key controls under `params`.
 * Throws on anything but a valid 33-byte compressed point (segwit requires compressed keys).
 */
export function addressesForPubkey(pubkeyCompressed: Uint8Array, params: MessageCoinParams): PubkeyAddresses {
  if (pubkeyCompressed.length !== 33 || (pubkeyCompressed[0] !== 0x02 && pubkeyCompressed[0] !== 0x03)) {
    throw new RangeError('expected a 33-byte compressed public key');
  }
  secp256k1.Point.fromBytes(pubkeyCompressed); // throws if not on the curve
  const h = hash160(pubkeyCompressed);
  const sh = p2shP2wpkhScriptHash(h);
  return {
    p2pkh: encodeP2pkh(h, params),
    p2shP2wpkh: params.p2sh.map((v) => encodeP2sh(sh, params, v)),
    p2wpkh: params.bech32Hrp === null ? null : encodeP2wpkh(h, params),
  };
}

/**
 * Parse and network-check an address: Base58Check with `params.p2pkh` or one of `params.p2sh`
 * version bytes, or bech32 v0 with `params.bech32Hrp` and a 20-byte program. Anything else
 * (bad checksum, other network's version byte or HRP, P2WSH, taproot, …) → `null`.
 * Note that with LTC params a Bitcoin `3…` address parses: version 5 is also a (deprecated)
 * Litecoin P2SH version, and it denotes the same script hash on both chains.
 */
export function parseAddress(addr: string, params: MessageCoinParams): ParsedAddress | null {
  if (params.bech32Hrp !== null) {
    const sw = decodeSegwitV0(addr);
    if (sw) {
      if (sw.hrp !== params.bech32Hrp.toLowerCase() || sw.program.length !== 20) return null;
      return { type: 'p2wpkh', hash: sw.program };
    }
  }
  const payload = base58checkDecode(addr);
  if (!payload || payload.length !== 21) return null;
  const version = payload[0];
  const hash = payload.slice(1);
  if (version === params.p2pkh) return { type: 'p2pkh', hash };
  if (version !== undefined && params.p2sh.includes(version)) return { type: 'p2sh', hash };
  return null;
}
