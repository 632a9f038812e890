import { randomBytes } from 'node:crypto';
import { messageParams } from '../../src/crypto/chains.ts';
import { LTC } from '../../src/crypto/coins.ts';
import { addressOf, signMessage } from '../../src/crypto/signed-message.ts';

/** A throwaway LTC wallet that signs in to a running server the way the dapp browser's wallet does. */
export interface TestWallet {
  address: string;
  signIn(baseUrl: string): Promise<string>;
}

export function testWallet(type: 'p2pkh' | 'p2sh-p2wpkh' | 'p2wpkh' = 'p2wpkh'): TestWallet {
  const key = randomBytes(32);
  const address = addressOf(LTC, key, type);
  return {
    address,
    async signIn(baseUrl) {
      const c = await post(baseUrl, '/api/auth/challenge', { address });
      const { challenge, nonce } = c.body as { challenge: string; nonce: string };
      const s = await post(baseUrl, '/api/auth/session', {
        address,
        signature: signMessage(LTC, key, challenge, type),
        nonce,
      });
      if (s.status !== 200 && s.status !== 201)
        throw new Error(`sign-in failed: ${s.status} ${JSON.stringify(s.body)}`);
      return (s.body as { token: string }).token;
    },
  };
}

export async function post(
  baseUrl: string,
  path: string,
  body: unknown,
  token?: string,
): Promise<{ status: number; body: unknown; headers: Headers }> {
  const r = await fetch(baseUrl + path, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...(token ? { authorization: `Bearer ${token}` } : {}) },
    body: JSON.stringify(body),
  });
  return { status: r.status, body: await r.json().catch(() => null), headers: r.headers };
}

export async function get(
  baseUrl: string,
  path: string,
  token?: string,
): Promise<{ status: number; body: unknown; headers: Headers }> {
  const r = await fetch(baseUrl + path, { headers: token ? { authorization: `Bearer ${token}` } : {} });
  return { status: r.status, body: await r.json().catch(() => null), headers: r.headers };
}

/**
 * Links a new DOGE address to the signed-in owner's `name` with proof of control (challenge, signature, PUT), the
 * way a wallet does: the address and the PUT's answer.
 */
export async function linkDogeAddress(
  baseUrl: string,
  token: string,
  name: string,
): Promise<{ address: string; status: number; body: unknown }> {
  const doge = messageParams('DOGE');
  if (!doge) throw new Error('DOGE params');
  const key = randomBytes(32);
  const address = addressOf(doge, key, 'p2pkh');
  const c = (await post(baseUrl, `/api/names/${name}/addresses/DOGE/challenge`, { address }, token)).body as {
    challenge: string;
    nonce: string;
  };
  const linked = await fetch(`${baseUrl}/api/names/${name}/addresses/DOGE`, {
    method: 'PUT',
    headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
    body: JSON.stringify({ address, signature: signMessage(doge, key, c.challenge), nonce: c.nonce }),
  });
  return { address, status: linked.status, body: await linked.json() };
}
