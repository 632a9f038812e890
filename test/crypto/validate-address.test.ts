import { ed25519 } from '@noble/curves/ed25519.js';
import { sha256 } from '@noble/hashes/sha2.js';
import { base58, bech32, bech32m, hex } from '@scure/base';
import { describe, expect, it } from 'vitest';
import { base58checkEncode, encodeP2pkh, encodeP2sh, encodeSegwitV0 } from '../../src/crypto/address.ts';
import { CHAINS, KIT_TICKERS } from '../../src/crypto/chains.ts';
import type { ChainParams, Network } from '../../src/crypto/chains.ts';
import { validateAddress } from '../../src/crypto/validate-address.ts';

const H20 = Uint8Array.from({ length: 20 }, (_, i) => i + 1);
const H32 = Uint8Array.from({ length: 32 }, (_, i) => 0xa0 + i);
const other = (n: Network): Network => (n === 'mainnet' ? 'testnet' : 'mainnet');
const versionsOf = (p: ChainParams): number[] => [p.p2pkh, ...p.p2sh];

function expectOk(asset: string, addr: string, kind: string, network: Network = 'mainnet'): void {
  const canonical = kind === 'p2wpkh' || kind === 'p2wsh' || kind === 'p2tr' ? addr.toLowerCase() : addr;
  expect(validateAddress(asset, addr, network)).toEqual({ ok: true, address: canonical, kind });
}

function codeOf(asset: string, addr: string, network: Network = 'mainnet'): string {
  const r = validateAddress(asset, addr, network);
  return r.ok ? 'OK' : r.code;
}

function messageOf(asset: string, addr: string, network: Network = 'mainnet'): string {
  const r = validateAddress(asset, addr, network);
  if (r.ok) throw new Error(`expected failure for ${addr}`);
  return r.message;
}

const v1 = (hrp: string, program: Uint8Array): string =>
  bech32m.encode(hrp, [1, ...bech32m.toWords(program)]);

describe('Base58Check P2PKH / P2SH for every coin', () => {
  it.each(KIT_TICKERS)('%s accepts its own mainnet and testnet P2PKH and every P2SH version', (t) => {
    for (const network of ['mainnet', 'testnet'] as const) {
      const p = CHAINS[t]![network];
      expectOk(t, encodeP2pkh(H20, p), 'p2pkh', network);
      for (const v of p.p2sh) expectOk(t, encodeP2sh(H20, p, v), 'p2sh', network);
    }
  });

  it.each(KIT_TICKERS)(
    '%s: the other network’s form is WRONG_NETWORK (unless the version is shared)',
    (t) => {
      for (const network of ['mainnet', 'testnet'] as const) {
        const asked = CHAINS[t]![network];
        const foreign = CHAINS[t]![other(network)];
        for (const v of versionsOf(foreign)) {
          const addr = base58checkEncode(Uint8Array.of(v, ...H20));
          if (versionsOf(asked).includes(v)) {
            // e.g. JKC and CRC use P2SH version 5 on both networks: valid on both.
            expect(codeOf(t, addr, network)).toBe('OK');
            continue;
          }
          const r = validateAddress(t, addr, network);
          expect(r).toMatchObject({ ok: false, code: 'WRONG_NETWORK' });
          expect(messageOf(t, addr, network)).toContain(
            `is a ${other(network)} ${t} address; expected a ${network} ${t} address (`,
          );
        }
      }
    },
  );

  it('names both sides in the message', () => {
    const testnetLtc = encodeP2pkh(H20, CHAINS.LTC!.testnet);
    expect(validateAddress('LTC', testnetLtc)).toEqual({
      ok: false,
      code: 'WRONG_NETWORK',
      message: 'address is a testnet LTC address; expected a mainnet LTC address (L…, M…, 3… or ltc1…)',
    });
    const mainnetLtc = encodeP2pkh(H20, CHAINS.LTC!.mainnet);
    expect(messageOf('LTC', mainnetLtc, 'testnet')).toBe(
      'address is a mainnet LTC address; expected a testnet LTC address (m…, n…, Q…, 2… or tltc1…)',
    );
  });

  it('is case-insensitive on the ticker and rejects unsupported assets', () => {
    const addr = encodeP2pkh(H20, CHAINS.DOGE!.mainnet);
    expectOk('doge', addr, 'p2pkh');
    expectOk(' Doge ', addr, 'p2pkh');
    expect(codeOf('BTC', addr)).toBe('UNSUPPORTED_ASSET');
    expect(codeOf('', addr)).toBe('UNSUPPORTED_ASSET');
    expect(codeOf('__proto__', addr)).toBe('UNSUPPORTED_ASSET');
    expect(codeOf('LTC', addr, 'regtest' as Network)).toBe('UNSUPPORTED_ASSET');
  });
});

describe('cross-coin cases (wallet.md §5.4)', () => {
  const dogeAddr = encodeP2pkh(H20, CHAINS.DOGE!.mainnet);

  it('a D… address is valid for DOGE, DGB and DINGO alike', () => {
    for (const t of ['DOGE', 'DGB', 'DINGO']) expectOk(t, dogeAddr, 'p2pkh');
    // …and as BELLS P2SH (version 30 is BELLS' P2SH).
    expectOk('BELLS', dogeAddr, 'p2sh');
  });

  it('a DOGE address for LTC is WRONG_NETWORK naming the coins it belongs to', () => {
    expect(validateAddress('LTC', dogeAddr)).toEqual({
      ok: false,
      code: 'WRONG_NETWORK',
      message:
        'address is a mainnet DOGE, DGB, BELLS or DINGO address; expected a mainnet LTC address (L…, M…, 3… or ltc1…)',
    });
  });

  it('an LTC L… address for LKY (48 vs 47) is WRONG_NETWORK, and vice versa', () => {
    const ltc = encodeP2pkh(H20, CHAINS.LTC!.mainnet);
    const lky = encodeP2pkh(H20, CHAINS.LKY!.mainnet);
    expect(ltc[0]).toBe('L');
    expect(lky[0]).toMatch(/[KL]/);
    expect(codeOf('LKY', ltc)).toBe('WRONG_NETWORK');
    expect(messageOf('LKY', ltc)).toMatch(
      /^address is a mainnet LTC address; expected a mainnet LKY address \(K…, L… or 3…\)$/,
    );
    expect(codeOf('LTC', lky)).toBe('WRONG_NETWORK');
    expect(messageOf('LTC', lky)).toContain('mainnet LKY address');
  });

  it('a 3… (version 5) address is valid for LTC, DGB, LKY, JKC, FBX, CRC — and wrong for DOGE', () => {
    const p2sh5 = base58checkEncode(Uint8Array.of(5, ...H20));
    for (const t of ['LTC', 'DGB', 'LKY', 'JKC', 'FBX', 'CRC']) expectOk(t, p2sh5, 'p2sh');
    expect(codeOf('DOGE', p2sh5)).toBe('WRONG_NETWORK');
  });

  it('CY P2PKH (28) is BONK P2SH; SHIC P2PKH (63) is DGB P2SH', () => {
    const c = base58checkEncode(Uint8Array.of(28, ...H20));
    expectOk('CY', c, 'p2pkh');
    expectOk('BONK', c, 'p2sh');
    const s = base58checkEncode(Uint8Array.of(63, ...H20));
    expectOk('SHIC', s, 'p2pkh');
    expectOk('DGB', s, 'p2sh');
    expect(codeOf('PEP', s)).toBe('WRONG_NETWORK');
  });

  it('a testnet address of another coin is WRONG_NETWORK when nothing on the asked network claims it', () => {
    const b1tTestnet = encodeP2pkh(H20, CHAINS.B1T!.testnet); // version 65 'T'
    expect(messageOf('LTC', b1tTestnet)).toMatch(/^address is a testnet B1T address; expected a mainnet LTC/);
  });
});

describe('INVALID_ADDRESS', () => {
  const good = encodeP2pkh(H20, CHAINS.LTC!.mainnet);

  it('bad checksum', () => {
    const last = good[good.length - 1] === '1' ? '2' : '1';
    expect(codeOf('LTC', good.slice(0, -1) + last)).toBe('INVALID_ADDRESS');
  });

  it.each([
    ['empty', ''],
    ['garbage', 'not an address'],
    ['garbage base58', 'zzzzzzzz'],
    ['non-base58 chars', good.replace(/.$/, '0')],
    ['overlong', good + good + good],
    ['unicode', `Ł${good.slice(1)}`],
    ['emoji', '🐶'],
    ['leading space', ` ${good}`],
    ['trailing newline', `${good}\n`],
    ['zero-width space', `${good}\u200b`],
  ])('%s', (_name, addr) => {
    expect(codeOf('LTC', addr)).toBe('INVALID_ADDRESS');
  });

  it('rejects non-string input without throwing', () => {
    expect(codeOf('LTC', undefined as unknown as string)).toBe('INVALID_ADDRESS');
    expect(codeOf('LTC', 42 as unknown as string)).toBe('INVALID_ADDRESS');
  });

  it('wrong payload length (24 or 22 bytes) is invalid', () => {
    expect(codeOf('LTC', base58checkEncode(Uint8Array.of(48, ...H20, 0)))).toBe('INVALID_ADDRESS');
    expect(codeOf('LTC', base58checkEncode(Uint8Array.of(48, ...H20.slice(1))))).toBe('INVALID_ADDRESS');
  });

  it('a WIF private key is invalid with a warning', () => {
    const wif = base58checkEncode(Uint8Array.of(176, ...H32, 0x01));
    expect(codeOf('LTC', wif)).toBe('INVALID_ADDRESS');
    expect(messageOf('LTC', wif)).toContain('private key');
  });

  it('a version byte no listed coin uses is invalid', () => {
    expect(codeOf('LTC', base58checkEncode(Uint8Array.of(0, ...H20)))).toBe('INVALID_ADDRESS'); // Bitcoin 1…
  });
});

describe('bech32 / bech32m segwit addresses', () => {
  const SEGWIT = ['LTC', 'DGB', 'BELLS', 'EAC', 'CY', 'CAT'];

  it.each(SEGWIT)('%s: P2WPKH, P2WSH and P2TR with its own HRP on both networks', (t) => {
    for (const network of ['mainnet', 'testnet'] as const) {
      const hrp = CHAINS[t]![network].bech32Hrp!;
      expectOk(t, encodeSegwitV0(hrp, H20), 'p2wpkh', network);
      expectOk(t, encodeSegwitV0(hrp, H32), 'p2wsh', network);
      expectOk(t, v1(hrp, H32), 'p2tr', network);
    }
  });

  it.each(SEGWIT)('%s: upper case is accepted and lower-cased; mixed case is invalid', (t) => {
    const addr = encodeSegwitV0(CHAINS[t]!.mainnet.bech32Hrp!, H20);
    expect(validateAddress(t, addr.toUpperCase())).toEqual({ ok: true, address: addr, kind: 'p2wpkh' });
    const mixed = addr.slice(0, -1) + addr.slice(-1).toUpperCase();
    const mixed2 = addr[0]!.toUpperCase() + addr.slice(1);
    expect(codeOf(t, mixed === addr ? mixed2 : mixed)).toBe('INVALID_ADDRESS');
    expect(codeOf(t, mixed2)).toBe('INVALID_ADDRESS');
  });

  it.each(SEGWIT)('%s: the other network’s HRP is WRONG_NETWORK', (t) => {
    const test = encodeSegwitV0(CHAINS[t]!.testnet.bech32Hrp!, H20);
    expect(messageOf(t, test)).toContain(`is a testnet ${t} address; expected a mainnet ${t} address`);
    const main = v1(CHAINS[t]!.mainnet.bech32Hrp!, H32);
    expect(codeOf(t, main, 'testnet')).toBe('WRONG_NETWORK');
  });

  it('another coin’s HRP is WRONG_NETWORK', () => {
    const ltc = encodeSegwitV0('ltc', H20);
    expect(messageOf('DGB', ltc)).toBe(
      'address is a mainnet LTC address; expected a mainnet DGB address (D…, S…, 3… or dgb1…)',
    );
    expect(codeOf('CY', encodeSegwitV0('bel', H20))).toBe('WRONG_NETWORK');
    // Coins without segwit: a valid segwit address of a listed coin is still WRONG_NETWORK.
    expect(messageOf('DOGE', ltc)).toMatch(
      /^address is a mainnet LTC address; expected a mainnet DOGE address \(D…, 9… or A…\)$/,
    );
  });

  it('unknown or undeployed HRPs are invalid', () => {
    expect(codeOf('LTC', encodeSegwitV0('bc', H20))).toBe('INVALID_ADDRESS');
    expect(codeOf('DOGE', encodeSegwitV0('doge', H20))).toBe('INVALID_ADDRESS');
    expect(messageOf('DOGE', encodeSegwitV0('doge', H20))).toContain('DOGE has no segwit');
  });

  it('enforces BIP350 encodings and program lengths', () => {
    // v0 with bech32m, v1 with bech32.
    expect(codeOf('LTC', bech32m.encode('ltc', [0, ...bech32m.toWords(H20)]))).toBe('INVALID_ADDRESS');
    expect(codeOf('LTC', bech32.encode('ltc', [1, ...bech32.toWords(H32)]))).toBe('INVALID_ADDRESS');
    // v0 program of 21 bytes; v1 program of 20 bytes; v2 (not modelled).
    expect(codeOf('LTC', bech32.encode('ltc', [0, ...bech32.toWords(new Uint8Array(21))]))).toBe(
      'INVALID_ADDRESS',
    );
    expect(codeOf('LTC', v1('ltc', H20))).toBe('INVALID_ADDRESS');
    expect(codeOf('LTC', bech32m.encode('ltc', [2, ...bech32m.toWords(H32)]))).toBe('INVALID_ADDRESS');
    // Bad bech32 checksum.
    const a = encodeSegwitV0('ltc', H20);
    expect(codeOf('LTC', a.slice(0, -1) + (a.endsWith('q') ? 'p' : 'q'))).toBe('INVALID_ADDRESS');
  });
});

describe('Solana', () => {
  it('accepts the system program and a wallet-like key', () => {
    expectOk('SOL', '11111111111111111111111111111111', 'solana');
    const pub = ed25519.getPublicKey(sha256(new TextEncoder().encode('coinwallet sol test')));
    const addr = base58.encode(pub);
    expectOk('SOL', addr, 'solana');
    expectOk('sol', addr, 'solana', 'testnet');
    // SPL Token program id (published constant).
    expectOk('SOL', 'TokenkegQfeZyiNwAJbNbGKPFXCWuBvf9Ss623VQ5DA', 'solana');
  });

  it('accepts off-curve 32-byte keys (program-derived addresses)', () => {
    let bytes = sha256(new TextEncoder().encode('pda seed'));
    const onCurve = (b: Uint8Array): boolean => {
      try {
        ed25519.Point.fromBytes(b);
        return true;
      } catch {
        return false;
      }
    };
    while (onCurve(bytes)) bytes = sha256(bytes);
    expectOk('SOL', base58.encode(bytes), 'solana');
  });

  it('rejects 31- and 33-byte values and garbage', () => {
    expect(codeOf('SOL', base58.encode(H32.slice(1)))).toBe('INVALID_ADDRESS');
    expect(codeOf('SOL', base58.encode(Uint8Array.of(...H32, 7)))).toBe('INVALID_ADDRESS');
    expect(codeOf('SOL', 'O0Il'.repeat(10))).toBe('INVALID_ADDRESS');
    expect(codeOf('SOL', '')).toBe('INVALID_ADDRESS');
  });

  it('UTXO addresses for SOL and Solana addresses for UTXO coins are WRONG_NETWORK', () => {
    const ltc = encodeP2pkh(H20, CHAINS.LTC!.mainnet);
    expect(messageOf('SOL', ltc)).toBe(
      'address is a mainnet LTC address; expected a Solana address (32-byte base58 public key)',
    );
    expect(codeOf('SOL', encodeSegwitV0('dgb', H20))).toBe('WRONG_NETWORK');
    const sol = base58.encode(H32);
    expect(messageOf('LTC', sol)).toMatch(/^address is a Solana address; expected a mainnet LTC address/);
  });
});

describe('real published addresses', () => {
  // Source: ensdomains/address-encoder (commits a14707bc / 03aa74e1) src/coin/{ltc,doge,dgb}.test.ts —
  // each address with the scriptPubKey the ENS encoder maps it to (the hash is checked below).
  it.each([
    ['LTC', 'LaMT348PWRnrqeeWArpwQPbuanpXDZGEUz', 'p2pkh', 'a5f4d12ce3685781b227c1f39548ddef429e9783'],
    ['LTC', 'MQMcJhpWHYVeQArcZR3sBgyPZxxRtnH441', 'p2sh', 'b48297bff5dadecc5f36145cec6a5f20d57c8f9b'],
    [
      'LTC',
      'ltc1qdp7p2rpx4a2f80h7a4crvppczgg4egmv5c78w8',
      'p2wpkh',
      '687c150c26af5493befeed7036043812115ca36c',
    ],
    ['DOGE', 'DBXu2kgc3xtvCUWFcxFE3r9hEYgmuaaCyD', 'p2pkh', '4620b70031f0e9437e374a2100934fba49110460'],
    ['DOGE', 'AF8ekvSf6eiSBRspJjnfzK6d1EM6pnPq3G', 'p2sh', 'f8f5d99a9fc21aa676e74d15e7b8134557615bda'],
    [
      'DGB',
      'dgb1q6fdfum8w0052aqmqjhpcpjzuyg4jlwjy9jrwz9',
      'p2wpkh',
      'd25a9e6cee7be8ae836095c380c85c222b2fba44',
    ],
    ['DGB', 'DPPWe2aK4aYj3rt3yvw9zstCDXrN6frS7a', 'p2pkh', 'c82c346ddb007e70fbb73edcbe104ecceea97bd1'],
    ['DGB', 'SRFLzWuizzCPQDc5qLM2L8pZkvFws6We3j', 'p2sh', '2b5feabcb3feb6c45f9b623a7f1bc16be7377db7'],
  ])('%s %s', (t, addr, kind, hash) => {
    expectOk(t, addr, kind);
    const p = CHAINS[t]!.mainnet;
    const h = hex.decode(hash);
    const rebuilt =
      kind === 'p2pkh'
        ? encodeP2pkh(h, p)
        : kind === 'p2sh'
          ? encodeP2sh(
              h,
              p,
              versionsOf(p).find((v) => addr === base58checkEncode(Uint8Array.of(v, ...h))),
            )
          : encodeSegwitV0(p.bech32Hrp!, h);
    expect(rebuilt).toBe(addr);
  });

  it('the real DOGE address is WRONG_NETWORK for LTC and for DOGE testnet', () => {
    expect(codeOf('LTC', 'DBXu2kgc3xtvCUWFcxFE3r9hEYgmuaaCyD')).toBe('WRONG_NETWORK');
    expect(messageOf('DOGE', 'DBXu2kgc3xtvCUWFcxFE3r9hEYgmuaaCyD', 'testnet')).toContain(
      'is a mainnet DOGE address',
    );
  });
});
