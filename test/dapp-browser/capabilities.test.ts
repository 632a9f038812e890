import { describe, expect, it } from 'vitest';
import { CHAIN_METHODS, capabilitiesFor, chainSupports } from '../../src/dapp-browser/capabilities.ts';
import { KIT_TICKERS_AND_SOL } from '../../src/crypto/chains.ts';
import { METHODS } from '../../src/provider/protocol.ts';

describe('capability map', () => {
  it('lists, per held chain, the methods that work for it', () => {
    expect(capabilitiesFor(['LTC', 'DOGE', 'LKY', 'SOL'], { identityOrigin: false })).toEqual({
      LTC: { methods: ['id_signMessage'] },
      DOGE: { methods: [] },
      LKY: { methods: ['wallet_getBalance', 'wallet_sendTransaction'] },
      SOL: { methods: ['wallet_signMessage', 'wallet_signTransaction'] },
    });
  });

  it('adds id_connect for the identity origin only', () => {
    expect(capabilitiesFor(['LTC'], { identityOrigin: true })).toEqual({
      LTC: { methods: ['id_signMessage', 'id_connect'] },
    });
  });

  it('omits chains that are not held (nothing asked = nothing listed)', () => {
    expect(capabilitiesFor([], { identityOrigin: false })).toEqual({});
  });

  it('names only protocol methods and kit tickers; wallet_connect is not per chain', () => {
    for (const [ticker, methods] of Object.entries(CHAIN_METHODS)) {
      expect(KIT_TICKERS_AND_SOL).toContain(ticker);
      for (const m of methods) expect(METHODS).toContain(m);
      expect(methods).not.toContain('wallet_connect');
    }
  });

  it('chainSupports: balance and sends are LKY only, Solana signing SOL only', () => {
    expect(chainSupports('LKY', 'wallet_getBalance')).toBe(true);
    expect(chainSupports('DOGE', 'wallet_getBalance')).toBe(false);
    expect(chainSupports('LTC', 'wallet_sendTransaction')).toBe(false);
    expect(chainSupports('SOL', 'wallet_signTransaction')).toBe(true);
    expect(chainSupports('LKY', 'wallet_signMessage')).toBe(false);
    expect(chainSupports('PEP', 'id_signMessage')).toBe(false);
  });
});
