/**
 * The Bitcoin message-signing scheme (Core's `signmessage` / `verifymessage`, extended to segwit
 * addresses by BIP137 and by the Electrum convention), parametric over the coin: Litecoin uses it
 * with the prefix "Litecoin Signed Message:\n" and its own address versions. See
 * `docs/signatures.md` for the format, the accepted conventions and the result codes.
 */
import { secp256k1 } from '@noble/curves/secp256k1.js';
import { sha256 } from '@noble/hashes/sha2.js';
import { base64 } from '@scure/base';
import type { MessageCoinParams } from './coins.ts';
import {
  encodeP2pkh,
  encodeP2sh,
  encodeP2wpkh,
  hash160,
  p2shP2wpkhScriptHash,
  parseAddress,
} from './address.ts';

/** Address kinds a message signature can prove control of. */
export type MessageAddressType = 'p2pkh' | 'p2sh-p2wpkh' | 'p2wpkh';

export type SignedMessageErrorCode =
  'MALFORMED_SIGNATURE' | 'BAD_SIGNATURE' | 'ADDRESS_MISMATCH' | 'MALFORMED_ADDRESS';

export type VerifySignedMessageResult =
  | {
      ok: true;
      /** The recovered key, serialised as the header says (33 bytes compressed, 65 uncompressed). */
      pubkey: Uint8Array;
      /** The kind of the (given) address the signature was verified against. */
      addressType: MessageAddressType;
    }
  | { ok: false; code: SignedMessageErrorCode; message: string };

/** Length of a compact recoverable signature: header ‖ r (32) ‖ s (32). */
export const SIGNATURE_LENGTH = 65;

/** First BIP137 header byte for each address type (add the recovery id 0..3). */
const HEADER_BASE = {
  p2pkhUncompressed: 27,
  p2pkh: 31,
  'p2sh-p2wpkh': 35,
  p2wpkh: 39,
} as const;

const utf8 = new TextEncoder();

/** Bitcoin CompactSize (the "varint" of the serialisation format), little-endian. */
function compactSize(n: number): Uint8Array {
  if (n < 0xfd) return Uint8Array.of(n);
  if (n <= 0xffff) return Uint8Array.of(0xfd, n & 0xff, n >>> 8);
  if (n <= 0xffffffff) return Uint8Array.of(0xfe, n & 0xff, (n >>> 8) & 0xff, (n >>> 16) & 0xff, n >>> 24);
  throw new RangeError('message too long');
}

function serializeString(bytes: Uint8Array): Uint8Array {
  const len = compactSize(bytes.length);
  const out = new Uint8Array(len.length + bytes.length);
  out.set(len, 0);
  out.set(bytes, len.length);
  return out;
}

/**
 * SHA256(SHA256(CompactSize(|prefix|) ‖ prefix ‖ CompactSize(|message|) ‖ message)), both strings
 * UTF-8 encoded. This is Core's `MessageHash()` with the coin's magic.
 */
export function messageHash(message: string, params: MessageCoinParams): Uint8Array {
  const prefix = serializeString(utf8.encode(params.messagePrefix));
  const msg = serializeString(utf8.encode(message));
  const buf = new Uint8Array(prefix.length + msg.length);
  buf.set(prefix, 0);
  buf.set(msg, prefix.length);
  return sha256(sha256(buf));
}

function fail(code: SignedMessageErrorCode, message: string): VerifySignedMessageResult {
  return { ok: false, code, message };
}

function bytesEqual(a: Uint8Array, b: Uint8Array): boolean {
  if (a.length !== b.length) return false;
  let diff = 0;
  for (let i = 0; i < a.length; i++) diff |= (a[i] as number) ^ (b[i] as number);
  return diff === 0;
}

/** The address type a BIP137 header byte announces, or `null` outside 27..42. */
function headerKind(header: number): 'p2pkh-uncompressed' | MessageAddressType | null {
  if (header >= 27 && header <= 30) return 'p2pkh-uncompressed';
  if (header >= 31 && header <= 34) return 'p2pkh';
  if (header >= 35 && header <= 38) return 'p2sh-p2wpkh';
  if (header >= 39 && header <= 42) return 'p2wpkh';
  return null;
}

const describe = (t: MessageAddressType | 'p2pkh-uncompressed'): string =>
  t === 'p2pkh-uncompressed' ? 'P2PKH (uncompressed key)' : t.toUpperCase();

/**
 * Why a signature is malformed (not base64, not 65 bytes, a header byte outside 27..42), or null when its shape is
 * right: the checks of {@link verifySignedMessage} that need no curve arithmetic.
 */
export function signatureShapeError(signatureBase64: string): string | null {
  let sig: Uint8Array;
  try {
    sig = base64.decode(signatureBase64);
  } catch {
    return 'signature is not valid base64';
  }
  if (sig.length !== SIGNATURE_LENGTH)
    return `signature must be ${SIGNATURE_LENGTH} bytes, got ${sig.length}`;
  const header = sig[0] as number;
  if (headerKind(header) === null) return `signature header byte ${header} is outside 27..42`;
  return null;
}

/**
 * Verify a base64 compact signature of `message` against `address` on the coin `params`.
 *
 * Accepted (see docs/signatures.md):
 * - header 27–30: P2PKH address of the uncompressed key;
 * - header 31–34: P2PKH address of the compressed key (Core) — and, per the Electrum convention,
 *   also the P2SH-P2WPKH or P2WPKH address of that compressed key when such an address is given;
 * - header 35–38: P2SH-P2WPKH address (any of `params.p2sh` versions) — BIP137;
 * - header 39–42: P2WPKH bech32 address (any case) — BIP137.
 * High-S signatures are accepted, as Core's `RecoverCompact` does. Never throws on bad input.
 */
export function verifySignedMessage(
  params: MessageCoinParams,
  address: string,
  message: string,
  signatureBase64: string,
): VerifySignedMessageResult {
  const parsed = parseAddress(address, params);
  if (!parsed) {
    return fail('MALFORMED_ADDRESS', `not a valid ${params.ticker} P2PKH, P2SH or P2WPKH address`);
  }

  let sig: Uint8Array;
  try {
    sig = base64.decode(signatureBase64);
  } catch {
    return fail('MALFORMED_SIGNATURE', 'signature is not valid base64');
  }
  if (sig.length !== SIGNATURE_LENGTH) {
    return fail('MALFORMED_SIGNATURE', `signature must be ${SIGNATURE_LENGTH} bytes, got ${sig.length}`);
  }
  const header = sig[0] as number;
  const kind = headerKind(header);
  if (kind === null) {
    return fail('MALFORMED_SIGNATURE', `signature header byte ${header} is outside 27..42`);
  }
  const recovery = (header - 27) & 3;
  const compressed = kind !== 'p2pkh-uncompressed';

  let pubkey: Uint8Array;
  try {
    const point = secp256k1.Signature.fromBytes(sig.subarray(1), 'compact')
      .addRecoveryBit(recovery)
      .recoverPublicKey(messageHash(message, params));
    pubkey = point.toBytes(compressed);
  } catch {
    // r or s outside 1..n-1, no curve point with x = r (+ n), or recovery yielding infinity.
    return fail('BAD_SIGNATURE', 'no public key can be recovered from this signature');
  }
  const keyHash = hash160(pubkey);

  // What the given address must be for the header, and the hash it must carry.
  let addressType: MessageAddressType;
  let expected: Uint8Array;
  switch (parsed.type) {
    case 'p2pkh':
      if (kind !== 'p2pkh' && kind !== 'p2pkh-uncompressed') {
        return fail('ADDRESS_MISMATCH', `signature header is for a ${describe(kind)} address, not P2PKH`);
      }
      addressType = 'p2pkh';
      expected = keyHash;
      break;
    case 'p2sh':
      if (kind !== 'p2sh-p2wpkh' && kind !== 'p2pkh') {
        return fail(
          'ADDRESS_MISMATCH',
          `signature header is for a ${describe(kind)} address, not P2SH-P2WPKH`,
        );
      }
      addressType = 'p2sh-p2wpkh';
      expected = p2shP2wpkhScriptHash(keyHash);
      break;
    case 'p2wpkh':
      if (kind !== 'p2wpkh' && kind !== 'p2pkh') {
        return fail('ADDRESS_MISMATCH', `signature header is for a ${describe(kind)} address, not P2WPKH`);
      }
      addressType = 'p2wpkh';
      expected = keyHash;
      break;
  }
  if (!bytesEqual(expected, parsed.hash)) {
    return fail('ADDRESS_MISMATCH', 'the signature was not made by the key of this address');
  }
  return { ok: true, pubkey, addressType };
}

function assertPrivateKey(privateKey: Uint8Array): void {
  if (!secp256k1.utils.isValidSecretKey(privateKey)) {
    throw new RangeError('invalid secp256k1 private key');
  }
}

/**
 * The address of `type` controlled by `privateKey` (compressed public key). P2SH-P2WPKH uses the
 * current P2SH version (`params.p2sh[0]`). Throws on an invalid key or a type the coin lacks.
 */
export function addressOf(
  params: MessageCoinParams,
  privateKey: Uint8Array,
  type: MessageAddressType,
): string {
  assertPrivateKey(privateKey);
  const h = hash160(secp256k1.getPublicKey(privateKey, true));
  switch (type) {
    case 'p2pkh':
      return encodeP2pkh(h, params);
    case 'p2sh-p2wpkh':
      return encodeP2sh(p2shP2wpkhScriptHash(h), params);
    case 'p2wpkh':
      return encodeP2wpkh(h, params);
  }
}

/**
 * Sign `message` for the `type` address of `privateKey` (compressed key): base64 of
 * header ‖ r ‖ s, header = 31 / 35 / 39 + recovery id (BIP137), deterministic RFC6979 nonce,
 * low-S. For `'p2pkh'` this is byte-identical to Core's `signmessagewithprivkey`.
 */
export function signMessage(
  params: MessageCoinParams,
  privateKey: Uint8Array,
  message: string,
  type: MessageAddressType = 'p2pkh',
): string {
  assertPrivateKey(privateKey);
  if (type === 'p2wpkh' && params.bech32Hrp === null) {
    throw new RangeError(`${params.ticker} has no bech32 addresses`);
  }
  if (type === 'p2sh-p2wpkh' && params.p2sh.length === 0) {
    throw new RangeError(`${params.ticker} has no P2SH addresses`);
  }
  // 'recovered' = recid ‖ r ‖ s; prehash: false because messageHash is already the digest.
  const rec = secp256k1.sign(messageHash(message, params), privateKey, {
    prehash: false,
    lowS: true,
    format: 'recovered',
    extraEntropy: false,
  });
  const out = Uint8Array.from(rec);
  out[0] = HEADER_BASE[type] + (rec[0] as number);
  return base64.encode(out);
}
