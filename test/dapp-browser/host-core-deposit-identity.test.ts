/**
 * HostCore (src/dapp-browser/host-core.ts): the LKY bridge deposit, identity (id_signMessage, id_connect), revoke,
 * and no private key in any answer. wallet_connect, the chain checks and Solana signing: host-core.test.ts.
 */
import { bytesToHex } from '@noble/hashes/utils.js';
import { base58 } from '@scure/base';
import { describe, expect, it } from 'vitest';
import { challengeText } from '../../src/accounts/challenge.ts';
import { LTC } from '../../src/crypto/coins.ts';
import { verifySignedMessage } from '../../src/crypto/signed-message.ts';
import type { DevWallet } from '../../src/dapp-browser/dev-wallet.ts';
import { devSecret } from '../../src/dapp-browser/dev-wallet.ts';
import { identityPairingText } from '../../src/provider/protocol.ts';
import {
  approved,
  connected,
  DAPP,
  DEPOSIT,
  errorOf,
  IDENTITY,
  lane,
  NOW,
  promptOf,
  SEED,
  setup,
} from './host-core-harness.ts';

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
