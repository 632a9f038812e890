/**
 * Litecoin Core as an oracle for our message signatures (src/crypto/signed-message.ts): a throwaway
 * `litecoind -regtest` signs and verifies, and we check that its answers and ours agree — both ways, on
 * tampered input, and for the address types Core does not sign (see docs/signatures.md, "Checked against
 * Litecoin Core").
 */
import { randomBytes } from 'node:crypto';
import { base64, hex } from '@scure/base';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { challengeText } from '../../src/accounts/challenge.ts';
import { base58checkDecode, base58checkEncode } from '../../src/crypto/address.ts';
import { CHAINS } from '../../src/crypto/chains.ts';
import type { MessageCoinParams } from '../../src/crypto/coins.ts';
import type { MessageAddressType } from '../../src/crypto/signed-message.ts';
import { addressOf, signMessage, verifySignedMessage } from '../../src/crypto/signed-message.ts';
import type { Litecoind } from '../support/litecoind.ts';
import { startLitecoind } from '../support/litecoind.ts';

const testnet = CHAINS.LTC?.testnet;
if (!testnet?.wif) throw new Error('chains.ts has no LTC testnet entry with a WIF version');
const WIF_VERSION = testnet.wif;

/**
 * Litecoin regtest = testnet's message prefix and Base58 versions (p2pkh 111, p2sh [58, 196]; Litecoin's
 * chainparams.cpp CRegTestParams copies CTestNetParams) but its own bech32 HRP, `rltc` instead of `tltc`.
 * chains.ts models only mainnet and testnet, so the regtest record is built here from the testnet one.
 */
const REGTEST: MessageCoinParams = {
  ticker: 'rLTC',
  messagePrefix: testnet.messagePrefix,
  p2pkh: testnet.p2pkh,
  p2sh: testnet.p2sh,
  bech32Hrp: 'rltc',
};

/** `getnewaddress` address types, by our name for them. */
const CORE_TYPE: Record<MessageAddressType, string> = {
  p2pkh: 'legacy',
  'p2sh-p2wpkh': 'p2sh-segwit',
  p2wpkh: 'bech32',
};

const challenge = challengeText({
  domain: '127.0.0.1:4000',
  address: 'ltc1qw508d6qejxtdg4y5r3zarvary0c5xw7kgmn4n9',
  uri: 'http://127.0.0.1:4000',
  nonce: '0f3c9a4e5b6d7e8f90a1b2c3d4e5f607',
  issuedAt: Date.UTC(2026, 0, 1, 12, 0, 0),
  expiresAt: Date.UTC(2026, 0, 1, 12, 5, 0),
});

/** A sign-in challenge (multi-line, > 252 bytes: 3-byte CompactSize), UTF-8 text, a short and an empty one. */
const MESSAGES: readonly string[] = [challenge, 'Grüße aus Łódź — 日本語のメッセージ ✓ 🚀', 'x', ''];

type RpcAnswer<T> = { result: T; error: null } | { result: null; error: { code: number; message: string } };

let node: Litecoind;

/**
 * One call, keeping the node's error code (the support helper's `rpc` keeps only the message). Wallet
 * methods reach the test's wallet because it is the only one loaded.
 */
async function call<T = unknown>(method: string, params: unknown[]): Promise<RpcAnswer<T>> {
  return JSON.parse(await node.rpcText(method, params)) as RpcAnswer<T>;
}

async function ok<T>(method: string, params: unknown[]): Promise<T> {
  const a = await call<T>(method, params);
  if (a.error) throw new Error(`${method}: ${a.error.code} ${a.error.message}`);
  return a.result;
}

/** Core's `verifymessage` answer; an RPC error fails the test, so `false` is a real "does not verify". */
async function coreVerifies(address: string, signature: string, message: string): Promise<boolean> {
  return ok<boolean>('verifymessage', [address, signature, message]);
}

/** The 32-byte key of a compressed-key WIF (version ‖ key ‖ 0x01), checked against chains.ts' version. */
function decodeWif(wif: string): Uint8Array {
  const payload = base58checkDecode(wif);
  if (!payload || payload.length !== 34 || payload[0] !== WIF_VERSION || payload[33] !== 0x01) {
    throw new Error(`not a compressed-key testnet WIF: ${wif}`);
  }
  return payload.slice(1, 33);
}

/** Compressed-key testnet/regtest WIF of `key` (for `signmessagewithprivkey`). */
function encodeWif(key: Uint8Array): string {
  return base58checkEncode(Uint8Array.of(WIF_VERSION, ...key, 0x01));
}

/** A new wallet address of `type` and its private key. */
async function walletKey(type: MessageAddressType): Promise<{ address: string; key: Uint8Array }> {
  const address = await ok<string>('getnewaddress', ['', CORE_TYPE[type]]);
  return { address, key: decodeWif(await ok<string>('dumpprivkey', [address])) };
}

/** `sig` with byte `i` XOR `mask`, re-encoded. */
function flip(sig: string, i: number, mask = 0x01): string {
  const b = base64.decode(sig);
  b[i] = (b[i] as number) ^ mask;
  return base64.encode(b);
}

/** `sig` (header 31–34) with recovery id 0 ↔ 1 or 2 ↔ 3: the same r, the other y. */
function otherRecoveryId(sig: string): string {
  const b = base64.decode(sig);
  b[0] = 31 + (((b[0] as number) - 31) ^ 1);
  return base64.encode(b);
}

/** `message` with its first character replaced (an empty message gets one). */
function tamper(message: string): string {
  return message === '' ? ' ' : (message[0] === 'a' ? 'b' : 'a') + message.slice(1);
}

beforeAll(async () => {
  node = await startLitecoind();
  // Litecoin Core 0.21 creates a legacy (non-descriptor) wallet: `dumpprivkey` works.
  await ok('createwallet', ['oracle']);
});
afterAll(async () => {
  await node?.stop();
});

describe('Litecoin Core (regtest) as an oracle for signed messages', () => {
  it('our regtest parameters derive the node’s addresses for all three types', async () => {
    for (const type of ['p2pkh', 'p2sh-p2wpkh', 'p2wpkh'] as const) {
      const { address, key } = await walletKey(type);
      expect(addressOf(REGTEST, key, type), type).toBe(address);
    }
  });

  it('signatures made by the node’s wallet verify with ours', async () => {
    const { address } = await walletKey('p2pkh');
    const info = await ok<{ pubkey: string }>('getaddressinfo', [address]);
    for (const message of MESSAGES) {
      const sig = await ok<string>('signmessage', [address, message]);
      const ours = verifySignedMessage(REGTEST, address, message, sig);
      expect(ours, JSON.stringify(message)).toMatchObject({ ok: true, addressType: 'p2pkh' });
      if (ours.ok) expect(hex.encode(ours.pubkey)).toBe(info.pubkey);
    }
  });

  it('signatures made by ours verify with the node (a fresh key)', async () => {
    const key = randomBytes(32);
    const address = addressOf(REGTEST, key, 'p2pkh');
    for (const message of MESSAGES) {
      const sig = signMessage(REGTEST, key, message, 'p2pkh');
      expect(await coreVerifies(address, sig, message), JSON.stringify(message)).toBe(true);
      // The node signs the same bytes for the same key (RFC 6979 nonce on both sides).
      expect(await ok('signmessagewithprivkey', [encodeWif(key), message])).toBe(sig);
    }
  });

  it('for a key of the node’s wallet, ours verify with the node and are byte-identical to its own', async () => {
    const { address, key } = await walletKey('p2pkh');
    for (const message of MESSAGES) {
      const sig = signMessage(REGTEST, key, message, 'p2pkh');
      expect(await coreVerifies(address, sig, message), JSON.stringify(message)).toBe(true);
      expect(sig, JSON.stringify(message)).toBe(await ok<string>('signmessage', [address, message]));
    }
  });

  it('tampered input fails in both', async () => {
    const { address } = await walletKey('p2pkh');
    const other = (await walletKey('p2pkh')).address;
    const rejected = async (
      addr: string,
      message: string,
      sig: string,
      code: 'BAD_SIGNATURE' | 'ADDRESS_MISMATCH' | 'MALFORMED_SIGNATURE',
    ) => {
      const what = JSON.stringify({ addr, message: message.slice(0, 20), sig });
      expect(verifySignedMessage(REGTEST, addr, message, sig), what).toMatchObject({ ok: false, code });
      expect(await coreVerifies(addr, sig, message), what).toBe(false);
    };
    for (const message of MESSAGES) {
      const sig = await ok<string>('signmessage', [address, message]);
      // Control: untampered, both accept — so each rejection below is caused by its one change.
      expect(verifySignedMessage(REGTEST, address, message, sig).ok).toBe(true);
      expect(await coreVerifies(address, sig, message)).toBe(true);
      // A changed message (or another address, or a changed s) still recovers a key — just not this one.
      await rejected(address, tamper(message), sig, 'ADDRESS_MISMATCH');
      await rejected(other, message, sig, 'ADDRESS_MISMATCH');
      await rejected(address, message, flip(sig, 64), 'ADDRESS_MISMATCH');
      await rejected(address, message, flip(sig, 40, 0x80), 'ADDRESS_MISMATCH');
      // The other recovery id picks the other point with x = r: another key.
      await rejected(address, message, otherRecoveryId(sig), 'ADDRESS_MISMATCH');
      // A changed r: another key, or (about half the time) no curve point with that x.
      const rFlipped = flip(sig, 32);
      const r = verifySignedMessage(REGTEST, address, message, rFlipped);
      expect(r.ok ? 'ok' : r.code).toMatch(/^(BAD_SIGNATURE|ADDRESS_MISMATCH)$/);
      expect(await coreVerifies(address, rFlipped, message)).toBe(false);
      // r ≥ n: no key at all. Core fails to parse it and answers false as well.
      const big = base64.decode(sig);
      big.fill(0xff, 1, 33);
      await rejected(address, message, base64.encode(big), 'BAD_SIGNATURE');
      // Valid base64 of 64 bytes: ours rejects the length, Core fails recovery and answers false.
      await rejected(
        address,
        message,
        base64.encode(base64.decode(sig).subarray(0, 64)),
        'MALFORMED_SIGNATURE',
      );
    }
    // A mainnet address (wrong network): ours MALFORMED_ADDRESS, Core RPC error -3.
    const sig = await ok<string>('signmessage', [address, 'x']);
    const mainnet = CHAINS.LTC?.mainnet;
    if (!mainnet) throw new Error('chains.ts has no LTC mainnet entry');
    const foreign = addressOf(mainnet, randomBytes(32), 'p2pkh');
    expect(verifySignedMessage(REGTEST, foreign, 'x', sig)).toMatchObject({
      ok: false,
      code: 'MALFORMED_ADDRESS',
    });
    expect((await call('verifymessage', [foreign, sig, 'x'])).error).toEqual({
      code: -3,
      message: 'Invalid address',
    });
    // Not base64 at all: ours MALFORMED_SIGNATURE, Core RPC error -5.
    expect(verifySignedMessage(REGTEST, address, 'x', 'not base64!')).toMatchObject({
      ok: false,
      code: 'MALFORMED_SIGNATURE',
    });
    expect((await call('verifymessage', [address, 'not base64!', 'x'])).error).toEqual({
      code: -5,
      message: 'Malformed base64 encoding',
    });
  });

  it('Core reads header 39–42 as “compressed P2PKH”; ours rejects it for a P2PKH address', async () => {
    // Core's RecoverCompact takes recid = (h − 27) & 3 and compressed = (h − 27) & 4, with no range per
    // address type. So a BIP137 P2WPKH signature (header 39 + recid) also verifies for the key's legacy
    // address in Core, and a P2SH-P2WPKH one (35 + recid) is read as an uncompressed-key signature.
    const { address, key } = await walletKey('p2pkh');
    const message = MESSAGES[0] as string;
    const p2wpkhSig = signMessage(REGTEST, key, message, 'p2wpkh');
    const p2shSig = signMessage(REGTEST, key, message, 'p2sh-p2wpkh');
    expect(await coreVerifies(address, p2wpkhSig, message)).toBe(true);
    expect(await coreVerifies(address, p2shSig, message)).toBe(false);
    for (const sig of [p2wpkhSig, p2shSig]) {
      expect(verifySignedMessage(REGTEST, address, message, sig)).toMatchObject({
        ok: false,
        code: 'ADDRESS_MISMATCH',
      });
    }
  });

  it('the node signs and verifies legacy addresses only; segwit ones are checked by us alone', async () => {
    for (const type of ['p2sh-p2wpkh', 'p2wpkh'] as const) {
      const { address, key } = await walletKey(type);
      for (const message of MESSAGES) {
        expect((await call('signmessage', [address, message])).error, type).toEqual({
          code: -3,
          message: 'Address does not refer to key',
        });
        // Our BIP137 signature (header 35/39 + recid) for the node's own address.
        const sig = signMessage(REGTEST, key, message, type);
        expect(verifySignedMessage(REGTEST, address, message, sig), type).toMatchObject({
          ok: true,
          addressType: type,
        });
        expect(verifySignedMessage(REGTEST, address, tamper(message), sig), type).toMatchObject({
          ok: false,
          code: 'ADDRESS_MISMATCH',
        });
        expect((await call('verifymessage', [address, sig, message])).error, type).toEqual({
          code: -3,
          message: 'Address does not refer to key',
        });
        // Electrum convention: the node's signature for the same key (header 31–34) is accepted too.
        const coreSig = await ok<string>('signmessagewithprivkey', [encodeWif(key), message]);
        expect(verifySignedMessage(REGTEST, address, message, coreSig), type).toMatchObject({
          ok: true,
          addressType: type,
        });
      }
    }
  });
});
