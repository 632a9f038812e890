import { describe, expect, it } from 'vitest';
import {
  LIMITS,
  identityPairingText,
  isTrustedHostOrigin,
  parseDappMessage,
  parseHostMessage,
  rpcError,
} from '../../src/provider/protocol.ts';

describe('parseDappMessage (what a host reads)', () => {
  it('accepts hello and request messages, copying only the known fields', () => {
    expect(parseDappMessage({ cw: 1, type: 'hello', nonce: 'ab12', extra: 1 })).toEqual({
      cw: 1,
      type: 'hello',
      nonce: 'ab12',
    });
    expect(parseDappMessage({ cw: 1, type: 'request', id: 'x.1', method: 'wallet_connect' })).toEqual({
      cw: 1,
      type: 'request',
      id: 'x.1',
      method: 'wallet_connect',
    });
    expect(
      parseDappMessage({
        cw: 1,
        type: 'request',
        id: 'x.2',
        method: 'wallet_connect',
        params: { tickers: ['LTC'] },
      }),
    ).toEqual({ cw: 1, type: 'request', id: 'x.2', method: 'wallet_connect', params: { tickers: ['LTC'] } });
  });

  it.each([
    ['not an object', 'hello'],
    ['null', null],
    ['an array', [1]],
    ['another version', { cw: 2, type: 'hello', nonce: 'ab' }],
    ['no version', { type: 'hello', nonce: 'ab' }],
    ['an unknown type', { cw: 1, type: 'welcome', nonce: 'ab', wallet: { name: 'x', version: '1' } }],
    ['a hello without nonce', { cw: 1, type: 'hello' }],
    ['a hello with an empty nonce', { cw: 1, type: 'hello', nonce: '' }],
    ['a nonce with spaces', { cw: 1, type: 'hello', nonce: 'a b' }],
    ['a nonce too long', { cw: 1, type: 'hello', nonce: 'a'.repeat(LIMITS.nonce + 1) }],
    ['a request without id', { cw: 1, type: 'request', method: 'wallet_connect' }],
    ['a numeric id', { cw: 1, type: 'request', id: 1, method: 'wallet_connect' }],
    ['a method with markup', { cw: 1, type: 'request', id: 'a', method: '<img>' }],
    ['a method too long', { cw: 1, type: 'request', id: 'a', method: 'm'.repeat(LIMITS.method + 1) }],
    ['array params', { cw: 1, type: 'request', id: 'a', method: 'wallet_connect', params: ['LTC'] }],
    ['null params', { cw: 1, type: 'request', id: 'a', method: 'wallet_connect', params: null }],
  ])('ignores %s', (_what, msg) => {
    expect(parseDappMessage(msg)).toBeNull();
  });
});

describe('parseHostMessage (what a provider reads)', () => {
  it('accepts welcome, result and error responses, and the host events', () => {
    expect(
      parseHostMessage({ cw: 1, type: 'welcome', nonce: 'n1', wallet: { name: 'W', version: '1' } }),
    ).toEqual({
      cw: 1,
      type: 'welcome',
      nonce: 'n1',
      wallet: { name: 'W', version: '1' },
    });
    expect(parseHostMessage({ cw: 1, type: 'response', id: 'a.1', result: null })).toEqual({
      cw: 1,
      type: 'response',
      id: 'a.1',
      result: null,
    });
    const error = rpcError(4001, 'USER_REJECTED', 'no');
    expect(parseHostMessage({ cw: 1, type: 'response', id: 'a.1', error })).toEqual({
      cw: 1,
      type: 'response',
      id: 'a.1',
      error: { code: 4001, message: 'no', data: { reason: 'USER_REJECTED' } },
    });
    expect(parseHostMessage({ cw: 1, type: 'event', event: 'accountsChanged', data: [] })).toEqual({
      cw: 1,
      type: 'event',
      event: 'accountsChanged',
      data: [],
    });
  });

  it.each([
    ['a welcome without wallet', { cw: 1, type: 'welcome', nonce: 'n' }],
    [
      'a welcome with a bad wallet',
      { cw: 1, type: 'welcome', nonce: 'n', wallet: { name: 1, version: '1' } },
    ],
    [
      'a response with both result and error',
      { cw: 1, type: 'response', id: 'a', result: 1, error: rpcError(4001, 'USER_REJECTED', 'x') },
    ],
    ['a response with neither', { cw: 1, type: 'response', id: 'a' }],
    [
      'an error without reason',
      { cw: 1, type: 'response', id: 'a', error: { code: 4001, message: 'x', data: {} } },
    ],
    [
      'an error with a fractional code',
      { cw: 1, type: 'response', id: 'a', error: { code: 1.5, message: 'x', data: { reason: 'R' } } },
    ],
    [
      'a connect event (the provider emits that itself)',
      { cw: 1, type: 'event', event: 'connect', data: {} },
    ],
    ['an unknown event', { cw: 1, type: 'event', event: 'chainChanged', data: '0x1' }],
    ['a request', { cw: 1, type: 'request', id: 'a', method: 'wallet_connect' }],
  ])('ignores %s', (_what, msg) => {
    expect(parseHostMessage(msg)).toBeNull();
  });
});

describe('isTrustedHostOrigin', () => {
  const configured = ['https://wallet.coinwallet.app'];
  it.each([
    ['https://wallet.coinwallet.app', true],
    ['http://127.0.0.1:4600', true],
    ['http://localhost:4600', true],
    ['http://[::1]:4600', true],
    ['http://localhost', true],
    ['http://wallet.coinwallet.app', false], // another scheme
    ['https://wallet.coinwallet.app:8443', false], // another port
    ['https://evil.wallet.coinwallet.app', false], // subdomain
    ['https://wallet.coinwallet.app.evil.com', false],
    ['https://127.0.0.1:4600', false], // loopback over https is not what the emulator serves
    ['http://evil.localhost:4600', false],
    ['http://127.0.0.2:4600', false],
    ['http://localhost.evil.com', false],
    ['null', false],
  ])('%s → %s', (origin, trusted) => {
    expect(isTrustedHostOrigin(origin, configured)).toBe(trusted);
  });
});

describe('identityPairingText', () => {
  it('binds origin, address and nonce, one per line', () => {
    expect(identityPairingText({ origin: 'https://names.example', address: 'Labc', nonce: 'n0nce123' })).toBe(
      'Coin Wallet identity pairing\nOrigin: https://names.example\nAddress: Labc\nNonce: n0nce123',
    );
  });
});
