/**
 * HostCore (src/dapp-browser/host-core.ts), the dapp browser's request handling: wallet_connect, the chain checks,
 * Solana signing. The LKY bridge deposit, identity, revoke and secrets: host-core-deposit-identity.test.ts.
 */
import { ed25519 } from '@noble/curves/ed25519.js';
import { base58, base64 } from '@scure/base';
import { describe, expect, it } from 'vitest';
import { approved, connected, DAPP, errorOf, promptOf, setup } from './host-core-harness.ts';

describe('HostCore: wallet_connect', () => {
  it('prompts, then answers the held accounts and their capabilities; approval is remembered', async () => {
    const { core, wallet, accessCalls } = setup({ coins: ['LTC', 'SOL'] });
    const p = promptOf(await core.request(DAPP, 'wallet_connect', { tickers: ['SOL', 'PEP', 'LTC', 'SOL'] }));
    expect(p).toMatchObject({ origin: DAPP, method: 'wallet_connect', title: `Connect ${DAPP}?` });
    expect(p.details).toContainEqual({ label: 'No wallet for', value: 'PEP' });
    expect(accessCalls).toEqual([DAPP]);
    expect(core.isConnected(DAPP)).toBe(false);
    expect(await core.decide(p.id, true)).toEqual({
      result: {
        accounts: [wallet.account('SOL'), wallet.account('LTC')],
        capabilities: {
          SOL: { methods: ['wallet_signMessage', 'wallet_signTransaction'] },
          LTC: { methods: ['id_signMessage'] },
        },
      },
    });
    expect(core.isConnected(DAPP)).toBe(true);
    // Again: no prompt; nothing new held → no event.
    expect(await core.request(DAPP, 'wallet_connect', { tickers: ['PEP'] })).toEqual({
      result: { accounts: [], capabilities: {} },
    });
  });

  it('a second connect that adds a held chain answers at once and announces accountsChanged', async () => {
    const { core, wallet } = await connected({}, ['LTC']);
    const r = await core.request(DAPP, 'wallet_connect', { tickers: ['SOL'] });
    expect(r).toMatchObject({
      result: { accounts: [wallet.account('SOL')] },
      events: [{ event: 'accountsChanged', data: [wallet.account('LTC'), wallet.account('SOL')] }],
    });
  });

  it('rejection is 4001 and leaves the origin unconnected', async () => {
    const { core } = setup();
    const p = promptOf(await core.request(DAPP, 'wallet_connect', { tickers: ['LTC'] }));
    expect(errorOf(await core.decide(p.id, false))).toEqual({ code: 4001, reason: 'USER_REJECTED' });
    expect(core.isConnected(DAPP)).toBe(false);
    expect(errorOf(await core.decide(p.id, true))).toEqual({ code: -32602, reason: 'INVALID_PARAMS' }); // used up
  });

  it('unlisted origins are 4100 DAPP_NOT_LISTED before any prompt; allowUnlisted skips the store', async () => {
    expect(
      errorOf(await setup().core.request('https://other.example', 'wallet_connect', { tickers: ['LTC'] })),
    ).toEqual({
      code: 4100,
      reason: 'DAPP_NOT_LISTED',
    });
    const open = setup({ allowUnlisted: true });
    promptOf(await open.core.request('https://other.example', 'wallet_connect', { tickers: ['LTC'] }));
    expect(open.accessCalls).toEqual([]);
  });

  it('a platform that does not answer is -32603 PLATFORM_UNAVAILABLE', async () => {
    expect(
      errorOf(await setup({ down: true }).core.request(DAPP, 'wallet_connect', { tickers: ['LTC'] })),
    ).toEqual({
      code: -32603,
      reason: 'PLATFORM_UNAVAILABLE',
    });
  });

  it.each([
    [undefined, 'INVALID_PARAMS'],
    [{}, 'INVALID_PARAMS'],
    [{ tickers: [] }, 'INVALID_PARAMS'],
    [{ tickers: 'LTC' }, 'INVALID_PARAMS'],
    [{ tickers: ['ltc'] }, 'UNKNOWN_TICKER'],
    [{ tickers: ['ETH'] }, 'UNKNOWN_TICKER'],
    [{ tickers: [1] }, 'UNKNOWN_TICKER'],
  ])('params %j → -32602 %s', async (params, reason) => {
    const r = await setup().core.request(DAPP, 'wallet_connect', params as never);
    expect(errorOf(r)).toEqual({ code: -32602, reason });
  });

  it('refuses a non-origin and unknown methods', async () => {
    const { core } = setup();
    expect(
      errorOf(await core.request('https://dapp.example/page', 'wallet_connect', { tickers: ['LTC'] })),
    ).toEqual({
      code: -32602,
      reason: 'INVALID_PARAMS',
    });
    expect(errorOf(await core.request(DAPP, 'eth_accounts', undefined))).toEqual({
      code: 4200,
      reason: 'UNSUPPORTED_METHOD',
    });
  });
});

describe('HostCore: chain checks', () => {
  it('every chain method needs a connected origin (4100 NOT_CONNECTED)', async () => {
    const { core } = setup();
    for (const [m, p] of [
      ['wallet_getBalance', { ticker: 'LKY' }],
      ['wallet_signMessage', { ticker: 'SOL', message: 'x' }],
      ['wallet_signTransaction', { ticker: 'SOL', transaction: '' }],
      ['wallet_sendTransaction', { ticker: 'LKY' }],
      ['id_signMessage', { message: 'x' }],
    ] as const) {
      expect(errorOf(await core.request(DAPP, m, p)), m).toEqual({ code: 4100, reason: 'NOT_CONNECTED' });
    }
  });

  it('orders: unknown ticker (-32602), unsupported for the chain (4200), no wallet (4200), not connected (4901)', async () => {
    const { core } = await connected({ coins: ['LTC', 'DOGE', 'LKY'] }, ['LTC', 'SOL']);
    const req = (m: string, p: Record<string, unknown>) => core.request(DAPP, m, p).then(errorOf);
    expect(await req('wallet_getBalance', {})).toEqual({ code: -32602, reason: 'INVALID_PARAMS' });
    expect(await req('wallet_getBalance', { ticker: 'XYZ' })).toEqual({
      code: -32602,
      reason: 'UNKNOWN_TICKER',
    });
    expect(await req('wallet_getBalance', { ticker: 'DOGE' })).toEqual({
      code: 4200,
      reason: 'UNSUPPORTED_FOR_CHAIN',
    });
    expect(await req('wallet_signMessage', { ticker: 'SOL', message: 'x' })).toEqual({
      code: 4200,
      reason: 'NO_WALLET_FOR_CHAIN',
    });
    expect(await req('wallet_getBalance', { ticker: 'LKY' })).toEqual({
      code: 4901,
      reason: 'CHAIN_NOT_CONNECTED',
    });
  });

  it('wallet_getBalance: LKY base units as strings', async () => {
    const { core } = await connected({ lkyBalance: 123n });
    expect(await core.request(DAPP, 'wallet_getBalance', { ticker: 'LKY' })).toEqual({
      result: { ticker: 'LKY', confirmed: '123', unconfirmed: '0', total: '123' },
    });
  });
});

describe('HostCore: Solana signing', () => {
  it('wallet_signMessage prompts each time and signs the UTF-8 bytes with ed25519', async () => {
    const { core, wallet } = await connected();
    const p = promptOf(await core.request(DAPP, 'wallet_signMessage', { ticker: 'SOL', message: 'héllo' }));
    expect(p.details).toContainEqual({ label: 'Message', value: 'héllo' });
    const r = await core.decide(p.id, true);
    const { publicKey, signature } = (r as { result: { publicKey: string; signature: string } }).result;
    expect(publicKey).toBe(wallet.account('SOL')?.publicKey);
    expect(
      ed25519.verify(base58.decode(signature), new TextEncoder().encode('héllo'), base58.decode(publicKey)),
    ).toBe(true);
    promptOf(await core.request(DAPP, 'wallet_signMessage', { ticker: 'SOL', message: 'again' }));
  });

  it('wallet_signMessage refuses empty, oversized or non-string messages', async () => {
    const { core } = await connected();
    for (const message of ['', 'x'.repeat(16_385), 42]) {
      expect(errorOf(await core.request(DAPP, 'wallet_signMessage', { ticker: 'SOL', message }))).toEqual({
        code: -32602,
        reason: 'INVALID_PARAMS',
      });
    }
  });

  it('wallet_signTransaction signs a message the account must sign; others are refused', async () => {
    const { core, wallet } = await connected();
    const me = base58.decode(wallet.account('SOL')?.publicKey ?? '');
    const msg = (signer: Uint8Array) =>
      Uint8Array.from([
        1,
        0,
        1,
        2,
        ...signer,
        ...new Uint8Array(32).fill(2),
        ...new Uint8Array(32),
        1,
        1,
        0,
        0,
      ]);
    const ok = await approved(
      core,
      core.request(DAPP, 'wallet_signTransaction', { ticker: 'SOL', transaction: base64.encode(msg(me)) }),
    );
    const sig = (ok as { result: { signature: string } }).result.signature;
    expect(ed25519.verify(base58.decode(sig), msg(me), me)).toBe(true);
    const other = base64.encode(msg(new Uint8Array(32).fill(5)));
    expect(
      errorOf(await core.request(DAPP, 'wallet_signTransaction', { ticker: 'SOL', transaction: other })),
    ).toEqual({
      code: -32602,
      reason: 'NOT_A_SIGNER',
    });
    for (const transaction of ['not base64!', base64.encode(Uint8Array.of(1, 2, 3)), 7]) {
      expect(
        errorOf(await core.request(DAPP, 'wallet_signTransaction', { ticker: 'SOL', transaction })),
      ).toEqual({
        code: -32602,
        reason: 'INVALID_PARAMS',
      });
    }
  });
});
