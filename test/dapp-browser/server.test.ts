import { request } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Platform } from '../../src/dapp-browser/platform.ts';
import type { DappBrowser } from '../../src/dapp-browser/server.ts';
import { startDappBrowser } from '../../src/dapp-browser/server.ts';

const platform: Platform = {
  domain: '127.0.0.1:4000',
  origin: 'http://127.0.0.1:4000',
  access: async () => ({ allowed: true, dappId: 'd' }),
  bridgeConfig: async () => ({ network: 'testnet', version: 'v', lanes: [] }),
};

let emu: DappBrowser;
let token = '';

/** A raw request (fetch cannot set Host). */
function raw(
  path: string,
  o: { method?: string; headers?: Record<string, string>; body?: unknown } = {},
): Promise<{ status: number; headers: Record<string, unknown>; body: string }> {
  const u = new URL(emu.url);
  return new Promise((resolve, reject) => {
    const req = request(
      { host: u.hostname, port: u.port, path, method: o.method ?? 'GET', headers: o.headers },
      (res) => {
        let body = '';
        res.on('data', (d: Buffer) => (body += d.toString()));
        res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body }));
      },
    );
    req.on('error', reject);
    if (o.body !== undefined) req.end(JSON.stringify(o.body));
    else req.end();
  });
}

const json = { 'content-type': 'application/json' };

beforeAll(async () => {
  emu = await startDappBrowser({ dappUrl: 'http://localhost:5173/app?x=<b>', port: 0, platform });
  const page = await raw('/');
  token = (
    JSON.parse(
      /<script type="application\/json" id="cw-config">(.*?)<\/script>/.exec(page.body)?.[1] ?? '{}',
    ) as {
      token: string;
    }
  ).token;
});
afterAll(() => emu.close());

describe('emulator server', () => {
  it('serves the host page with a strict CSP, unframeable, with the dapp URL escaped', async () => {
    const r = await raw('/');
    expect(r.status).toBe(200);
    expect(String(r.headers['content-security-policy'])).toContain("frame-ancestors 'none'");
    expect(String(r.headers['content-security-policy'])).toContain("script-src 'self'");
    expect(r.headers['x-frame-options']).toBe('DENY');
    expect(r.body).toContain('data-testid="approve"');
    expect(r.body).toContain('data-testid="reject"');
    expect(r.body).not.toContain('<b>');
    expect(token).toMatch(/^[\w-]{32}$/);
    const js = await raw('/host.js');
    expect(js.headers['content-type']).toBe('text/javascript; charset=utf-8');
    expect(js.body).toContain('cw-config');
  });

  it('answers the host page (token) only', async () => {
    expect((await raw('/host/state')).status).toBe(403);
    expect((await raw('/host/state', { headers: { 'x-cw-emulator-token': 'x'.repeat(32) } })).status).toBe(
      403,
    );
    const ok = await raw('/host/state', { headers: { 'x-cw-emulator-token': token } });
    expect(ok.status).toBe(200);
    expect(JSON.parse(ok.body)).toMatchObject({
      allowUnlisted: false,
      identityOrigin: 'http://127.0.0.1:4000',
    });
    const foreign = await raw('/host/request', {
      method: 'POST',
      headers: { ...json, 'x-cw-emulator-token': token, origin: 'https://evil.example' },
      body: { origin: 'https://dapp.example', method: 'wallet_connect', params: { tickers: ['LTC'] } },
    });
    expect(foreign.status).toBe(403);
  });

  it('refuses a Host that is not its loopback address and port (DNS rebinding)', async () => {
    const port = new URL(emu.url).port;
    expect((await raw('/', { headers: { host: `rebound.example:${port}` } })).status).toBe(421);
    expect((await raw('/', { headers: { host: '127.0.0.1:1' } })).status).toBe(421);
    expect((await raw('/', { headers: { host: `localhost:${port}` } })).status).toBe(200);
  });

  it('relays requests and decisions to the host core', async () => {
    const h = { ...json, 'x-cw-emulator-token': token };
    const r = await raw('/host/request', {
      method: 'POST',
      headers: h,
      body: { origin: 'https://dapp.example', method: 'wallet_connect', params: { tickers: ['LTC'] } },
    });
    const prompt = (JSON.parse(r.body) as { prompt: { id: string } }).prompt;
    expect(prompt.id).toMatch(/^[0-9a-f-]{36}$/);
    const d = await raw('/host/decide', {
      method: 'POST',
      headers: h,
      body: { promptId: prompt.id, approve: false },
    });
    expect(JSON.parse(d.body)).toMatchObject({ error: { code: 4001 } });
    expect((await raw('/host/decide', { method: 'POST', headers: h, body: { promptId: 1 } })).status).toBe(
      400,
    );
    expect((await raw('/host/request', { method: 'POST', headers: h, body: { method: 'x' } })).status).toBe(
      400,
    );
    const rv = await raw('/host/revoke', {
      method: 'POST',
      headers: h,
      body: { origin: 'https://dapp.example' },
    });
    expect(JSON.parse(rv.body)).toEqual({ events: [] });
  });

  it('listens on loopback only', async () => {
    await expect(
      startDappBrowser({ dappUrl: 'http://x.example', port: 0, host: '0.0.0.0', platform }),
    ).rejects.toThrow('loopback only');
    await expect(startDappBrowser({ dappUrl: 'file:///etc/passwd', port: 0, platform })).rejects.toThrow(
      'http(s) URL',
    );
  });
});
