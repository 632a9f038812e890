import Fastify from 'fastify';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { ConfigError, identityOrigin, loadConfig, walletHostOrigins } from '../../src/config.ts';
import { buildProvider } from '../../src/rest/provider-build.ts';
import { providerRoute } from '../../src/rest/provider-route.ts';

const apps: { close(): Promise<unknown> }[] = [];
afterEach(async () => {
  for (const a of apps.splice(0)) await a.close();
});

async function app(opts?: Parameters<typeof providerRoute>[1]) {
  const a = Fastify();
  apps.push(a);
  await a.register(providerRoute, opts ?? {});
  await a.ready();
  return a;
}

describe('GET /provider.js', () => {
  it('serves the built script with its host and identity origins, cacheable, for any origin', async () => {
    const a = await app({ hostOrigins: ['https://w.example'], identityOrigin: 'https://names.example' });
    const r = await a.inject({ url: '/provider.js', headers: { origin: 'https://dapp.example' } });
    expect(r.statusCode).toBe(200);
    expect(r.headers['content-type']).toBe('text/javascript; charset=utf-8');
    expect(r.headers['cache-control']).toBe('public, max-age=300');
    expect(r.headers['access-control-allow-origin']).toBe('*');
    expect(r.headers['cross-origin-resource-policy']).toBe('cross-origin');
    expect(r.headers['x-content-type-options']).toBe('nosniff');
    expect(r.body).toContain('"https://w.example"');
    expect(r.body).toContain('"https://names.example"');
    expect(r.body).not.toContain('wallet.coinwallet.app');
    expect(r.body).not.toMatch(/^\s*(import|export)\b/m); // one classic script, no modules

    const etag = String(r.headers.etag);
    expect((await a.inject({ url: '/provider.js', headers: { 'if-none-match': etag } })).statusCode).toBe(
      304,
    );
    expect(
      (await a.inject({ url: '/provider.js', headers: { 'if-none-match': `W/${etag}` } })).statusCode,
    ).toBe(304);
    expect(
      (await a.inject({ url: '/provider.js', headers: { 'if-none-match': '"other"' } })).statusCode,
    ).toBe(200);
    const head = await a.inject({ method: 'HEAD', url: '/provider.js' });
    expect(head.statusCode).toBe(200);
    expect(head.headers.etag).toBe(etag);
  });

  it('serves the origins start-up read (WALLET_HOST_ORIGINS / IDENTITY_ORIGIN), never the environment', async () => {
    // Set in the environment, and still not used: the configuration reader is the only one (src/config.ts).
    vi.stubEnv('WALLET_HOST_ORIGINS', 'https://env.example');
    vi.stubEnv('IDENTITY_ORIGIN', 'https://env-names.example');
    try {
      const def = await (await app()).inject({ url: '/provider.js' });
      expect(def.body).toContain('"https://wallet.coinwallet.app"');
      expect(def.body).toContain('identityOrigin:null');
      expect(def.body).not.toContain('env.example');

      const cfg = loadConfig({
        WALLET_HOST_ORIGINS: 'https://a.example, https://b.example:8443',
        IDENTITY_ORIGIN: 'https://names.example',
      });
      const set = await (
        await app({ hostOrigins: cfg.walletHostOrigins, identityOrigin: cfg.identityOrigin })
      ).inject({ url: '/provider.js' });
      expect(set.body).toContain('["https://a.example","https://b.example:8443"]');
      expect(set.body).toContain('"https://names.example"');

      expect(() => loadConfig({ WALLET_HOST_ORIGINS: 'https://a.example/wallet' })).toThrow(ConfigError);
    } finally {
      vi.unstubAllEnvs();
    }
  });
});

describe('buildProvider', () => {
  it('caches one build per configuration', async () => {
    const a = buildProvider({ hostOrigins: ['https://x.example'] });
    expect(buildProvider({ hostOrigins: ['https://x.example'] })).toBe(a);
    expect(buildProvider({ hostOrigins: ['https://y.example'] })).not.toBe(a);
    expect(await a).toContain('coinwallet#initialized');
  });

  it.each(['https://x.example/', 'ftp://x.example', 'x.example', 'https://X.example'])(
    'refuses %s as an origin',
    (o) => {
      expect(() => buildProvider({ hostOrigins: [o] })).toThrow('is not an origin');
    },
  );
});

describe('configuration', () => {
  it('WALLET_HOST_ORIGINS: comma-separated origins, default https://wallet.coinwallet.app', () => {
    expect(loadConfig({}).walletHostOrigins).toEqual(['https://wallet.coinwallet.app']);
    expect(walletHostOrigins(' https://a.example ,https://b.example:8443,')).toEqual([
      'https://a.example',
      'https://b.example:8443',
    ]);
    expect(() => walletHostOrigins('https://a.example/x')).toThrow(
      /WALLET_HOST_ORIGINS: .* is not an origin/,
    );
    expect(() => walletHostOrigins('wallet.example')).toThrow(ConfigError);
  });

  it('IDENTITY_ORIGIN: an origin, default unset (the platform’s own origin)', () => {
    expect(loadConfig({}).identityOrigin).toBeUndefined();
    expect(loadConfig({ IDENTITY_ORIGIN: 'https://names.example' }).identityOrigin).toBe(
      'https://names.example',
    );
    expect(identityOrigin('')).toBeUndefined();
    expect(() => identityOrigin('https://names.example/')).toThrow(/IDENTITY_ORIGIN/);
  });
});
