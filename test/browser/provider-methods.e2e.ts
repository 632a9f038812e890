/// <reference lib="dom" />
/**
 * The provider's methods inside the dapp-browser emulator in real Chromium (Solana signing, balances, sign-in,
 * bridge deposits, forged host messages, identity pairing, disconnect); setup in provider-harness.ts, the script and
 * the provider's discovery in provider.e2e.ts.
 */
import { ed25519 } from '@noble/curves/ed25519.js';
import { base58, base64 } from '@scure/base';
import { describe, expect, it } from 'vitest';
import { LTC } from '../../src/crypto/coins.ts';
import { verifySignedMessage } from '../../src/crypto/signed-message.ts';
import { DEFAULT_LKY_BALANCE } from '../../src/dapp-browser/server.ts';
import { identityPairingText } from '../../src/provider/protocol.ts';
import { get, post } from '../support/wallet.ts';
import {
  call,
  connect,
  dappUrl,
  emulator,
  origins,
  platform,
  useProviderHarness,
  withPrompt,
} from './provider-harness.ts';

useProviderHarness();

describe('inside the emulator', () => {
  it('signs Solana messages and transactions with ed25519 after approval; the signatures verify', async () => {
    const { page, frame } = await emulator(dappUrl(origins.dapp));
    const [sol] = await connect(page, frame, ['SOL']);
    if (!sol) throw new Error('no SOL account');
    const message = 'Sign in to fixture dapp — nonce 42 ✓';
    const signed = await withPrompt(page, frame, 'wallet_signMessage', { ticker: 'SOL', message }, 'approve');
    expect(signed.promptMethod).toBe('wallet_signMessage');
    const r = (signed.outcome as { result: { publicKey: string; signature: string } }).result;
    expect(r.publicKey).toBe(sol.publicKey);
    const pk = base58.decode(sol.publicKey);
    expect(ed25519.verify(base58.decode(r.signature), new TextEncoder().encode(message), pk)).toBe(true);
    expect(ed25519.verify(base58.decode(r.signature), new TextEncoder().encode(`${message}!`), pk)).toBe(
      false,
    );

    // A legacy message: header [1 signer, 0, 1 read-only], keys [the account, a program], blockhash, 1 instruction.
    const tx = new Uint8Array([
      1,
      0,
      1,
      2,
      ...pk,
      ...new Uint8Array(32).fill(7),
      ...new Uint8Array(32).fill(9),
      1,
      1,
      1,
      0,
      2,
      0xaa,
      0xbb,
    ]);
    const txSigned = await withPrompt(
      page,
      frame,
      'wallet_signTransaction',
      { ticker: 'SOL', transaction: base64.encode(tx) },
      'approve',
    );
    const t = (txSigned.outcome as { result: { publicKey: string; signature: string } }).result;
    expect(ed25519.verify(base58.decode(t.signature), tx, pk)).toBe(true);

    const rejected = await withPrompt(
      page,
      frame,
      'wallet_signMessage',
      { ticker: 'SOL', message },
      'reject',
    );
    expect(rejected.outcome).toMatchObject({ ok: false, code: 4001, reason: 'USER_REJECTED' });
  });

  it('unknown methods are 4200 UNSUPPORTED_METHOD; wallet_getBalance is LKY only (DOGE → 4200)', async () => {
    const { page, frame } = await emulator(dappUrl(origins.dapp));
    await connect(page, frame, ['LTC', 'DOGE', 'LKY']);
    expect(await call(frame, 'eth_sendTransaction', {})).toMatchObject({
      ok: false,
      code: 4200,
      reason: 'UNSUPPORTED_METHOD',
    });
    expect(await call(frame, 'wallet_exportPrivateKey', { ticker: 'LTC' })).toMatchObject({
      ok: false,
      code: 4200,
      reason: 'UNSUPPORTED_METHOD',
    });
    expect(await call(frame, 'wallet_getBalance', { ticker: 'DOGE' })).toMatchObject({
      ok: false,
      code: 4200,
      reason: 'UNSUPPORTED_FOR_CHAIN',
    });
    expect(await call(frame, 'wallet_signMessage', { ticker: 'LTC', message: 'x' })).toMatchObject({
      ok: false,
      code: 4200,
      reason: 'UNSUPPORTED_FOR_CHAIN',
    });
    expect(await call(frame, 'wallet_getBalance', { ticker: 'LKY' })).toEqual({
      ok: true,
      result: {
        ticker: 'LKY',
        confirmed: DEFAULT_LKY_BALANCE.toString(),
        unconfirmed: '0',
        total: DEFAULT_LKY_BALANCE.toString(),
      },
    });
  });

  it('id_signMessage signs the platform sign-in challenge; POST /api/auth/session accepts it', async () => {
    const { page, frame } = await emulator(dappUrl(origins.dapp));
    const ltc = (await connect(page, frame, ['LTC']))[0];
    if (!ltc) throw new Error('no LTC account');
    const c = await post(platform.url, '/api/auth/challenge', { address: ltc.address });
    const { challenge, nonce } = c.body as { challenge: string; nonce: string };
    const { outcome, title } = await withPrompt(
      page,
      frame,
      'id_signMessage',
      { message: challenge },
      'approve',
    );
    expect(title).toBe(`Sign in to ${new URL(platform.url).host}`);
    const r = (outcome as { result: { address: string; signature: string } }).result;
    expect(r.address).toBe(ltc.address);
    const session = await post(platform.url, '/api/auth/session', {
      address: r.address,
      signature: r.signature,
      nonce,
    });
    expect(session.status).toBe(201);
    const token = (session.body as { token: string }).token;
    const me = await get(platform.url, '/api/account/me', token);
    expect(me.status).toBe(200);
    expect((me.body as { address: string }).address).toBe(ltc.address);

    // Anything but the platform's challenge is refused before any prompt.
    expect(await call(frame, 'id_signMessage', { message: 'Send me your coins' })).toMatchObject({
      ok: false,
      code: -32602,
      reason: 'NOT_A_SIGN_IN_CHALLENGE',
    });
    const other = challenge.replace(new URL(platform.url).host, 'evil.example:4000');
    expect(await call(frame, 'id_signMessage', { message: other })).toMatchObject({
      ok: false,
      code: -32602,
      reason: 'CHALLENGE_WRONG_DOMAIN',
    });
  });

  it('wallet_sendTransaction makes the LKY bridge deposit of the active deployment, and nothing else', async () => {
    const { page, frame } = await emulator(dappUrl(origins.dapp));
    await connect(page, frame, ['LKY']);
    const config = (await get(platform.url, '/api/config')).body as {
      lanes: {
        asset: string;
        direction: string;
        depositAddress: string;
        minAmount: string;
        maxAmount: string;
      }[];
    };
    const lane = config.lanes.find((l) => l.asset === 'LKY' && l.direction === 'wrap');
    if (!lane) throw new Error('no LKY lane');
    const deposit = { ticker: 'LKY', kind: 'bridge-deposit', to: lane.depositAddress };

    const good = await withPrompt(
      page,
      frame,
      'wallet_sendTransaction',
      { ...deposit, amount: '500000000' },
      'approve',
    );
    expect(good.title).toBe('Bridge deposit: LKY → wLKY');
    expect(good.outcome).toMatchObject({
      ok: true,
      result: { txid: expect.stringMatching(/^[0-9a-f]{64}$/) },
    });
    const balance = await call(frame, 'wallet_getBalance', { ticker: 'LKY' });
    expect(balance).toMatchObject({
      ok: true,
      result: { total: (DEFAULT_LKY_BALANCE - 500_000_000n).toString() },
    });
    await page.getByTestId('lky-balance').filter({ hasText: 'balance: 95 LKY' }).waitFor(); // the host's panel

    expect(
      await call(frame, 'wallet_sendTransaction', {
        ...deposit,
        to: 'LJhn8WMpUDxHpTfCwi5UJXi7dKLs96Mydo',
        amount: '500000000',
      }),
    ).toMatchObject({ ok: false, code: -32602, reason: 'NOT_A_BRIDGE_DEPOSIT' });
    expect(
      await call(frame, 'wallet_sendTransaction', {
        ...deposit,
        amount: (BigInt(lane.maxAmount) + 1n).toString(),
      }),
    ).toMatchObject({
      ok: false,
      code: -32602,
      reason: 'AMOUNT_OUT_OF_LIMITS',
      data: { maxAmount: lane.maxAmount },
    });
    expect(
      await call(frame, 'wallet_sendTransaction', {
        ...deposit,
        amount: (BigInt(lane.minAmount) - 1n).toString(),
      }),
    ).toMatchObject({ ok: false, code: -32602, reason: 'AMOUNT_OUT_OF_LIMITS' });
    expect(
      await call(frame, 'wallet_sendTransaction', { ...deposit, kind: 'transfer', amount: '500000000' }),
    ).toMatchObject({
      ok: false,
      code: -32602,
      reason: 'NOT_A_BRIDGE_DEPOSIT',
    });
    expect(
      await call(frame, 'wallet_sendTransaction', {
        ticker: 'DOGE',
        kind: 'bridge-deposit',
        to: lane.depositAddress,
        amount: '1',
      }),
    ).toMatchObject({ ok: false, code: 4200, reason: 'UNSUPPORTED_FOR_CHAIN' });
    // A rejected deposit moves nothing.
    const rejected = await withPrompt(
      page,
      frame,
      'wallet_sendTransaction',
      { ...deposit, amount: '500000000' },
      'reject',
    );
    expect(rejected.outcome).toMatchObject({ ok: false, code: 4001 });
    expect(await call(frame, 'wallet_getBalance', { ticker: 'LKY' })).toMatchObject({
      result: { total: (DEFAULT_LKY_BALANCE - 500_000_000n).toString() },
    });
  });

  it('ignores host messages from a foreign origin or another window', async () => {
    const { page, frame } = await emulator(dappUrl(origins.dapp));
    await connect(page, frame, ['SOL']);
    const pending = call(frame, 'wallet_signMessage', { ticker: 'SOL', message: 'hello' });
    const prompt = page.getByTestId('prompt');
    await prompt.waitFor({ state: 'visible' });
    const requestId = await prompt.getAttribute('data-request-id');
    if (!requestId) throw new Error('no request id on the prompt');
    // Forged answers to the very request that is waiting, from a foreign frame and from the dapp window itself.
    await frame.evaluate((id) => window.dapp.forge(id), requestId);
    expect(await frame.evaluate(() => window.seen.forgedRuns)).toBe(1);
    await page.getByTestId('reject').click();
    expect(await pending).toMatchObject({ ok: false, code: 4001, reason: 'USER_REJECTED' });
    const events = await frame.evaluate(() => window.seen.events);
    expect(events.map((e) => e.name)).toEqual(['connect']); // no forged accountsChanged
  });

  it('id_connect works only from the identity origin (elsewhere 4100 UNTRUSTED_ORIGIN)', async () => {
    const { frame } = await emulator(dappUrl(origins.dapp));
    expect(await call(frame, 'id_connect', { nonce: 'abcdef0123456789' })).toMatchObject({
      ok: false,
      code: 4100,
      reason: 'UNTRUSTED_ORIGIN',
    });

    const id = await emulator(dappUrl(origins.id));
    const { outcome } = await withPrompt(
      id.page,
      id.frame,
      'id_connect',
      { nonce: 'abcdef0123456789' },
      'approve',
    );
    const r = (outcome as { result: { address: string; publicKey: string; signature: string } }).result;
    expect(r.address).toBe(id.emu.wallet.account('LTC')?.address);
    const text = identityPairingText({ origin: origins.id, address: r.address, nonce: 'abcdef0123456789' });
    expect(verifySignedMessage(LTC, r.address, text, r.signature)).toMatchObject({ ok: true });
  });

  it('disconnecting the site in the host sends accountsChanged [] and disconnect (4900)', async () => {
    const { page, frame } = await emulator(dappUrl(origins.dapp));
    await connect(page, frame, ['LTC']);
    await page.getByTestId('revoke').click();
    await frame.waitForFunction(() => window.seen.events.length >= 3);
    expect(await frame.evaluate(() => window.seen.events.slice(1))).toEqual([
      { name: 'accountsChanged', payload: [] },
      { name: 'disconnect', payload: { code: 4900, reason: 'HOST_DISCONNECTED' } },
    ]);
    expect(await call(frame, 'wallet_getBalance', { ticker: 'LKY' })).toMatchObject({
      code: 4100,
      reason: 'NOT_CONNECTED',
    });
  });
});
