/**
 * The emulator's development wallet: deterministic keys from a seed, one per coin, for a configurable set of coins
 * (so "an account only for coins the user holds" is testable). UTXO coins get a secp256k1 key and the coin's mainnet
 * P2PKH address (src/crypto/chains.ts), SOL an ed25519 key whose public key is the address.
 *
 * The keys stay in this object: nothing here returns a private key, and `toJSON` shows only the public accounts.
 * They are development keys derived from a public default seed — never send real funds to them.
 */
import { ed25519 } from '@noble/curves/ed25519.js';
import { secp256k1 } from '@noble/curves/secp256k1.js';
import { sha256 } from '@noble/hashes/sha2.js';
import { bytesToHex } from '@noble/hashes/utils.js';
import { base58 } from '@scure/base';
import { CHAINS, KIT_TICKERS_AND_SOL } from '../crypto/chains.ts';
import { addressOf, signMessage } from '../crypto/signed-message.ts';

export { DEFAULT_DEV_SEED } from './defaults.ts';
export const DEFAULT_DEV_COINS: readonly string[] = ['LTC', 'DOGE', 'LKY', 'SOL'];

/** What a dapp sees of an account (docs/provider.md §4). */
export interface Account {
  ticker: string;
  address: string;
  /** UTXO coins: the compressed secp256k1 public key in hex; SOL: the base58 ed25519 public key. */
  publicKey: string;
}

const utf8 = new TextEncoder();

/**
 * The 32-byte secret of `ticker` under `seed`: SHA-256 of `coinwallet dev wallet v1`, the ticker, a counter and the
 * seed (one per line); the counter moves past the astronomically rare hash that is not a valid secp256k1 scalar.
 * Exported for the determinism tests; the emulator never sends it anywhere.
 */
export function devSecret(seed: string, ticker: string): Uint8Array {
  for (let i = 0; ; i++) {
    const k = sha256(utf8.encode(`coinwallet dev wallet v1\n${ticker}\n${i}\n${seed}`));
    if (ticker === 'SOL' || secp256k1.utils.isValidSecretKey(k)) return k;
  }
}

/** Parses `LTC,DOGE,…`: known tickers (the 19 kit coins and SOL), uppercase, at least one, duplicates dropped. */
export function parseCoins(v: string): string[] {
  const out: string[] = [];
  for (const raw of v.split(',')) {
    const t = raw.trim().toUpperCase();
    if (!t) continue;
    if (!KIT_TICKERS_AND_SOL.includes(t)) {
      throw new Error(`unknown coin ${raw.trim()}: use tickers from ${KIT_TICKERS_AND_SOL.join(', ')}`);
    }
    if (!out.includes(t)) out.push(t);
  }
  if (out.length === 0) throw new Error('at least one coin is needed');
  return out;
}

export class DevWallet {
  readonly #keys = new Map<string, Uint8Array>();
  readonly #accounts = new Map<string, Account>();

  constructor(seed: string, coins: readonly string[]) {
    for (const t of coins) {
      if (!KIT_TICKERS_AND_SOL.includes(t)) throw new Error(`unknown coin ${t}`);
      const key = devSecret(seed, t);
      this.#keys.set(t, key);
      if (t === 'SOL') {
        const pk = base58.encode(ed25519.getPublicKey(key));
        this.#accounts.set(t, { ticker: t, address: pk, publicKey: pk });
      } else {
        const params = CHAINS[t]?.mainnet;
        if (!params) throw new Error(`no chain parameters for ${t}`);
        this.#accounts.set(t, {
          ticker: t,
          address: addressOf(params, key, 'p2pkh'),
          publicKey: bytesToHex(secp256k1.getPublicKey(key, true)),
        });
      }
    }
  }

  /** The coins held, in the order given. */
  get tickers(): string[] {
    return [...this.#accounts.keys()];
  }

  has(ticker: string): boolean {
    return this.#accounts.has(ticker);
  }

  account(ticker: string): Account | undefined {
    const a = this.#accounts.get(ticker);
    return a && { ...a };
  }

  /** The accounts for `tickers` the wallet holds (in the order asked); all when omitted. */
  accounts(tickers: readonly string[] = this.tickers): Account[] {
    return tickers.flatMap((t) => {
      const a = this.account(t);
      return a ? [a] : [];
    });
  }

  /** A Bitcoin-style signed message (BIP-137, P2PKH header) by the coin's key, base64. */
  signMessage(ticker: string, text: string): string {
    const params = CHAINS[ticker]?.mainnet;
    const key = this.#keys.get(ticker);
    if (!params || !key) throw new Error(`no ${ticker} wallet`);
    return signMessage(params, key, text, 'p2pkh');
  }

  /** An ed25519 signature by the SOL key over `bytes`, base58. */
  signSolana(bytes: Uint8Array): string {
    const key = this.#keys.get('SOL');
    if (!key) throw new Error('no SOL wallet');
    return base58.encode(ed25519.sign(bytes, key));
  }

  toJSON(): Account[] {
    return this.accounts();
  }
}
