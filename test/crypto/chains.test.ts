import { sha256 } from '@noble/hashes/sha2.js';
import { describe, expect, it } from 'vitest';
import { parseAddress } from '../../src/crypto/address.ts';
import {
  CHAINS,
  KIT_TICKERS,
  KIT_TICKERS_AND_SOL,
  messageParams,
  UNVERIFIED_MESSAGE_MAGIC,
} from '../../src/crypto/chains.ts';
import type { Network } from '../../src/crypto/chains.ts';
import { LTC } from '../../src/crypto/coins.ts';
import { addressOf, signMessage, verifySignedMessage } from '../../src/crypto/signed-message.ts';

const NETWORKS: Network[] = ['mainnet', 'testnet'];
const KEY = sha256(new TextEncoder().encode('coinwallet chains test key'));

/** Expected strMessageMagic / MESSAGE_MAGIC per coin (sources in src/crypto/chains.ts). */
const MAGIC: Record<string, string> = {
  LTC: 'Litecoin Signed Message:\n',
  DOGE: 'Dogecoin Signed Message:\n',
  DGB: 'DigiByte Signed Message:\n',
  LKY: 'Dogecoin Signed Message:\n', // luckycoin_1.14.3 kept Dogecoin's magic
  PEP: 'Pepecoin Signed Message:\n',
  BELLS: 'Bells Signed Message:\n',
  DINGO: 'Dingocoin Signed Message:\n',
  SHIC: 'Shibacoin Signed Message:\n',
  JKC: 'Junkcoin Signed Message:\n',
  CAT: 'Catcoin Signed Message:\n',
  FLOP: 'Flopcoin Signed Message:\n',
  FBX: 'Fairbrix Signed Message:\n',
  CRC: 'CraftCoin Signed Message:\n',
  BQC: 'BBQcoin Signed Message:\n',
  BONK: 'Boncoin Signed Message:\n', // sic, as in Bonkcoin Core
  EAC: 'Earthcoin Signed Message:\n',
  NYC: 'NewYorkCoin Signed Message:\n',
  CY: 'Cyberyen Signed Message:\n',
  B1T: 'Bit Signed Message:\n',
};

describe('ticker lists', () => {
  it('has the 19 kit tickers + SOL', () => {
    expect(KIT_TICKERS).toHaveLength(19);
    expect(KIT_TICKERS_AND_SOL).toEqual([...KIT_TICKERS, 'SOL']);
    expect(Object.keys(CHAINS).sort()).toEqual([...KIT_TICKERS].sort());
    expect(Object.keys(MAGIC).sort()).toEqual([...KIT_TICKERS].sort());
  });
});

describe('CHAINS table', () => {
  it('LTC mainnet equals coins.ts LTC', () => {
    const p = CHAINS.LTC!.mainnet;
    expect(p.ticker).toBe(LTC.ticker);
    expect(p.messagePrefix).toBe(LTC.messagePrefix);
    expect(p.p2pkh).toBe(LTC.p2pkh);
    expect(p.p2sh).toEqual(LTC.p2sh);
    expect(p.bech32Hrp).toBe(LTC.bech32Hrp);
    expect(p.slip44).toBe(2);
    expect(p.wif).toBe(176);
  });

  it.each(KIT_TICKERS)('%s entries are well-formed', (t) => {
    for (const network of NETWORKS) {
      const p = CHAINS[t]![network];
      expect(p.ticker).toBe(t);
      expect(p.network).toBe(network);
      expect(p.name.length).toBeGreaterThan(0);
      for (const v of [p.p2pkh, ...p.p2sh]) expect(Number.isInteger(v) && v >= 0 && v <= 255).toBe(true);
      expect(p.p2sh.length).toBeGreaterThan(0);
      expect(new Set(p.p2sh).size).toBe(p.p2sh.length);
      expect(p.p2sh).not.toContain(p.p2pkh);
      if (p.bech32Hrp !== null) expect(p.bech32Hrp).toMatch(/^[a-z0-9]+$/);
      if (p.wif !== null) expect(p.wif >= 0 && p.wif <= 255).toBe(true);
      // One-byte CompactSize length prefix, as every Core fork serialises it.
      expect(p.messagePrefix.length).toBeLessThan(0xfd);
      expect(p.messagePrefix.endsWith(' Signed Message:\n')).toBe(true);
      if (network === 'testnet') expect(p.slip44).toBe(1);
      expect(Object.isFrozen(p)).toBe(true);
    }
  });

  it('bech32 HRPs are distinct and only where wallet.md has one', () => {
    const hrps = KIT_TICKERS.flatMap((t) => NETWORKS.map((n) => CHAINS[t]![n].bech32Hrp)).filter(
      (h): h is string => h !== null,
    );
    expect(new Set(hrps).size).toBe(hrps.length);
    expect(KIT_TICKERS.filter((t) => CHAINS[t]!.mainnet.bech32Hrp !== null)).toEqual([
      'LTC',
      'DGB',
      'BELLS',
      'CAT',
      'EAC',
      'CY',
    ]);
    expect(CHAINS.DOGE!.mainnet.bech32Hrp).toBeNull();
  });

  it('records the wallet.md §5.4 collisions', () => {
    expect(['DOGE', 'DGB', 'DINGO'].map((t) => CHAINS[t]!.mainnet.p2pkh)).toEqual([30, 30, 30]);
    expect(CHAINS.BELLS!.mainnet.p2sh).toContain(30);
    expect(CHAINS.LTC!.mainnet.p2pkh).toBe(48);
    expect(CHAINS.LKY!.mainnet.p2pkh).toBe(47);
    expect(CHAINS.CY!.mainnet.p2pkh).toBe(CHAINS.BONK!.mainnet.p2sh[0]);
    expect(CHAINS.SHIC!.mainnet.p2pkh).toBe(CHAINS.DGB!.mainnet.p2sh[0]);
  });
});

describe('messageParams', () => {
  it.each(KIT_TICKERS)('%s returns its message magic on both networks', (t) => {
    for (const network of NETWORKS) {
      const p = messageParams(t, network);
      expect(p?.messagePrefix).toBe(MAGIC[t]);
      expect(p?.network).toBe(network);
    }
    expect(messageParams(t)).toBe(CHAINS[t]!.mainnet);
    expect(messageParams(t.toLowerCase())).toBe(CHAINS[t]!.mainnet);
  });

  it('is null for SOL and unknown assets', () => {
    expect(messageParams('SOL')).toBeNull();
    expect(messageParams('BTC')).toBeNull();
    expect(messageParams('')).toBeNull();
    expect(messageParams('toString')).toBeNull();
    expect(messageParams('__proto__')).toBeNull();
  });

  it('lists the unverified magics', () => {
    expect([...UNVERIFIED_MESSAGE_MAGIC].sort()).toEqual(['BQC', 'CAT', 'DGB']);
  });
});

describe('signMessage / verifySignedMessage with chain params', () => {
  const DOGE = messageParams('DOGE')!;

  it('round-trips with DOGE params (P2PKH and P2SH-P2WPKH)', () => {
    const msg = 'coinwallet proof: alice.doge';
    const addr = addressOf(DOGE, KEY, 'p2pkh');
    expect(addr.startsWith('D')).toBe(true);
    const sig = signMessage(DOGE, KEY, msg);
    expect(verifySignedMessage(DOGE, addr, msg, sig)).toMatchObject({ ok: true, addressType: 'p2pkh' });
    expect(verifySignedMessage(DOGE, addr, `${msg}!`, sig).ok).toBe(false);

    const sh = addressOf(DOGE, KEY, 'p2sh-p2wpkh');
    expect(sh[0]).toMatch(/[9A]/);
    const shSig = signMessage(DOGE, KEY, msg, 'p2sh-p2wpkh');
    expect(verifySignedMessage(DOGE, sh, msg, shSig)).toMatchObject({ ok: true, addressType: 'p2sh-p2wpkh' });
  });

  it('the magic matters: a DOGE signature does not verify as DINGO for the same D… address', () => {
    const DINGO = messageParams('DINGO')!;
    const msg = 'hello';
    const addr = addressOf(DOGE, KEY, 'p2pkh');
    expect(addressOf(DINGO, KEY, 'p2pkh')).toBe(addr); // same version byte 30
    const sig = signMessage(DOGE, KEY, msg);
    expect(verifySignedMessage(DINGO, addr, msg, sig).ok).toBe(false);
    expect(verifySignedMessage(DINGO, addr, msg, signMessage(DINGO, KEY, msg)).ok).toBe(true);
  });

  it.each(KIT_TICKERS)('%s: P2PKH round-trip on mainnet and testnet', (t) => {
    for (const network of NETWORKS) {
      const p = messageParams(t, network)!;
      const addr = addressOf(p, KEY, 'p2pkh');
      expect(parseAddress(addr, p)?.type).toBe('p2pkh');
      expect(verifySignedMessage(p, addr, 'm', signMessage(p, KEY, 'm')).ok).toBe(true);
      if (p.bech32Hrp !== null) {
        const w = addressOf(p, KEY, 'p2wpkh');
        expect(w.startsWith(`${p.bech32Hrp}1`)).toBe(true);
        expect(verifySignedMessage(p, w, 'm', signMessage(p, KEY, 'm', 'p2wpkh')).ok).toBe(true);
      }
    }
  });
});
