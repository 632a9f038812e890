/**
 * Reads the parts of a Solana transaction message the approval prompt shows and the signer check needs: the
 * version, the required signers (the fee payer first) and the instruction count. Legacy and v0 messages; anything
 * malformed, truncated or with trailing bytes is rejected (null).
 */
import { base58 } from '@scure/base';

/** A Solana packet is 1,232 bytes; a message is never longer. */
export const MAX_MESSAGE_BYTES = 1_232;

export interface SolanaMessageInfo {
  version: 'legacy' | 0;
  /** Base58 public keys that must sign, fee payer first. */
  signers: string[];
  accountKeys: number;
  instructions: number;
}

export function parseSolanaMessage(bytes: Uint8Array): SolanaMessageInfo | null {
  let i = 0;
  const u8 = (): number => {
    if (i >= bytes.length) throw new RangeError('truncated');
    return bytes[i++] as number;
  };
  const take = (n: number): Uint8Array => {
    if (i + n > bytes.length) throw new RangeError('truncated');
    const out = bytes.subarray(i, i + n);
    i += n;
    return out;
  };
  // compact-u16: 7 bits per byte, at most 3 bytes.
  const compactU16 = (): number => {
    let v = 0;
    for (let shift = 0; shift <= 14; shift += 7) {
      const b = u8();
      v |= (b & 0x7f) << shift;
      if (!(b & 0x80)) return v;
    }
    throw new RangeError('bad compact-u16');
  };
  try {
    if (bytes.length === 0 || bytes.length > MAX_MESSAGE_BYTES) return null;
    let version: 'legacy' | 0 = 'legacy';
    if ((bytes[0] as number) & 0x80) {
      if (((bytes[0] as number) & 0x7f) !== 0) return null; // only v0 exists
      version = 0;
      i = 1;
    }
    const required = u8();
    const readonlySigned = u8();
    u8(); // read-only unsigned
    const nKeys = compactU16();
    if (required === 0 || required > nKeys || readonlySigned >= required) return null;
    const keys: string[] = [];
    for (let k = 0; k < nKeys; k++) keys.push(base58.encode(take(32)));
    take(32); // recent blockhash
    const nInstr = compactU16();
    for (let k = 0; k < nInstr; k++) {
      if (u8() >= nKeys) return null; // program id index
      take(compactU16()); // account indexes
      take(compactU16()); // data
    }
    if (version === 0) {
      const nLookups = compactU16();
      for (let k = 0; k < nLookups; k++) {
        take(32);
        take(compactU16());
        take(compactU16());
      }
    }
    if (i !== bytes.length) return null;
    return { version, signers: keys.slice(0, required), accountKeys: nKeys, instructions: nInstr };
  } catch {
    return null;
  }
}
