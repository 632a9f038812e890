import Fastify from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { HttpPlatform, PlatformError, lkyDepositLane } from '../../src/dapp-browser/platform.ts';

const app = Fastify();
let base = '';
const seen: string[] = [];

beforeAll(async () => {
  app.get('/api/dapps/access', async (req) => {
    const origin = (req.query as { origin: string }).origin;
    seen.push(origin);
    return {
      origin,
      allowed: origin === 'https://listed.example',
      dappId: origin === 'https://listed.example' ? 'd1' : null,
    };
  });
  app.get('/api/config', async () => ({
    network: 'testnet',
    version: 'v1',
    lanes: [
      { id: 'lky-unwrap', asset: 'LKY', direction: 'unwrap', depositAddress: null },
      { id: 'lky-wrap', asset: 'LKY', direction: 'wrap', depositAddress: 'npyK' },
    ],
  }));
  base = await app.listen({ port: 0, host: '127.0.0.1' });
});
afterAll(() => app.close());

describe('HttpPlatform', () => {
  it('takes domain and origin from --api, or the sign-in domain when given', () => {
    expect(new HttpPlatform('http://127.0.0.1:4000/')).toMatchObject({
      domain: '127.0.0.1:4000',
      origin: 'http://127.0.0.1:4000',
    });
    expect(new HttpPlatform('https://api.example', { signInDomain: 'API.Example:8443' }).domain).toBe(
      'api.example:8443',
    );
    expect(() => new HttpPlatform('ftp://x.example')).toThrow('--api must be an http(s) URL');
  });

  it('asks the dapp store about the origin (encoded) and reads the bridge configuration', async () => {
    const p = new HttpPlatform(base);
    expect(await p.access('https://listed.example')).toEqual({ allowed: true, dappId: 'd1' });
    expect(await p.access('https://other.example/a?b=c&d')).toEqual({ allowed: false, dappId: null });
    expect(seen).toEqual(['https://listed.example', 'https://other.example/a?b=c&d']);
    const c = await p.bridgeConfig();
    expect(lkyDepositLane(c)?.id).toBe('lky-wrap');
  });

  it('a platform that fails or is not there is a PlatformError', async () => {
    await expect(new HttpPlatform(`${base}/nothing`).bridgeConfig()).rejects.toThrow(PlatformError);
    await expect(new HttpPlatform('http://127.0.0.1:1').access('https://x.example')).rejects.toThrow(
      PlatformError,
    );
  });
});
