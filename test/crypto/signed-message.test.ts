/**
 * Signed messages (src/crypto/signed-message.ts): the message hash and independent vectors (Litecoin Core, Bitcoin
 * Core, brainwallet, bitcoinjs-message). LTC round trips, failures and argument checks: signed-message-ltc.test.ts.
 */
import { secp256k1 } from '@noble/curves/secp256k1.js';
import { sha256 } from '@noble/hashes/sha2.js';
import { hex } from '@scure/base';
import { describe, expect, it } from 'vitest';
import { base58checkDecode, base58checkEncode, hash160 } from '../../src/crypto/address.ts';
import type { MessageCoinParams } from '../../src/crypto/coins.ts';
import { LTC } from '../../src/crypto/coins.ts';
import type { MessageAddressType } from '../../src/crypto/signed-message.ts';
import { addressOf, messageHash, signMessage, verifySignedMessage } from '../../src/crypto/signed-message.ts';
import { BTC, BTC_TESTNET, codeOf, DOGE, LTC_TESTNET, ONE, wifToKey } from './signed-message-fixtures.ts';

// ---------------------------------------------------------------------------------------------
describe('messageHash', () => {
  // bitcoinjs/bitcoinjs-message test/fixtures.json, valid.magicHash
  it('matches bitcoinjs-message magicHash fixtures (Bitcoin and Dogecoin prefixes)', () => {
    expect(hex.encode(messageHash('', BTC))).toBe(
      '80e795d4a4caadd7047af389d9f7f220562feb6196032e2131e10563352c4bcc',
    );
    expect(hex.encode(messageHash('Vires is Numeris', BTC))).toBe(
      'f8a5affbef4a3241b19067aa694562f64f513310817297089a8929a930f4f933',
    );
    expect(hex.encode(messageHash('Vires is Numeris', DOGE))).toBe(
      'c0963d20d0accd0ea0df6c1020bf85a7e629a40e7b5363f2c3e9dcafd5638f12',
    );
  });

  it('depends on the prefix', () => {
    expect(hex.encode(messageHash('x', LTC))).not.toBe(hex.encode(messageHash('x', BTC)));
  });

  it('serialises lengths ≥ 0xfd as a little-endian CompactSize (0xfd lo hi)', () => {
    const msg = 'é'.repeat(300); // 600 UTF-8 bytes = 0x0258
    const prefix = new TextEncoder().encode(LTC.messagePrefix);
    const body = new TextEncoder().encode(msg);
    const manual = Uint8Array.of(prefix.length, ...prefix, 0xfd, 0x58, 0x02, ...body);
    expect(hex.encode(messageHash(msg, LTC))).toBe(hex.encode(sha256(sha256(manual))));
  });
});

// ---------------------------------------------------------------------------------------------
describe('independent vectors', () => {
  // litecoin-project/litecoin test/functional/rpc_signmessage.py ("test signing with priv_key"):
  // Litecoin Core's signmessagewithprivkey output for a testnet key, asserted by Core's own test.
  // The same key/message in Bitcoin Core (bitcoin/bitcoin test/functional/
  // rpc_signmessagewithprivkey.py) gives a different signature: the prefixes differ.
  const CORE_PRIV = 'cUeKHd5orzT3mz8P9pxyREHfsWtVfgsfDjiZZBcjUBAaGk1BTj7N';
  const CORE_ADDR = 'mpLQjfK79b7CCV4VMJWEWAj5Mpx8Up5zxB';
  const CORE_MSG = 'This is just a test message';
  const LTC_CORE_SIG =
    'IGve8AOjIcu+a/nYW1PABSfmp2oQlEqLIOwPgNW5/Y5teggr8S0vy4SMdjL2Viv3iuBZjJbhvyBo0tv5m3H63b8=';
  const BTC_CORE_SIG =
    'INbVnW4e6PeRmsv2Qgu8NuopvrVjkcxob+sX8OcZG0SALhWybUjzMLPdAsXI46YZGb0KQTRii+wWIQzRpG/U+S0=';

  it('Litecoin Core signmessagewithprivkey: verifies, and signMessage reproduces it byte for byte', () => {
    const key = wifToKey(CORE_PRIV);
    expect(addressOf(LTC_TESTNET, key, 'p2pkh')).toBe(CORE_ADDR);
    const r = verifySignedMessage(LTC_TESTNET, CORE_ADDR, CORE_MSG, LTC_CORE_SIG);
    expect(r).toMatchObject({ ok: true, addressType: 'p2pkh' });
    expect(signMessage(LTC_TESTNET, key, CORE_MSG)).toBe(LTC_CORE_SIG);
    // Under the Bitcoin prefix the same bytes recover some other key.
    expect(codeOf(verifySignedMessage(BTC_TESTNET, CORE_ADDR, CORE_MSG, LTC_CORE_SIG))).toBe(
      'ADDRESS_MISMATCH',
    );
  });

  it('Bitcoin Core signmessagewithprivkey: verifies and is reproduced (scheme check)', () => {
    const key = wifToKey(CORE_PRIV);
    expect(codeOf(verifySignedMessage(BTC_TESTNET, CORE_ADDR, CORE_MSG, BTC_CORE_SIG))).toBe('OK');
    expect(signMessage(BTC_TESTNET, key, CORE_MSG)).toBe(BTC_CORE_SIG);
    expect(codeOf(verifySignedMessage(LTC_TESTNET, CORE_ADDR, CORE_MSG, BTC_CORE_SIG))).toBe(
      'ADDRESS_MISMATCH',
    );
  });

  // GALE-forkbeard/brainwallet.github.io js/bitcoinsig.js, test block "3. litecoin - uncompressed
  // key and address": signed in brainwallet, "verified here: https://www.litecoinpool.org/verifymessage".
  // Blocks 1 and 2 of the same file are the Bitcoin counterparts (2: "verified in bitcoin-qt.exe").
  const EXAMPLE_MSG = 'This is an example of a signed message.';

  it('Litecoin mainnet, uncompressed key (header 27–30) — brainwallet / litecoinpool.org', () => {
    const r = verifySignedMessage(
      LTC,
      'LT9z86rndXt4HdVJDWzw2gCAziVVhbinxy',
      EXAMPLE_MSG,
      'HMftz7eGSIjKy7jDL/gqO1MUrw0vAK3blLUiYDapB+rUoZk5aoFRk11Io9+5f5jcNRWd/Q5ZHpLYDAr1NgkQE0I=',
    );
    expect(r).toMatchObject({ ok: true, addressType: 'p2pkh' });
    if (r.ok) {
      expect(r.pubkey).toHaveLength(65);
      // the same key is the Bitcoin address 18w2rtYxYse12po93P1dkf8QnW8DaYqRTD (block 1)
      expect(hash160(r.pubkey)).toEqual(base58checkDecode('18w2rtYxYse12po93P1dkf8QnW8DaYqRTD')?.slice(1));
      const key = wifToKey('5HsGGnRCbQ8hjjeL5Hi38vrMTzbSqzNtUjJ1JxF1qFwAzjV4KJ1');
      expect(r.pubkey).toEqual(secp256k1.getPublicKey(key, false));
    }
  });

  it('Bitcoin brainwallet vectors (uncompressed and compressed)', () => {
    expect(
      codeOf(
        verifySignedMessage(
          BTC,
          '18w2rtYxYse12po93P1dkf8QnW8DaYqRTD',
          EXAMPLE_MSG,
          'Gw9xyTzpE30hW596U8TVXb9ZaE38+9MQXGzezDYiAxMDjMHulUYWIVQgcFN9Q0bRZqm2TW2WWMR2xaUOZ0CeqjE=',
        ),
      ),
    ).toBe('OK');
    expect(
      codeOf(
        verifySignedMessage(
          BTC,
          '15joXuxYSx9KP2quTQVFiAXbykCve3QtdL',
          EXAMPLE_MSG,
          'HxX3bN5+IIfyWIaTjgzGfA41yPDIrtcGuHQj3tNcbqp6eT3iw4yO14BxzsMFCpLpcn1X/YoFC8v9JJYy615qb2U=',
        ),
      ),
    ).toBe('OK');
  });

  // bitcoinjs/bitcoinjs-message test/fixtures.json: valid.sign (d = 1, "vires is numeris") and
  // valid.verify / invalid.verify.
  const VIRES = 'vires is numeris';

  it('bitcoinjs-message sign fixtures: BIP137 headers 31 / 35 / 39 reproduced byte for byte', () => {
    expect(signMessage(BTC, ONE, VIRES, 'p2pkh')).toBe(
      'IF8nHqFr3K2UKYahhX3soVeoW8W1ECNbr0wfck7lzyXjCS5Q16Ek45zyBuy1Fiy9sTPKVgsqqOuPvbycuVSSVl8=',
    );
    expect(signMessage(BTC, ONE, VIRES, 'p2sh-p2wpkh')).toBe(
      'JF8nHqFr3K2UKYahhX3soVeoW8W1ECNbr0wfck7lzyXjCS5Q16Ek45zyBuy1Fiy9sTPKVgsqqOuPvbycuVSSVl8=',
    );
    expect(signMessage(BTC, ONE, VIRES, 'p2wpkh')).toBe(
      'KF8nHqFr3K2UKYahhX3soVeoW8W1ECNbr0wfck7lzyXjCS5Q16Ek45zyBuy1Fiy9sTPKVgsqqOuPvbycuVSSVl8=',
    );
  });

  it('bitcoinjs-message sign fixtures: uncompressed headers (27–30) recover the uncompressed key', () => {
    const uncompressedAddr = '1EHNa6Q4Jz2uvNExL497mE43ikXhwF6kZm'; // P2PKH of key 1, uncompressed
    expect(hash160(secp256k1.getPublicKey(ONE, false))).toEqual(
      base58checkDecode(uncompressedAddr)?.slice(1),
    );
    const btc = verifySignedMessage(
      BTC,
      uncompressedAddr,
      VIRES,
      'HF8nHqFr3K2UKYahhX3soVeoW8W1ECNbr0wfck7lzyXjCS5Q16Ek45zyBuy1Fiy9sTPKVgsqqOuPvbycuVSSVl8=',
    );
    expect(btc).toMatchObject({ ok: true, addressType: 'p2pkh' });
    if (btc.ok) expect(btc.pubkey).toEqual(secp256k1.getPublicKey(ONE, false));
    // Dogecoin ("supports alternative networks"); the fixture gives no address, so derive it.
    const dogeUncompressedAddr = base58checkEncode(
      Uint8Array.of(DOGE.p2pkh, ...hash160(secp256k1.getPublicKey(ONE, false))),
    );
    const doge = verifySignedMessage(
      DOGE,
      dogeUncompressedAddr,
      VIRES,
      'G6k+dZwJ8oOei3PCSpdj603fDvhlhQ+sqaFNIDvo/bI+Xh6zyIKGzZpyud6YhZ1a5mcrwMVtTWL+VXq/hC5Zj7s=',
    );
    expect(doge).toMatchObject({ ok: true, addressType: 'p2pkh' });
  });

  it('bitcoinjs-message verify fixtures (BTC P2PKH ×2, P2SH-P2WPKH, P2WPKH; DOGE)', () => {
    const cases: [MessageCoinParams, string, string, MessageAddressType][] = [
      [
        BTC,
        '16UwLL9Risc3QfPqBUvKofHmBQ7wMtjvM',
        'G8JawPtQOrybrSP1WHQnQPr67B9S3qrxBrl1mlzoTJOSHEpmnF7D3+t+LX0Xei9J20B5AIdPbeL3AaTBZ4N3bY0=',
        'p2pkh',
      ],
      [
        BTC,
        '1PMycacnJaSqwwJqjawXBErnLsZ7RkXUAs',
        'H8JawPtQOrybrSP1WHQnQPr67B9S3qrxBrl1mlzoTJOSHEpmnF7D3+t+LX0Xei9J20B5AIdPbeL3AaTBZ4N3bY0=',
        'p2pkh',
      ],
      [
        BTC,
        '3JvL6Ymt8MVWiCNHC7oWU6nLeHNJKLZGLN',
        'JF8nHqFr3K2UKYahhX3soVeoW8W1ECNbr0wfck7lzyXjCS5Q16Ek45zyBuy1Fiy9sTPKVgsqqOuPvbycuVSSVl8=',
        'p2sh-p2wpkh',
      ],
      [
        BTC,
        'bc1qw508d6qejxtdg4y5r3zarvary0c5xw7kv8f3t4',
        'KF8nHqFr3K2UKYahhX3soVeoW8W1ECNbr0wfck7lzyXjCS5Q16Ek45zyBuy1Fiy9sTPKVgsqqOuPvbycuVSSVl8=',
        'p2wpkh',
      ],
      [
        DOGE,
        'DFpN6QqFfUm3gKNaxN6tNcab1FArL9cZLE',
        'H6k+dZwJ8oOei3PCSpdj603fDvhlhQ+sqaFNIDvo/bI+Xh6zyIKGzZpyud6YhZ1a5mcrwMVtTWL+VXq/hC5Zj7s=',
        'p2pkh',
      ],
    ];
    for (const [params, addr, sig, type] of cases) {
      expect(verifySignedMessage(params, addr, VIRES, sig), addr).toMatchObject({
        ok: true,
        addressType: type,
      });
    }
  });

  it('bitcoinjs-message invalid.verify fixtures → ADDRESS_MISMATCH', () => {
    const uncompressedSig =
      'G8JawPtQOrybrSP1WHQnQPr67B9S3qrxBrl1mlzoTJOSHEpmnF7D3+t+LX0Xei9J20B5AIdPbeL3AaTBZ4N3bY0=';
    const compressedSig =
      'H8JawPtQOrybrSP1WHQnQPr67B9S3qrxBrl1mlzoTJOSHEpmnF7D3+t+LX0Xei9J20B5AIdPbeL3AaTBZ4N3bY0=';
    const cases: [string, string, string][] = [
      ['foobar', '16UwLL9Risc3QfPqBUvKofHmBQ7wMtjvM', uncompressedSig], // wrong message
      [VIRES, '1111111111111111111114oLvT2', compressedSig], // wrong address
      [VIRES, '16UwLL9Risc3QfPqBUvKofHmBQ7wMtjvM', compressedSig], // uncompressed addr, compressed sig
      [VIRES, '1PMycacnJaSqwwJqjawXBErnLsZ7RkXUAs', uncompressedSig], // compressed addr, uncompressed sig
    ];
    for (const [msg, addr, sig] of cases) {
      expect(codeOf(verifySignedMessage(BTC, addr, msg, sig)), `${addr} ${msg}`).toBe('ADDRESS_MISMATCH');
    }
  });
});
