/**
 * The ed25519 attestation of proof-of-reserves reports: the signature is over the UTF-8 bytes of the report's
 * canonical JSON (the report carries its `schema` tag, which keeps these signatures from meaning anything else).
 *
 * The private key is a 32-byte seed: `BRIDGE_ATTESTATION_KEY` (hex) or, in embedded mode, a secret generated at
 * `<DATA_DIR>/secrets/bridge-attestation-<network>`. A deployment whose `attestation.publicKey` is pinned only
 * accepts the matching seed, and never gets a generated one; `"from-secret"` (testnet) uses the local secret's key.
 */
import { randomBytes } from 'node:crypto';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { ed25519 } from '@noble/curves/ed25519.js';
import { bytesToHex, hexToBytes } from '@noble/hashes/utils.js';
import { fileSecret } from '../secret-file.ts';
import { canonicalJson } from './canonical.ts';
import type { Deployment } from './model.ts';

export const ATTESTATION_ALGORITHM = 'ed25519';

export interface AttestationKey {
  /** 32-byte seed. */
  readonly seed: Uint8Array;
  /** Lowercase hex of the 32-byte public key. */
  readonly publicKey: string;
}

/** A key or seed that cannot be used; the message says which setting to change. */
export class AttestationKeyError extends Error {}

export function keyFromSeedHex(hex: string, name = 'BRIDGE_ATTESTATION_KEY'): AttestationKey {
  if (!/^[0-9a-fA-F]{64}$/.test(hex)) {
    throw new AttestationKeyError(`${name} must be a 32-byte ed25519 seed in hex (64 hex digits)`);
  }
  const seed = hexToBytes(hex.toLowerCase());
  return { seed, publicKey: bytesToHex(ed25519.getPublicKey(seed)) };
}

/** Signs `report`: hex of the 64-byte signature over its canonical JSON. */
export function signReport(report: unknown, key: AttestationKey): string {
  return bytesToHex(ed25519.sign(new TextEncoder().encode(canonicalJson(report)), key.seed));
}

/** True when `signatureHex` is `publicKeyHex`'s signature of `report`'s canonical JSON. False on any malformed input. */
export function verifyReport(report: unknown, signatureHex: string, publicKeyHex: string): boolean {
  try {
    if (!/^[0-9a-f]{128}$/i.test(signatureHex) || !/^[0-9a-f]{64}$/i.test(publicKeyHex)) return false;
    const msg = new TextEncoder().encode(canonicalJson(report));
    return ed25519.verify(
      hexToBytes(signatureHex.toLowerCase()),
      msg,
      hexToBytes(publicKeyHex.toLowerCase()),
    );
  } catch {
    return false;
  }
}

export interface KeySource {
  /** `BRIDGE_ATTESTATION_KEY`: hex seed; wins over the file secret. */
  seedHex?: string | undefined;
  /** `DATA_DIR`, where the embedded-mode secret lives. */
  dataDir: string;
  /** Scale-out (PostgreSQL server): no key is generated, `BRIDGE_ATTESTATION_KEY` is required. */
  scaleOut?: boolean | undefined;
}

/** Name of the embedded-mode secret of a network's attestation seed, under `<DATA_DIR>/secrets/`. */
export const secretName = (network: string): string => `bridge-attestation-${network}`;

/**
 * The signing key for `deployment`: the env seed, else the file secret (generated only when the deployment says
 * `"from-secret"` and the store is embedded). Throws `AttestationKeyError` when none fits or it does not match a
 * pinned public key.
 */
export function resolveAttestationKey(deployment: Deployment, src: KeySource): AttestationKey {
  const pinned = deployment.attestation.publicKey;
  const name = secretName(deployment.network);
  let key: AttestationKey;
  if (src.seedHex) key = keyFromSeedHex(src.seedHex);
  else {
    const exists = existsSync(join(src.dataDir, 'secrets', name));
    if (!exists && (pinned !== null || src.scaleOut)) {
      throw new AttestationKeyError(
        pinned !== null
          ? `${deployment.source} pins attestation.publicKey ${pinned}: set BRIDGE_ATTESTATION_KEY to its ed25519 seed (hex)`
          : 'set BRIDGE_ATTESTATION_KEY (hex ed25519 seed): with DATABASE_URL no key is generated under DATA_DIR',
      );
    }
    const hex = fileSecret(src.dataDir, name, () => randomBytes(32).toString('hex'));
    key = keyFromSeedHex(hex, `${join(src.dataDir, 'secrets', name)}`);
  }
  if (pinned !== null && key.publicKey !== pinned) {
    throw new AttestationKeyError(
      `the attestation seed's public key ${key.publicKey} does not match attestation.publicKey ${pinned} in ${deployment.source}`,
    );
  }
  return key;
}
