import { secp256k1 } from '@noble/curves/secp256k1.js';
import { hex } from '@scure/base';
import { describe, expect, it } from 'vitest';
import {
  addressesForPubkey,
  base58checkDecode,
  base58checkEncode,
  decodeSegwitV0,
  encodeP2pkh,
  encodeP2sh,
  encodeP2wpkh,
  encodeSegwitV0,
  hash160,
  p2shP2wpkhScriptHash,
  parseAddress,
} from '../../src/crypto/address.ts';
import type { MessageCoinParams } from '../../src/crypto/coins.ts';
import { LTC } from '../../src/crypto/coins.ts';

const BTC: MessageCoinParams = {
  ticker: 'BTC',
  messagePrefix: 'Bitcoin Signed Message:\n',
  p2pkh: 0x00,
  p2sh: [0x05],
  bech32Hrp: 'bc',
};
const DOGE: MessageCoinParams = {
  ticker: 'DOGE',
  messagePrefix: 'Dogecoin Signed Message:\n',
  p2pkh: 0x1e,
  p2sh: [0x16],
  bech32Hrp: null,
};

/** Private key 1: its public key is the generator G. */
const ONE = hex.decode('0000000000000000000000000000000000000000000000000000000000000001');
const G_COMPRESSED = hex.decode('0279be667ef9dcbbac55a06295ce870b07029bfcdb2dce28d959f2815b16f81798');
/** BIP173: hash160(G compressed), the program of bc1qw508d6qejxtdg4y5r3zarvary0c5xw7kv8f3t4. */
const G_HASH160 = '751e76e8199196d454941c45d1b3a323f1433bd6';

/** 02 ‖ x for the smallest x with no curve point (x³ + 7 is not a square mod p). */
function notOnCurveCompressed(): Uint8Array {
  for (let x = 1; ; x++) {
    const b = new Uint8Array(33);
    b[0] = 0x02;
    b[32] = x;
    try {
      secp256k1.Point.fromBytes(b);
    } catch {
      return b;
    }
  }
}

describe('hash160', () => {
  it('matches the BIP173 P2WPKH example (hash160 of the generator, compressed)', () => {
    expect(hex.encode(hash160(G_COMPRESSED))).toBe(G_HASH160);
    expect(hex.encode(secp256k1.getPublicKey(ONE, true))).toBe(hex.encode(G_COMPRESSED));
  });
});

describe('base58check', () => {
  it('round-trips and rejects a bad checksum or alphabet', () => {
    const payload = Uint8Array.of(0x30, ...hex.decode(G_HASH160));
    const s = base58checkEncode(payload);
    expect(base58checkDecode(s)).toEqual(payload);
    const tampered = s.slice(0, -1) + (s.endsWith('a') ? 'b' : 'a');
    expect(base58checkDecode(tampered)).toBeNull();
    expect(base58checkDecode('0OIl')).toBeNull();
  });
});

describe('segwit v0 bech32', () => {
  // Vectors from BIP173 "Test vectors" (valid/invalid segwit addresses).
  it('encodes and decodes the BIP173 P2WPKH vector, any single case', () => {
    expect(encodeSegwitV0('bc', hex.decode(G_HASH160))).toBe('bc1qw508d6qejxtdg4y5r3zarvary0c5xw7kv8f3t4');
    const up = decodeSegwitV0('BC1QW508D6QEJXTDG4Y5R3ZARVARY0C5XW7KV8F3T4');
    expect(up?.hrp).toBe('bc');
    expect(hex.encode(up?.program ?? new Uint8Array())).toBe(G_HASH160);
  });

  it('decodes a P2WSH program but parseAddress does not accept it', () => {
    const p2wsh = 'bc1qrp33g0q5c5txsp9arysrx4k6zdkfs4nce4xj0gdcccefvpysxf3qccfmv3';
    expect(decodeSegwitV0(p2wsh)?.program.length).toBe(32);
    expect(parseAddress(p2wsh, BTC)).toBeNull();
  });

  it('rejects mixed case, bech32m/taproot and bad checksums', () => {
    expect(decodeSegwitV0('tb1qrp33g0q5c5txsp9arysrx4k6zdkfs4nce4xj0gdcccefvpysxf3q0sL5k7')).toBeNull();
    // BIP350 P2TR vector (witness v1, bech32m)
    expect(decodeSegwitV0('bc1p0xlxvlhemja6c4dqv22uapctqupfhlxm9h8z3k2e72q4k9hcz7vqzk5jj0')).toBeNull();
    expect(decodeSegwitV0('bc1qw508d6qejxtdg4y5r3zarvary0c5xw7kv8f3t5')).toBeNull();
  });
});

describe('addressesForPubkey', () => {
  it('derives the well-known BTC addresses of private key 1', () => {
    // 1BgGZ…: P2PKH of key 1 (compressed); 3JvL6…, bc1qw508…: bitcoinjs-message test/fixtures.json
    expect(addressesForPubkey(G_COMPRESSED, BTC)).toEqual({
      p2pkh: '1BgGZ9tcN4rm9KBzDn7KprQz87SZ26SAMH',
      p2shP2wpkh: ['3JvL6Ymt8MVWiCNHC7oWU6nLeHNJKLZGLN'],
      p2wpkh: 'bc1qw508d6qejxtdg4y5r3zarvary0c5xw7kv8f3t4',
    });
  });

  it('derives LTC addresses: L…, one P2SH per version (M…, 3…), ltc1…', () => {
    const a = addressesForPubkey(G_COMPRESSED, LTC);
    expect(a.p2pkh).toMatch(/^L/);
    expect(a.p2shP2wpkh).toHaveLength(2);
    expect(a.p2shP2wpkh[0]).toMatch(/^M/);
    // version 5 is shared with Bitcoin, so the legacy LTC P2SH address equals the BTC one
    expect(a.p2shP2wpkh[1]).toBe('3JvL6Ymt8MVWiCNHC7oWU6nLeHNJKLZGLN');
    expect(a.p2wpkh).toMatch(/^ltc1qw508d6qejxtdg4y5r3zarvary0c5xw7k/);
    expect(parseAddress(a.p2pkh, LTC)).toEqual({ type: 'p2pkh', hash: hex.decode(G_HASH160) });
    expect(parseAddress(a.p2wpkh ?? '', LTC)).toEqual({ type: 'p2wpkh', hash: hex.decode(G_HASH160) });
    const sh = p2shP2wpkhScriptHash(hex.decode(G_HASH160));
    for (const addr of a.p2shP2wpkh) expect(parseAddress(addr, LTC)).toEqual({ type: 'p2sh', hash: sh });
  });

  it('has no bech32 address for a coin without an HRP', () => {
    const a = addressesForPubkey(G_COMPRESSED, DOGE);
    expect(a.p2pkh).toMatch(/^D/);
    expect(a.p2wpkh).toBeNull();
    expect(() => encodeP2wpkh(hex.decode(G_HASH160), DOGE)).toThrow();
  });

  it('rejects uncompressed or off-curve keys', () => {
    expect(() => addressesForPubkey(secp256k1.getPublicKey(ONE, false), LTC)).toThrow();
    const offCurve = notOnCurveCompressed();
    expect(() => secp256k1.Point.fromBytes(offCurve)).toThrow();
    expect(() => addressesForPubkey(offCurve, LTC)).toThrow();
    expect(() => addressesForPubkey(new Uint8Array(33), LTC)).toThrow();
  });
});

describe('parseAddress', () => {
  // Litecoin Core src/test/data/key_io_valid.json (mainnet entries): address → scriptPubKey
  it('parses Litecoin Core key_io vectors', () => {
    const pkh = parseAddress('LT2KVaAy1ppRuxRgrS5RNU3vBsy7RibPeA', LTC);
    expect(pkh?.type).toBe('p2pkh');
    expect(hex.encode(pkh?.hash ?? new Uint8Array())).toBe('558dbca7118cd5894502767c7b2ffc21a22f54db');
    const sh = parseAddress('MHrYRxAiMNBTku3eoDHwhA1LQGDjUStZW2', LTC);
    expect(sh?.type).toBe('p2sh');
    expect(hex.encode(sh?.hash ?? new Uint8Array())).toBe('6d328a5b2a20d943a641c8d29b6cc3c2d2df85d3');
    // and re-encodes to the same strings
    expect(encodeP2pkh(hex.decode('558dbca7118cd5894502767c7b2ffc21a22f54db'), LTC)).toBe(
      'LT2KVaAy1ppRuxRgrS5RNU3vBsy7RibPeA',
    );
    expect(encodeP2sh(hex.decode('6d328a5b2a20d943a641c8d29b6cc3c2d2df85d3'), LTC)).toBe(
      'MHrYRxAiMNBTku3eoDHwhA1LQGDjUStZW2',
    );
  });

  it('is network-checked: other coins’ version bytes and HRPs give null', () => {
    const ltc = addressesForPubkey(G_COMPRESSED, LTC);
    expect(parseAddress('1BgGZ9tcN4rm9KBzDn7KprQz87SZ26SAMH', LTC)).toBeNull();
    expect(parseAddress('bc1qw508d6qejxtdg4y5r3zarvary0c5xw7kv8f3t4', LTC)).toBeNull();
    expect(parseAddress('DFpN6QqFfUm3gKNaxN6tNcab1FArL9cZLE', LTC)).toBeNull();
    expect(parseAddress(ltc.p2pkh, BTC)).toBeNull();
    expect(parseAddress(ltc.p2shP2wpkh[0] ?? '', BTC)).toBeNull();
    expect(parseAddress(ltc.p2wpkh ?? '', BTC)).toBeNull();
    // testnet (Litecoin Core key_io_valid.json, chain "test")
    expect(parseAddress('mwXn5Vhicdav8Av3KMokx4YNuHoGRKxtWs', LTC)).toBeNull();
    expect(parseAddress('QXaUgLHkZcbJb2j5XgMYzY8cF9YM48Y81Z', LTC)).toBeNull();
  });

  it('returns null for garbage', () => {
    for (const s of [
      '',
      ' ',
      'L',
      'ltc1',
      'LT2KVaAy1ppRuxRgrS5RNU3vBsy7RibPeB',
      'LT2KVaAy1ppRuxRgrS5RNU3vBsy7RibPeA ',
    ]) {
      expect(parseAddress(s, LTC)).toBeNull();
    }
  });
});
