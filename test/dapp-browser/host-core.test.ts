import { ed25519 } from '@noble/curves/ed25519.js';
import { bytesToHex } from '@noble/hashes/utils.js';
import { base58, base64 } from '@scure/base';
import { describe, expect, it } from 'vitest';
import { challengeText } from '../../src/accounts/challenge.ts';
import { LTC } from '../../src/crypto/coins.ts';
import { verifySignedMessage } from '../../src/crypto/signed-message.ts';
import { DevWallet, devSecret } from '../../src/dapp-browser/dev-wallet.ts';
import type { HostAnswer, PromptView } from '../../src/dapp-browser/host-core.ts';
import { HostCore } from '../../src/dapp-browser/host-core.ts';
import type { BridgeConfig, BridgeLane, Platform } from '../../src/dapp-browser/platform.ts';
import { PlatformError } from '../../src/dapp-browser/platform.ts';
import { identityPairingText } from '../../src/provider/protocol.ts';

const DAPP = 'https://dapp.example';
const IDENTITY = 'https://names.example';
const DEPOSIT = 'npyK4QkJUoAyvG4JfFGSTMMaRPWcXHHzAU';
const NOW = 1_767_225_600_000;
const SEED = 'host-core test';

const lane = (o: Partial<BridgeLane> = {}): BridgeLane => ({
  id: 'lky-wrap',
  asset: 'LKY',
  direction: 'wrap',
  status: 'active',
  pausedReason: null,
  minAmount: '100000000',
  maxAmount: '1000000000000',
  fees: { fixed: '10000000', percent: 0.1 },
  depositAddress: DEPOSIT,
  ...o,
});

function setup(
  o: {
    coins?: string[];
    listed?: string[];
    down?: boolean;
    allowUnlisted?: boolean;
    lanes?: BridgeLane[];
    lkyBalance?: bigint;
  } = {},
) {
  const accessCalls: string[] = [];
  const platform: Platform = {
    domain: '127.0.0.1:4000',
    origin: 'http://127.0.0.1:4000',
    async access(origin) {
      accessCalls.push(origin);
      if (o.down) throw new PlatformError('connection refused');
      return { allowed: (o.listed ?? [DAPP, IDENTITY]).includes(origin), dappId: null };
    },
    async bridgeConfig(): Promise<BridgeConfig> {
      if (o.down) throw new PlatformError('connection refused');
      return { network: 'testnet', version: 't1', lanes: o.lanes ?? [lane()] };
    },
  };
  const wallet = new DevWallet(SEED, o.coins ?? ['LTC', 'DOGE', 'LKY', 'SOL']);
  const core = new HostCore({
    wallet,
    platform,
    allowUnlisted: o.allowUnlisted ?? false,
    identityOrigin: IDENTITY,
    lkyBalance: o.lkyBalance ?? 10_000_000_000n,
    now: () => NOW,
  });
  return { core, wallet, accessCalls };
}

function promptOf(a: HostAnswer): PromptView {
  if (!('prompt' in a)) throw new Error(`expected a prompt, got ${JSON.stringify(a)}`);
  return a.prompt;
}

async function approved(core: HostCore, a: HostAnswer | Promise<HostAnswer>) {
  return core.decide(promptOf(await a).id, true);
}

async function connected(
  o: Parameters<typeof setup>[0] = {},
  tickers = ['LTC', 'DOGE', 'LKY', 'SOL'],
  origin = DAPP,
) {
  const s = setup(o);
  const r = await approved(s.core, s.core.request(origin, 'wallet_connect', { tickers }));
  if (!('result' in r)) throw new Error(JSON.stringify(r));
  return s;
}

const errorOf = (a: HostAnswer) => ('error' in a ? { code: a.error.code, reason: a.error.data.reason } : a);

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

describe('HostCore: LKY bridge deposit', () => {
  const deposit = (amount: string, o: Record<string, unknown> = {}) => ({
    ticker: 'LKY',
    kind: 'bridge-deposit',
    to: DEPOSIT,
    amount,
    ...o,
  });

  it('approved: answers a txid and lowers the balance; the prompt shows amount, address and fee', async () => {
    const { core } = await connected();
    const p = promptOf(await core.request(DAPP, 'wallet_sendTransaction', deposit('500000000')));
    expect(p.details).toContainEqual({ label: 'To (bridge deposit address)', value: DEPOSIT });
    expect(p.details).toContainEqual({ label: 'Bridge fee', value: '0.105 LKY' }); // 0.1 + 0.1 % of 5
    const r = await core.decide(p.id, true);
    expect((r as { result: { txid: string } }).result.txid).toMatch(/^[0-9a-f]{64}$/);
    expect(core.lkyBalance).toBe(10_000_000_000n - 500_000_000n);
  });

  it.each([
    [
      'another address',
      deposit('500000000', { to: 'LJhn8WMpUDxHpTfCwi5UJXi7dKLs96Mydo' }),
      -32602,
      'NOT_A_BRIDGE_DEPOSIT',
    ],
    ['another kind', deposit('500000000', { kind: 'transfer' }), -32602, 'NOT_A_BRIDGE_DEPOSIT'],
    ['below the minimum', deposit('99999999'), -32602, 'AMOUNT_OUT_OF_LIMITS'],
    ['above the maximum', deposit('1000000000001'), -32602, 'AMOUNT_OUT_OF_LIMITS'],
    ['more than the balance', deposit('20000000000'), -32602, 'INSUFFICIENT_FUNDS'],
    ['a decimal amount', deposit('1.5'), -32602, 'INVALID_PARAMS'],
    ['a leading zero', deposit('0100000000'), -32602, 'INVALID_PARAMS'],
    ['a number amount', deposit('1', { amount: 100000000 }), -32602, 'INVALID_PARAMS'],
    ['another chain', deposit('500000000', { ticker: 'DOGE' }), 4200, 'UNSUPPORTED_FOR_CHAIN'],
  ])('%s → %s', async (_what, params, code, reason) => {
    const { core } = await connected();
    expect(errorOf(await core.request(DAPP, 'wallet_sendTransaction', params))).toEqual({ code, reason });
    expect(core.lkyBalance).toBe(10_000_000_000n);
  });

  it('a paused lane is -32602 LANE_PAUSED; a deployment without an LKY lane 4200', async () => {
    const paused = await connected({ lanes: [lane({ status: 'paused', pausedReason: 'maintenance' })] });
    expect(await paused.core.request(DAPP, 'wallet_sendTransaction', deposit('500000000'))).toMatchObject({
      error: { code: -32602, data: { reason: 'LANE_PAUSED', pausedReason: 'maintenance' } },
    });
    const none = await connected({ lanes: [] });
    expect(errorOf(await none.core.request(DAPP, 'wallet_sendTransaction', deposit('500000000')))).toEqual({
      code: 4200,
      reason: 'UNSUPPORTED_FOR_CHAIN',
    });
  });

  it('checks the balance again on approval (two prompts, funds for one)', async () => {
    const { core } = await connected({ lkyBalance: 700_000_000n });
    const a = promptOf(await core.request(DAPP, 'wallet_sendTransaction', deposit('500000000')));
    const b = promptOf(await core.request(DAPP, 'wallet_sendTransaction', deposit('500000000')));
    expect(await core.decide(a.id, true)).toHaveProperty('result');
    expect(errorOf(await core.decide(b.id, true))).toEqual({ code: -32602, reason: 'INSUFFICIENT_FUNDS' });
    expect(core.lkyBalance).toBe(200_000_000n);
  });
});

describe('HostCore: identity', () => {
  const challenge = (o: Partial<Parameters<typeof challengeText>[0]> = {}, wallet?: DevWallet) =>
    challengeText({
      domain: '127.0.0.1:4000',
      address: wallet?.account('LTC')?.address ?? '',
      uri: 'http://127.0.0.1:4000',
      nonce: '0f3c9a4e5b6d7e8f90a1b2c3d4e5f607',
      issuedAt: NOW - 60_000,
      expiresAt: NOW + 240_000,
      ...o,
    });

  it('id_signMessage signs the platform sign-in challenge with the LTC key after approval', async () => {
    const { core, wallet } = await connected();
    const text = challenge({}, wallet);
    const p = promptOf(await core.request(DAPP, 'id_signMessage', { message: text }));
    expect(p.title).toBe('Sign in to 127.0.0.1:4000');
    const r = (await core.decide(p.id, true)) as { result: { address: string; signature: string } };
    expect(r.result.address).toBe(wallet.account('LTC')?.address);
    expect(verifySignedMessage(LTC, r.result.address, text, r.result.signature)).toMatchObject({ ok: true });
  });

  it('id_signMessage refuses anything else', async () => {
    const { core, wallet } = await connected();
    const req = (message: unknown) => core.request(DAPP, 'id_signMessage', { message }).then(errorOf);
    const good = challenge({}, wallet);
    expect(await req('please sign')).toEqual({ code: -32602, reason: 'NOT_A_SIGN_IN_CHALLENGE' });
    expect(await req(good.replace('Sign in to Coin Wallet.', 'Send all funds.'))).toEqual({
      code: -32602,
      reason: 'NOT_A_SIGN_IN_CHALLENGE',
    });
    expect(await req(`${good}\nextra`)).toEqual({ code: -32602, reason: 'NOT_A_SIGN_IN_CHALLENGE' });
    expect(await req(challenge({ domain: 'evil.example' }, wallet))).toEqual({
      code: -32602,
      reason: 'CHALLENGE_WRONG_DOMAIN',
    });
    expect(await req(challenge({ address: 'LQ3B36Yv2rBTxdgAdYpU2UcEZsaNwXeATk' }))).toEqual({
      code: -32602,
      reason: 'CHALLENGE_WRONG_ADDRESS',
    });
    expect(await req(challenge({ expiresAt: NOW - 1 }, wallet))).toEqual({
      code: -32602,
      reason: 'CHALLENGE_EXPIRED',
    });
    expect(await req(7)).toEqual({ code: -32602, reason: 'INVALID_PARAMS' });
  });

  it('id_signMessage needs LTC held and connected', async () => {
    const noLtc = await connected({ coins: ['SOL'] }, ['SOL']);
    expect(errorOf(await noLtc.core.request(DAPP, 'id_signMessage', { message: 'x' }))).toEqual({
      code: 4200,
      reason: 'NO_WALLET_FOR_CHAIN',
    });
    const solOnly = await connected({}, ['SOL']);
    expect(errorOf(await solOnly.core.request(DAPP, 'id_signMessage', { message: 'x' }))).toEqual({
      code: 4901,
      reason: 'CHAIN_NOT_CONNECTED',
    });
  });

  it('id_connect: the host refuses every origin but the identity origin (4100), whatever the page claims', async () => {
    const { core } = setup();
    expect(errorOf(await core.request(DAPP, 'id_connect', { nonce: 'abcdefgh12' }))).toEqual({
      code: 4100,
      reason: 'UNTRUSTED_ORIGIN',
    });
    expect(errorOf(await core.request(IDENTITY, 'id_connect', { nonce: 'short' }))).toEqual({
      code: -32602,
      reason: 'INVALID_PARAMS',
    });
  });

  it('id_connect from the identity origin: approval, then the LTC identity and a signature over the pairing text', async () => {
    const { core, wallet } = setup();
    const r = (await approved(core, core.request(IDENTITY, 'id_connect', { nonce: 'abcdefgh12' }))) as {
      result: { address: string; publicKey: string; signature: string };
    };
    const ltc = wallet.account('LTC');
    expect(r.result).toMatchObject({ address: ltc?.address, publicKey: ltc?.publicKey });
    const text = identityPairingText({ origin: IDENTITY, address: r.result.address, nonce: 'abcdefgh12' });
    expect(verifySignedMessage(LTC, r.result.address, text, r.result.signature)).toMatchObject({ ok: true });
    expect(core.isConnected(IDENTITY)).toBe(false); // pairing is not a wallet connection
  });
});

describe('HostCore: revoke and secrets', () => {
  it('revoke disconnects the origin and yields accountsChanged [] and disconnect (4900)', async () => {
    const { core } = await connected();
    expect(core.revoke(DAPP)).toEqual([
      { event: 'accountsChanged', data: [] },
      {
        event: 'disconnect',
        data: {
          code: 4900,
          message: 'the user disconnected this site',
          data: { reason: 'HOST_DISCONNECTED' },
        },
      },
    ]);
    expect(core.revoke(DAPP)).toEqual([]);
    expect(errorOf(await core.request(DAPP, 'wallet_getBalance', { ticker: 'LKY' }))).toEqual({
      code: 4100,
      reason: 'NOT_CONNECTED',
    });
  });

  it('no answer or state ever carries a private key', async () => {
    const { core } = await connected();
    const out = JSON.stringify([
      core.state(),
      await approved(core, core.request(DAPP, 'wallet_signMessage', { ticker: 'SOL', message: 'm' })),
      await core.request(DAPP, 'wallet_connect', { tickers: ['LTC', 'DOGE', 'LKY', 'SOL'] }),
    ]);
    for (const t of ['LTC', 'DOGE', 'LKY', 'SOL']) {
      const hex = bytesToHex(devSecret(SEED, t));
      expect(out).not.toContain(hex);
      expect(out).not.toContain(base58.encode(devSecret(SEED, t)));
    }
  });
});
