import { createHash, createHmac, createPublicKey, randomBytes, verify } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { messageParams } from '../../src/crypto/chains.ts';
import { addressOf, signMessage } from '../../src/crypto/signed-message.ts';
import type { ServeProcess } from '../support/process.ts';
import { startServe, waitForStatus } from '../support/process.ts';
import { get, linkDogeAddress, post, testWallet } from '../support/wallet.ts';

const dataDir = mkdtempSync(join(tmpdir(), 'cw-names-'));
const ADMIN = 'names-e2e-admin-token-0123456789';
let s: ServeProcess;

beforeAll(async () => {
  s = await startServe({ DATA_DIR: dataDir, DEMO_DAYS: '3', LOG_LEVEL: 'warn', ADMIN_TOKEN: ADMIN }, 60_000);
  await waitForStatus(`${s.url}/healthz`, 200, 180_000);
});
afterAll(async () => {
  await s?.stop('SIGTERM');
  rmSync(dataDir, { recursive: true, force: true });
});

/** The partner recipe from docs/names.md, written independently of the server's code. */
async function partnerFetch(
  p: { id: string; secret: string },
  method: string,
  path: string,
  body?: unknown,
  nonce?: string,
) {
  const text = body === undefined ? '' : JSON.stringify(body);
  const timestamp = Math.floor(Date.now() / 1000);
  const n = nonce ?? randomBytes(16).toString('hex');
  const key = createHash('sha256').update(p.secret).digest();
  const canonical = `${method}\n${path}\n${timestamp}\n${n}\n${createHash('sha256').update(text).digest('hex')}`;
  const r = await fetch(s.url + path, {
    method,
    headers: {
      'x-partner-id': p.id,
      'x-partner-timestamp': String(timestamp),
      'x-partner-nonce': n,
      'x-partner-signature': createHmac('sha256', key).update(canonical).digest('hex'),
      ...(body === undefined ? {} : { 'content-type': 'application/json' }),
    },
    ...(body === undefined ? {} : { body: text }),
  });
  return { status: r.status, body: (await r.json().catch(() => null)) as Record<string, unknown> | null };
}

describe('names in the real product', () => {
  it('register, link a DOGE address with proof of control, resolve, go private, transfer', async () => {
    const owner = testWallet();
    const token = await owner.signIn(s.url);
    const label = `e2e-${randomBytes(3).toString('hex')}`;
    expect((await post(s.url, '/api/names', { name: `${label}.coin` }, token)).status).toBe(201);
    const { address, ...link } = await linkDogeAddress(s.url, token, `${label}.coin`);
    expect([200, 201], JSON.stringify(link.body)).toContain(link.status);
    const r = await get(s.url, `/api/resolve/${label.toUpperCase()}.coin?asset=DOGE`);
    expect(r.status).toBe(200);
    expect(r.body).toMatchObject({ name: `${label}.coin`, asset: 'DOGE', address });
    expect((await get(s.url, `/api/resolve/${label}.coin?asset=LTC`)).body).toMatchObject({
      error: { code: 'ADDRESS_NOT_LINKED' },
    });
    expect((await get(s.url, `/api/resolve/${label}.coin?asset=doge`)).status).toBe(400);

    const missing = await fetch(`${s.url}/api/resolve/nobody-${label}.coin?asset=DOGE`);
    await fetch(s.url + `/api/names/${label}.coin`, {
      method: 'PATCH',
      headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
      body: JSON.stringify({ private: true }),
    });
    const priv = await fetch(`${s.url}/api/resolve/${label}.coin?asset=DOGE`);
    expect(priv.status).toBe(missing.status);
    expect(((await priv.json()) as { error: { code: string } }).error.code).toBe(
      ((await missing.json()) as { error: { code: string } }).error.code,
    );

    const heir = testWallet('p2pkh');
    expect(
      (await post(s.url, `/api/names/${label}.coin/transfer`, { toAddress: heir.address }, token)).status,
    ).toBe(200);
    const heirToken = await heir.signIn(s.url);
    const heirs = JSON.stringify((await get(s.url, '/api/names', heirToken)).body);
    expect(heirs).toContain(label);
    // The old owner no longer owns it; the name is still private, so it answers as if it did not exist.
    const back = await post(s.url, `/api/names/${label}.coin/transfer`, { toAddress: owner.address }, token);
    expect(back.status).toBe(404);
    expect(back.body).toMatchObject({ error: { code: 'NAME_NOT_FOUND' } });
  });

  it('both ways: a primary name set with proof is served by /api/reverse, survives kill -9; bulk resolution over REST and the graph', async () => {
    const owner = testWallet();
    let token = await owner.signIn(s.url);
    const label = `e2e-rev-${randomBytes(3).toString('hex')}`;
    const name = `${label}.coin`;
    expect((await post(s.url, '/api/names', { name }, token)).status).toBe(201);
    const doge = messageParams('DOGE');
    if (!doge) throw new Error('DOGE params');
    const key = randomBytes(32);
    const address = addressOf(doge, key, 'p2pkh');
    const prove = async (path: string) => {
      const c = (await post(s.url, `${path}/challenge`, { address }, token)).body as {
        challenge: string;
        nonce: string;
      };
      const r = await fetch(s.url + path, {
        method: 'PUT',
        headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
        body: JSON.stringify({ address, signature: signMessage(doge, key, c.challenge), nonce: c.nonce }),
      });
      return { status: r.status, body: (await r.json()) as Record<string, unknown> };
    };
    expect((await prove(`/api/names/${name}/addresses/DOGE`)).status).toBe(200);
    const set = await prove(`/api/names/${name}/primary/DOGE`);
    expect([set.status, set.body['name']]).toEqual([200, name]);
    // Acknowledged, then the process is killed: the record is there after a restart on the same store.
    await s.stop('SIGKILL');
    s = await startServe(
      { DATA_DIR: dataDir, DEMO_DAYS: '3', LOG_LEVEL: 'warn', ADMIN_TOKEN: ADMIN },
      60_000,
    );
    await waitForStatus(`${s.url}/healthz`, 200, 180_000);
    const rev = await get(s.url, `/api/reverse/${address}?asset=DOGE`);
    expect([rev.status, rev.body]).toEqual([
      200,
      { address, asset: 'DOGE', name, updatedAt: set.body['updatedAt'] },
    ]);
    const bulk = await post(s.url, '/api/resolve', {
      names: [
        { name, asset: 'DOGE' },
        { name: 'nobody-e2e.coin', asset: 'LTC' },
        { name: 'x', asset: 'LTC' },
      ],
    });
    expect((bulk.body as { results: { status: number }[] }).results.map((r) => r.status)).toEqual([
      200, 404, 400,
    ]);
    const g = await post(s.url, '/graphql', {
      query: `query ($a: String!) { resolveNames(names: [{ name: "${name}", asset: "DOGE" }]) { ... on NameResolution { address } }
        primaryName(address: $a, asset: "DOGE") { name } }`,
      variables: { a: address },
    });
    expect((g.body as { data: unknown }).data).toEqual({
      resolveNames: [{ address }],
      primaryName: { name },
    });
    // Private: never shown by its address.
    token = await owner.signIn(s.url);
    const priv = await fetch(`${s.url}/api/names/${name}`, {
      method: 'PATCH',
      headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
      body: JSON.stringify({ private: true }),
    });
    expect(priv.status).toBe(200);
    expect((await get(s.url, `/api/reverse/${address}?asset=DOGE`)).status).toBe(404);
  });

  it('a partner signs its requests with HMAC and a replayed nonce is refused', async () => {
    const created = await post(s.url, '/api/admin/partners', { name: 'Example Exchange' }, ADMIN);
    expect(created.status).toBe(201);
    const partner = created.body as { id: string; secret: string };
    const label = `px-${randomBytes(3).toString('hex')}`;
    const reg = await partnerFetch(partner, 'POST', '/api/partner/names', {
      name: `${label}.coin`,
      owner: 'user-42',
    });
    expect(reg.status).toBe(201);
    const ltc = messageParams('LTC');
    if (!ltc) throw new Error('LTC params');
    const address = addressOf(ltc, randomBytes(32), 'p2wpkh');
    const nonce = randomBytes(16).toString('hex');
    const link = await partnerFetch(
      partner,
      'PUT',
      `/api/partner/names/${label}.coin/addresses/LTC`,
      { address },
      nonce,
    );
    expect([200, 201]).toContain(link.status);
    expect((await get(s.url, `/api/resolve/${label}.coin?asset=LTC`)).body).toMatchObject({ address });
    const replay = await partnerFetch(
      partner,
      'PUT',
      `/api/partner/names/${label}.coin/addresses/LTC`,
      { address },
      nonce,
    );
    expect(replay.status).toBe(401);
    expect(replay.body).toMatchObject({ error: { code: 'PARTNER_REPLAY' } });
    const forged = await partnerFetch(
      { ...partner, secret: 'cwp_not-the-secret' },
      'POST',
      '/api/partner/names',
      { name: 'zzz.coin', owner: 'x' },
    );
    expect(forged.status).toBe(401);
  });
});

describe('bridge in the real product', () => {
  it('serves the active deployment and a reserve report a client can verify with the key from /api/config', async () => {
    const coins = await get(s.url, '/api/coins');
    expect(coins.status).toBe(200);
    const config = (await get(s.url, '/api/config')).body as {
      network: string;
      attestation: { publicKey: string };
    };
    expect(config.network).toBe('testnet');
    const por = (await get(s.url, '/api/proof-of-reserves')).body as {
      report: unknown;
      attestation: { signature: string };
      stale: boolean;
      dataAsOf: string;
    };
    // The demo report is signed at start from recorded chain data of 2026-01-01: honest about its age.
    expect(por.stale).toBe(Date.now() - Date.parse(por.dataAsOf) > 3_600_000);
    const canonical = (v: unknown): string =>
      Array.isArray(v)
        ? `[${v.map(canonical).join(',')}]`
        : v !== null && typeof v === 'object'
          ? `{${Object.keys(v)
              .sort()
              .map((k) => `${JSON.stringify(k)}:${canonical((v as Record<string, unknown>)[k])}`)
              .join(',')}}`
          : JSON.stringify(v);
    const pub = createPublicKey({
      key: {
        kty: 'OKP',
        crv: 'Ed25519',
        x: Buffer.from(config.attestation.publicKey, 'hex').toString('base64url'),
      },
      format: 'jwk',
    });
    const sig = Buffer.from(por.attestation.signature, 'hex');
    expect(verify(null, Buffer.from(canonical(por.report)), pub, sig)).toBe(true);
    const tampered = JSON.parse(JSON.stringify(por.report).replace(/"(\d+)"/, '"$19"')) as unknown;
    expect(verify(null, Buffer.from(canonical(tampered)), pub, sig)).toBe(false);
  });
});
