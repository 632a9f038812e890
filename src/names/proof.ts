/**
 * Proof of control of an address being linked to a name: the account signs a challenge with that address's key.
 *
 * - UTXO coins (the 19 kit coins): a Bitcoin-style signed message (`signmessage`) with the coin's own prefix and
 *   address versions, verified by `verifySignedMessage(messageParams(asset, network), …)`.
 * - SOL: an ed25519 signature over the UTF-8 bytes of the challenge text (what Solana wallets' `signMessage` makes),
 *   verified against the 32-byte public key that the base58 address is; the signature is 64 bytes, sent in base58
 *   (as wallets show it) or base64.
 */
import { randomBytes } from 'node:crypto';
import { ed25519 } from '@noble/curves/ed25519.js';
import { base58, base64 } from '@scure/base';
import { messageParams } from '../crypto/chains.ts';
import type { Network } from '../crypto/chains.ts';
import { parseAddress } from '../crypto/address.ts';
import { verifySignedMessage } from '../crypto/signed-message.ts';
import { nameErrors } from './errors.ts';

export interface ProofChallengeFields {
  name: string;
  asset: string;
  address: string;
  /** The LTC address of the account asking (who the link is for). */
  account: string;
  nonce: string;
  issuedAt: number;
  expiresAt: number;
}

/** A fresh challenge nonce: 128 random bits, hex. */
export function newProofNonce(): string {
  return randomBytes(16).toString('hex');
}

/**
 * The exact text to sign. Every field is the server's own normalised value (none holds a line break). The first line
 * says what the signature is for: linking the address to the name (`link`), or making the name the address's
 * primary name (`primary`); a signature of one never serves the other (the challenge's purpose is checked too).
 */
export function proofChallengeText(f: ProofChallengeFields, purpose: 'link' | 'primary' = 'link'): string {
  return [
    purpose === 'link'
      ? `Link this ${f.asset} address to the name ${f.name}:`
      : `Make ${f.name} the primary name of this ${f.asset} address:`,
    f.address,
    '',
    'Signing proves you hold this address. It sends no transaction and costs no fee.',
    '',
    `Account: ${f.account}`,
    `Nonce: ${f.nonce}`,
    `Issued At: ${new Date(f.issuedAt).toISOString()}`,
    `Expiration Time: ${new Date(f.expiresAt).toISOString()}`,
  ].join('\n');
}

/** 400 UNPROVABLE_ADDRESS when the (valid) address is of a kind that cannot sign a message (e.g. P2WSH, taproot). */
export function assertProvable(asset: string, address: string, network: Network): void {
  const params = messageParams(asset, network);
  if (params === null) return; // SOL: every address is an ed25519 key.
  if (!parseAddress(address, params)) throw nameErrors.unprovableAddress(asset);
}

/** Throws the 4xx that says why `signature` is not `address`'s signature of `text`. */
export function verifyProof(
  asset: string,
  network: Network,
  address: string,
  text: string,
  signature: string,
): void {
  const params = messageParams(asset, network);
  if (params === null) return verifyEd25519(address, text, signature);
  const r = verifySignedMessage(params, address, text, signature);
  if (r.ok) return;
  switch (r.code) {
    case 'MALFORMED_SIGNATURE':
      throw nameErrors.malformedSignature(
        `a base64 ${asset} signed-message signature (65 bytes, 88 characters)`,
      );
    case 'MALFORMED_ADDRESS':
      throw nameErrors.unprovableAddress(asset);
    case 'ADDRESS_MISMATCH':
      throw nameErrors.wrongSigner();
    case 'BAD_SIGNATURE':
      throw nameErrors.badSignature();
  }
}

const SOL_SIG_FORMAT = 'a 64-byte ed25519 signature of the challenge text, in base58 or base64';

function verifyEd25519(address: string, text: string, signature: string): void {
  const sig = decodeSig(signature);
  if (!sig) throw nameErrors.malformedSignature(SOL_SIG_FORMAT);
  let pub: Uint8Array;
  try {
    pub = base58.decode(address);
  } catch {
    throw nameErrors.unprovableAddress('SOL');
  }
  if (pub.length !== 32) throw nameErrors.unprovableAddress('SOL');
  let ok = false;
  try {
    ok = ed25519.verify(sig, new TextEncoder().encode(text), pub);
  } catch {
    ok = false;
  }
  // An ed25519 signature names no key, so "another key signed it" and "it does not verify" are one answer.
  if (!ok) throw nameErrors.badSignature();
}

function decodeSig(s: string): Uint8Array | null {
  for (const codec of [base58, base64]) {
    try {
      const b = codec.decode(s);
      if (b.length === 64) return b;
    } catch {
      // try the next encoding
    }
  }
  return null;
}
