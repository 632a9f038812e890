/**
 * Signed messages on LTC (src/crypto/signed-message.ts): round trips for every address type, edge cases and
 * failures, argument checks. The message hash and the independent vectors: signed-message.test.ts.
 */
import { secp256k1 } from '@noble/curves/secp256k1.js';
import { sha256 } from '@noble/hashes/sha2.js';
import { base64, hex } from '@scure/base';
import { describe, expect, it } from 'vitest';
import { addressesForPubkey, base58checkEncode, hash160 } from '../../src/crypto/address.ts';
import { LTC } from '../../src/crypto/coins.ts';
import type { MessageAddressType } from '../../src/crypto/signed-message.ts';
import { addressOf, messageHash, signMessage, verifySignedMessage } from '../../src/crypto/signed-message.ts';
import {
  bigToBytes32,
  BTC,
  codeOf,
  DOGE,
  KEY,
  LTC_TESTNET,
  N,
  sigBytes,
  withBytes,
} from './signed-message-fixtures.ts';

// ---------------------------------------------------------------------------------------------
describe('LTC round trips', () => {
  const MSG = 'Sign in to Coin Wallet\nnonce: 4f1c2a\nissued: 2026-11-21T12:00:00Z ✓';
  const types: MessageAddressType[] = ['p2pkh', 'p2sh-p2wpkh', 'p2wpkh'];

  for (const type of types) {
    it(`signs and verifies a ${type} address`, () => {
      const addr = addressOf(LTC, KEY, type);
      expect(addr).toMatch({ p2pkh: /^L/, 'p2sh-p2wpkh': /^M/, p2wpkh: /^ltc1q/ }[type]);
      const sig = signMessage(LTC, KEY, MSG, type);
      expect(sigBytes(sig)).toHaveLength(65);
      expect(sigBytes(sig)[0]).toBeGreaterThanOrEqual({ p2pkh: 31, 'p2sh-p2wpkh': 35, p2wpkh: 39 }[type]);
      expect(sigBytes(sig)[0]).toBeLessThanOrEqual({ p2pkh: 34, 'p2sh-p2wpkh': 38, p2wpkh: 42 }[type]);
      const r = verifySignedMessage(LTC, addr, MSG, sig);
      expect(r).toMatchObject({ ok: true, addressType: type });
      if (r.ok) expect(r.pubkey).toEqual(secp256k1.getPublicKey(KEY, true));
      expect(signMessage(LTC, KEY, MSG, type)).toBe(sig); // deterministic (RFC6979)
    });
  }

  it('agrees with addressesForPubkey, and the legacy 3… P2SH version verifies too', () => {
    const all = addressesForPubkey(secp256k1.getPublicKey(KEY, true), LTC);
    expect(all.p2pkh).toBe(addressOf(LTC, KEY, 'p2pkh'));
    expect(all.p2shP2wpkh[0]).toBe(addressOf(LTC, KEY, 'p2sh-p2wpkh'));
    expect(all.p2wpkh).toBe(addressOf(LTC, KEY, 'p2wpkh'));
    const legacy = all.p2shP2wpkh[1] ?? '';
    expect(legacy).toMatch(/^3/);
    const sig = signMessage(LTC, KEY, MSG, 'p2sh-p2wpkh');
    expect(verifySignedMessage(LTC, legacy, MSG, sig)).toMatchObject({
      ok: true,
      addressType: 'p2sh-p2wpkh',
    });
  });

  it('compares bech32 addresses case-insensitively; mixed case is malformed', () => {
    const addr = addressOf(LTC, KEY, 'p2wpkh');
    const sig = signMessage(LTC, KEY, MSG, 'p2wpkh');
    expect(codeOf(verifySignedMessage(LTC, addr.toUpperCase(), MSG, sig))).toBe('OK');
    const mixed = addr.slice(0, 6) + addr.slice(6).toUpperCase();
    expect(codeOf(verifySignedMessage(LTC, mixed, MSG, sig))).toBe('MALFORMED_ADDRESS');
  });

  it('accepts the Electrum convention: header 31–34 for P2SH-P2WPKH and P2WPKH addresses', () => {
    const sig = signMessage(LTC, KEY, MSG, 'p2pkh');
    expect(verifySignedMessage(LTC, addressOf(LTC, KEY, 'p2sh-p2wpkh'), MSG, sig)).toMatchObject({
      ok: true,
      addressType: 'p2sh-p2wpkh',
    });
    expect(verifySignedMessage(LTC, addressOf(LTC, KEY, 'p2wpkh'), MSG, sig)).toMatchObject({
      ok: true,
      addressType: 'p2wpkh',
    });
    // and the BTC fixture: the header-31 signature of key 1 verifies against its bc1q / 3… addresses
    const ic = 'IF8nHqFr3K2UKYahhX3soVeoW8W1ECNbr0wfck7lzyXjCS5Q16Ek45zyBuy1Fiy9sTPKVgsqqOuPvbycuVSSVl8=';
    expect(
      codeOf(verifySignedMessage(BTC, 'bc1qw508d6qejxtdg4y5r3zarvary0c5xw7kv8f3t4', 'vires is numeris', ic)),
    ).toBe('OK');
    expect(
      codeOf(verifySignedMessage(BTC, '3JvL6Ymt8MVWiCNHC7oWU6nLeHNJKLZGLN', 'vires is numeris', ic)),
    ).toBe('OK');
  });

  it('holds BIP137 segwit headers to their address type', () => {
    const shSig = signMessage(LTC, KEY, MSG, 'p2sh-p2wpkh');
    const wSig = signMessage(LTC, KEY, MSG, 'p2wpkh');
    expect(codeOf(verifySignedMessage(LTC, addressOf(LTC, KEY, 'p2pkh'), MSG, shSig))).toBe(
      'ADDRESS_MISMATCH',
    );
    expect(codeOf(verifySignedMessage(LTC, addressOf(LTC, KEY, 'p2pkh'), MSG, wSig))).toBe(
      'ADDRESS_MISMATCH',
    );
    expect(codeOf(verifySignedMessage(LTC, addressOf(LTC, KEY, 'p2wpkh'), MSG, shSig))).toBe(
      'ADDRESS_MISMATCH',
    );
    expect(codeOf(verifySignedMessage(LTC, addressOf(LTC, KEY, 'p2sh-p2wpkh'), MSG, wSig))).toBe(
      'ADDRESS_MISMATCH',
    );
  });

  it('uncompressed-key P2PKH (header 27–30) verifies only against the uncompressed-key address', () => {
    const compressed = signMessage(LTC, KEY, MSG);
    const uncompressed = withBytes(compressed, (b) => {
      b[0] = (b[0] as number) - 4;
    });
    const uncompressedAddr = base58checkEncode(
      Uint8Array.of(LTC.p2pkh, ...hash160(secp256k1.getPublicKey(KEY, false))),
    );
    const r = verifySignedMessage(LTC, uncompressedAddr, MSG, uncompressed);
    expect(r).toMatchObject({ ok: true, addressType: 'p2pkh' });
    if (r.ok) expect(r.pubkey).toEqual(secp256k1.getPublicKey(KEY, false));
    expect(codeOf(verifySignedMessage(LTC, addressOf(LTC, KEY, 'p2pkh'), MSG, uncompressed))).toBe(
      'ADDRESS_MISMATCH',
    );
    expect(codeOf(verifySignedMessage(LTC, uncompressedAddr, MSG, compressed))).toBe('ADDRESS_MISMATCH');
    // segwit never uses uncompressed keys
    expect(codeOf(verifySignedMessage(LTC, addressOf(LTC, KEY, 'p2wpkh'), MSG, uncompressed))).toBe(
      'ADDRESS_MISMATCH',
    );
  });

  it('accepts high-S signatures, as Core does', () => {
    const sig = sigBytes(signMessage(LTC, KEY, MSG));
    const s = BigInt('0x' + hex.encode(sig.subarray(33)));
    const highS = Uint8Array.from(sig);
    highS.set(bigToBytes32(N - s), 33);
    highS[0] = (((sig[0] as number) - 31) ^ 1) + 31; // negating s flips the recovery parity
    expect(N - s > N / 2n).toBe(true);
    expect(codeOf(verifySignedMessage(LTC, addressOf(LTC, KEY, 'p2pkh'), MSG, base64.encode(highS)))).toBe(
      'OK',
    );
  });
});

// ---------------------------------------------------------------------------------------------
describe('edge cases and failures', () => {
  const MSG = 'hello litecoin';
  const ADDR = addressOf(LTC, KEY, 'p2pkh');
  const SIG = signMessage(LTC, KEY, MSG);

  it('tampered message → ADDRESS_MISMATCH (recovers a different, valid key)', () => {
    expect(codeOf(verifySignedMessage(LTC, ADDR, MSG + '!', SIG))).toBe('ADDRESS_MISMATCH');
    expect(codeOf(verifySignedMessage(LTC, ADDR, 'Hello litecoin', SIG))).toBe('ADDRESS_MISMATCH');
  });

  it('another key’s address → ADDRESS_MISMATCH', () => {
    const other = addressOf(LTC, sha256(KEY), 'p2pkh');
    expect(codeOf(verifySignedMessage(LTC, other, MSG, SIG))).toBe('ADDRESS_MISMATCH');
  });

  it('r or s out of range, or r not an x coordinate → BAD_SIGNATURE', () => {
    const zeroR = withBytes(SIG, (b) => b.fill(0, 1, 33));
    const zeroS = withBytes(SIG, (b) => b.fill(0, 33, 65));
    const rIsN = withBytes(SIG, (b) => b.set(bigToBytes32(N), 1));
    const sAboveN = withBytes(SIG, (b) => b.fill(0xff, 33, 65));
    // smallest x ≥ 1 with no curve point, used as r with recovery id 0
    let noPoint = 1n;
    for (; ; noPoint++) {
      try {
        secp256k1.Point.fromBytes(Uint8Array.of(0x02, ...bigToBytes32(noPoint)));
      } catch {
        break;
      }
    }
    const rNoPoint = withBytes(SIG, (b) => {
      b[0] = 31;
      b.set(bigToBytes32(noPoint), 1);
    });
    for (const sig of [zeroR, zeroS, rIsN, sAboveN, rNoPoint]) {
      const r = verifySignedMessage(LTC, ADDR, MSG, sig);
      expect(codeOf(r), sig).toBe('BAD_SIGNATURE');
    }
  });

  it('recovery ids 2–3 (R.x = r + n) are honoured', () => {
    // Real signers essentially never produce recid ≥ 2 (P ≈ 2^-127), so build one: take a point R
    // with x ≥ n, set r = x − n, pick s, and solve for the key Q = r⁻¹(sR − hG). (r, s) is then a
    // valid ECDSA signature of h under Q, checked independently with secp256k1.verify.
    const { Point } = secp256k1;
    const Fn = Point.Fn;
    let R: InstanceType<typeof Point> | undefined;
    for (let t = 1n; !R; t++) {
      try {
        R = Point.fromBytes(Uint8Array.of(0x02, ...bigToBytes32(N + t)));
      } catch {
        // no point with this x; try the next one
      }
    }
    const r = R.x - N;
    const s = 12345n;
    const h = messageHash(MSG, LTC);
    const hn = Fn.create(BigInt('0x' + hex.encode(h)));
    const Q = R.multiply(s).subtract(Point.BASE.multiply(hn)).multiply(Fn.inv(r));
    const q = Q.toBytes(true);
    const compact = Uint8Array.of(...bigToBytes32(r), ...bigToBytes32(s));
    expect(secp256k1.verify(compact, h, q, { prehash: false, lowS: false })).toBe(true);
    const addr = addressesForPubkey(q, LTC).p2pkh;
    const sig = base64.encode(Uint8Array.of(31 + 2 + Number(R.y & 1n), ...compact));
    const res = verifySignedMessage(LTC, addr, MSG, sig);
    expect(res).toMatchObject({ ok: true, addressType: 'p2pkh' });
    if (res.ok) expect(res.pubkey).toEqual(q);
  });

  it('recovery ids 2–3 need r + n < p: otherwise BAD_SIGNATURE', () => {
    // r close to n: r + n exceeds the field prime, so recid 2 cannot name a point.
    const sig = withBytes(SIG, (b) => {
      b[0] = 33;
      b.set(bigToBytes32(N - 1n), 1);
    });
    expect(codeOf(verifySignedMessage(LTC, ADDR, MSG, sig))).toBe('BAD_SIGNATURE');
  });

  it('malformed base64, wrong length, header out of range → MALFORMED_SIGNATURE', () => {
    const bytes = sigBytes(SIG);
    const bad = [
      'not base64!',
      SIG.replace(/=$/, ''), // missing padding
      SIG.slice(0, 40),
      '',
      base64.encode(bytes.subarray(0, 64)),
      base64.encode(Uint8Array.of(...bytes, 0)),
      withBytes(SIG, (b) => (b[0] = 26)),
      withBytes(SIG, (b) => (b[0] = 43)),
      withBytes(SIG, (b) => (b[0] = 0)),
      withBytes(SIG, (b) => (b[0] = 255)),
    ];
    for (const sig of bad) {
      const r = verifySignedMessage(LTC, ADDR, MSG, sig);
      expect(codeOf(r), JSON.stringify(sig)).toBe('MALFORMED_SIGNATURE');
      if (!r.ok) expect(r.message.length).toBeGreaterThan(0);
    }
  });

  it('wrong-network or unusable addresses → MALFORMED_ADDRESS', () => {
    const pk = secp256k1.getPublicKey(KEY, true);
    const btc = addressesForPubkey(pk, BTC);
    const doge = addressesForPubkey(pk, DOGE);
    const testnet = addressesForPubkey(pk, LTC_TESTNET);
    const bad = [
      btc.p2pkh, // 1…
      btc.p2wpkh ?? '', // bc1q…
      doge.p2pkh, // D…
      testnet.p2pkh, // m…/n…
      testnet.p2shP2wpkh[0] ?? '', // Q…
      testnet.p2wpkh ?? '', // tltc1q…
      'ltc1qrp33g0q5c5txsp9arysrx4k6zdkfs4nce4xj0gdcccefvpysxf3qwjcw0u', // not a valid checksum
      '',
      'LT2KVaAy1ppRuxRgrS5RNU3vBsy7RibPeB', // bad checksum
    ];
    for (const addr of bad) {
      expect(codeOf(verifySignedMessage(LTC, addr, MSG, SIG)), addr).toBe('MALFORMED_ADDRESS');
    }
    // ... checked before the signature is looked at
    expect(codeOf(verifySignedMessage(LTC, btc.p2pkh, MSG, 'garbage'))).toBe('MALFORMED_ADDRESS');
  });

  it('a Bitcoin 3… address is also a legacy LTC P2SH address: BTC signatures → ADDRESS_MISMATCH', () => {
    const btcSig = signMessage(BTC, KEY, MSG, 'p2sh-p2wpkh');
    const addr3 = addressOf(BTC, KEY, 'p2sh-p2wpkh');
    expect(codeOf(verifySignedMessage(BTC, addr3, MSG, btcSig))).toBe('OK');
    expect(codeOf(verifySignedMessage(LTC, addr3, MSG, btcSig))).toBe('ADDRESS_MISMATCH');
    // while the holder signing with the Litecoin prefix does control it on Litecoin
    expect(codeOf(verifySignedMessage(LTC, addr3, MSG, signMessage(LTC, KEY, MSG, 'p2sh-p2wpkh')))).toBe(
      'OK',
    );
  });
});

describe('signMessage / addressOf argument checks', () => {
  it('rejects invalid private keys and types the coin lacks', () => {
    expect(() => signMessage(LTC, new Uint8Array(32), 'x')).toThrow();
    expect(() => signMessage(LTC, bigToBytes32(N), 'x')).toThrow();
    expect(() => signMessage(LTC, new Uint8Array(31).fill(1), 'x')).toThrow();
    expect(() => addressOf(LTC, new Uint8Array(32), 'p2pkh')).toThrow();
    expect(() => signMessage(DOGE, KEY, 'x', 'p2wpkh')).toThrow();
    expect(() => addressOf(DOGE, KEY, 'p2wpkh')).toThrow();
  });
});
