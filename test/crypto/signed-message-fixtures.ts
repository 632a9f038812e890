/**
 * Shared by the signed-message tests (signed-message.test.ts, signed-message-ltc.test.ts): parameter sets used only
 * by the tests (production defines LTC alone for now), keys, and signature byte helpers.
 */
import { secp256k1 } from '@noble/curves/secp256k1.js';
import { sha256 } from '@noble/hashes/sha2.js';
import { base64, hex } from '@scure/base';
import { base58checkDecode } from '../../src/crypto/address.ts';
import type { MessageCoinParams } from '../../src/crypto/coins.ts';
import { LTC } from '../../src/crypto/coins.ts';
import type { verifySignedMessage } from '../../src/crypto/signed-message.ts';

export const BTC: MessageCoinParams = {
  ticker: 'BTC',
  messagePrefix: 'Bitcoin Signed Message:\n',
  p2pkh: 0x00,
  p2sh: [0x05],
  bech32Hrp: 'bc',
};
export const BTC_TESTNET: MessageCoinParams = {
  ...BTC,
  ticker: 'tBTC',
  p2pkh: 0x6f,
  p2sh: [0xc4],
  bech32Hrp: 'tb',
};
/** litecoin-project/litecoin src/chainparams.cpp CTestNetParams: 111, SCRIPT_ADDRESS2 58, 196, "tltc". */
export const LTC_TESTNET: MessageCoinParams = {
  ...LTC,
  ticker: 'tLTC',
  p2pkh: 111,
  p2sh: [58, 196],
  bech32Hrp: 'tltc',
};
export const DOGE: MessageCoinParams = {
  ticker: 'DOGE',
  messagePrefix: 'Dogecoin Signed Message:\n',
  p2pkh: 0x1e,
  p2sh: [0x16],
  bech32Hrp: null,
};

export const N = secp256k1.Point.Fn.ORDER;
export const ONE = hex.decode('0000000000000000000000000000000000000000000000000000000000000001');
export const KEY = sha256(new TextEncoder().encode('coinwallet signed-message test key'));

/** WIF → raw 32-byte key (version ‖ key ‖ [0x01 if compressed] ‖ checksum). */
export function wifToKey(wif: string): Uint8Array {
  const payload = base58checkDecode(wif);
  if (!payload || (payload.length !== 33 && payload.length !== 34)) throw new Error('bad WIF');
  return payload.slice(1, 33);
}

export function sigBytes(b64: string): Uint8Array {
  return base64.decode(b64);
}

export function withBytes(b64: string, edit: (b: Uint8Array) => void): string {
  const b = Uint8Array.from(sigBytes(b64));
  edit(b);
  return base64.encode(b);
}

export function bigToBytes32(n: bigint): Uint8Array {
  return hex.decode(n.toString(16).padStart(64, '0'));
}

export function codeOf(r: ReturnType<typeof verifySignedMessage>): string {
  return r.ok ? 'OK' : r.code;
}
