import { ed25519 } from '@noble/curves/ed25519.js';
import { secp256k1 } from '@noble/curves/secp256k1.js';
import { bytesToHex } from '@noble/hashes/utils.js';
import { base58 } from '@scure/base';
import { describe, expect, it } from 'vitest';
import { parseAddress } from '../../src/crypto/address.ts';
import { CHAINS, KIT_TICKERS, KIT_TICKERS_AND_SOL } from '../../src/crypto/chains.ts';
import { verifySignedMessage } from '../../src/crypto/signed-message.ts';
import { DEFAULT_DEV_SEED, DevWallet, devSecret, parseCoins } from '../../src/dapp-browser/dev-wallet.ts';

describe('development wallet keys', () => {
  it('are deterministic: the same seed gives the same accounts, another seed others', () => {
    const a = new DevWallet('seed one', KIT_TICKERS_AND_SOL);
    const b = new DevWallet('seed one', KIT_TICKERS_AND_SOL);
    const c = new DevWallet('seed two', KIT_TICKERS_AND_SOL);
    expect(a.accounts()).toEqual(b.accounts());
    for (const t of KIT_TICKERS_AND_SOL) {
      expect(c.account(t)?.address).not.toBe(a.account(t)?.address);
      expect(bytesToHex(devSecret('seed one', t))).toBe(bytesToHex(devSecret('seed one', t)));
    }
  });

  it('differ per coin and do not depend on which other coins are held', () => {
    const secrets = new Set(KIT_TICKERS_AND_SOL.map((t) => bytesToHex(devSecret(DEFAULT_DEV_SEED, t))));
    expect(secrets.size).toBe(KIT_TICKERS_AND_SOL.length);
    const all = new DevWallet(DEFAULT_DEV_SEED, KIT_TICKERS_AND_SOL);
    const some = new DevWallet(DEFAULT_DEV_SEED, ['SOL', 'LKY']);
    expect(some.accounts()).toEqual([all.account('SOL'), all.account('LKY')]);
  });

  it('pins the default seed accounts (a derivation change is a visible, deliberate change)', () => {
    const w = new DevWallet(DEFAULT_DEV_SEED, ['LTC', 'DOGE', 'LKY', 'SOL']);
    const secret = (t: string) => devSecret(DEFAULT_DEV_SEED, t);
    expect(w.account('SOL')?.address).toBe(base58.encode(ed25519.getPublicKey(secret('SOL'))));
    expect(w.account('LTC')?.publicKey).toBe(bytesToHex(secp256k1.getPublicKey(secret('LTC'), true)));
    expect(w.accounts().map((a) => a.address)).toMatchInlineSnapshot(`
      [
        "LPJfNa5qcMUnjZBreFjUYiTsfjVM7hRzDd",
        "DFnBtxHypj6yX8vZK66MoB2sHmu4CHj9x5",
        "Kz84HsiBbx7zfTHvX7DB15ptJua4hka2Fd",
        "33nrLB2LMSrhEsffcgxQnDTjVownYRDkeyxGm8u4Wuvf",
      ]
    `);
  });

  it('gives each UTXO coin a valid mainnet P2PKH address of its own chain, and SOL a 32-byte key', () => {
    const w = new DevWallet(DEFAULT_DEV_SEED, KIT_TICKERS_AND_SOL);
    for (const t of KIT_TICKERS) {
      const params = CHAINS[t]?.mainnet;
      if (!params) throw new Error(t);
      const a = w.account(t);
      expect(parseAddress(a?.address ?? '', params)?.type, t).toBe('p2pkh');
      expect(a?.publicKey).toMatch(/^0[23][0-9a-f]{64}$/);
    }
    const sol = w.account('SOL');
    expect(base58.decode(sol?.address ?? '')).toHaveLength(32);
    expect(sol?.publicKey).toBe(sol?.address);
  });

  it('signs: BIP-137 messages that verify for the coin, ed25519 that verifies for SOL', () => {
    const w = new DevWallet('x', ['LTC', 'DOGE', 'SOL']);
    for (const t of ['LTC', 'DOGE']) {
      const params = CHAINS[t]?.mainnet;
      if (!params) throw new Error(t);
      const sig = w.signMessage(t, 'hello');
      expect(verifySignedMessage(params, w.account(t)?.address ?? '', 'hello', sig)).toMatchObject({
        ok: true,
      });
    }
    const bytes = new TextEncoder().encode('hello');
    const sig = base58.decode(w.signSolana(bytes));
    expect(ed25519.verify(sig, bytes, base58.decode(w.account('SOL')?.publicKey ?? ''))).toBe(true);
    expect(() => w.signMessage('LKY', 'x')).toThrow('no LKY wallet');
    expect(() => new DevWallet('x', ['LTC']).signSolana(bytes)).toThrow('no SOL wallet');
  });

  it('never shows a private key: JSON has the public accounts only', () => {
    const w = new DevWallet('x', ['LTC', 'SOL']);
    const json = JSON.stringify({ w });
    expect(JSON.parse(json)).toEqual({ w: w.accounts() });
    for (const t of ['LTC', 'SOL']) expect(json).not.toContain(bytesToHex(devSecret('x', t)));
    expect(Object.keys(w)).toEqual([]);
  });

  it('parseCoins: known tickers, any case, duplicates dropped; unknown or none is an error', () => {
    expect(parseCoins('ltc, DOGE,,sol,LTC')).toEqual(['LTC', 'DOGE', 'SOL']);
    expect(() => parseCoins('LTC,ETH')).toThrow('unknown coin ETH');
    expect(() => parseCoins(' , ')).toThrow('at least one coin');
  });
});
