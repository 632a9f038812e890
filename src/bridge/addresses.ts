/** Address checks for the chains a deployment names: Base58Check with the chain's version bytes, Solana keys. */
import { base58 } from '@scure/base';
import { base58checkDecode } from '../crypto/address.ts';
import type { Network, UtxoChain } from './model.ts';

/** True when `addr` is a P2PKH or P2SH address of `chain` (right version byte, 20-byte hash, good checksum). */
export function isUtxoAddress(addr: string, chain: Pick<UtxoChain, 'p2pkh' | 'p2sh'>): boolean {
  const payload = base58checkDecode(addr);
  if (!payload || payload.length !== 21) return false;
  const v = payload[0] as number;
  return v === chain.p2pkh || chain.p2sh.includes(v);
}

/** True when `s` is a base58 Solana public key (program id, mint): exactly 32 bytes. */
export function isSolanaKey(s: string): boolean {
  if (s.length < 32 || s.length > 44) return false;
  try {
    return base58.decode(s).length === 32;
  } catch {
    return false;
  }
}

/**
 * Version bytes of the coins we know, per network (chainparams). A deployment that names one of these tickers must
 * use them, so a testnet address in a mainnet file (or the reverse) is caught. Unknown tickers use what they declare.
 */
export const KNOWN_UTXO_PARAMS: Readonly<Record<string, Record<Network, { p2pkh: number; p2sh: number[] }>>> =
  {
    LKY: { mainnet: { p2pkh: 47, p2sh: [5] }, testnet: { p2pkh: 113, p2sh: [196] } },
    DOGE: { mainnet: { p2pkh: 30, p2sh: [22] }, testnet: { p2pkh: 113, p2sh: [196] } },
    LTC: { mainnet: { p2pkh: 48, p2sh: [50, 5] }, testnet: { p2pkh: 111, p2sh: [58, 196] } },
  };

/** Solana clusters allowed for each network. */
export const SOLANA_CLUSTERS: Readonly<Record<Network, readonly string[]>> = {
  mainnet: ['mainnet-beta'],
  testnet: ['devnet', 'testnet'],
};
