/**
 * Dapp listings cannot carry markup or mislead, through the real REST API: the product started from its
 * configuration, over HTTP on loopback, a wallet signed in with a real signature. URLs must be exactly what the URL
 * parser writes and free of quotes, spaces and control characters; sites and icons on loopback, private or
 * link-local hosts are refused unless `DAPP_ALLOW_PRIVATE_URLS=1`; names and descriptions refuse direction
 * overrides and invisible characters (the joiners of emoji sequences and of scripts that need them excepted).
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../../src/config.ts';
import { startProduct } from '../../src/start/product.ts';
import type { Product } from '../../src/start/product.ts';
import { post, testWallet } from '../support/wallet.ts';

interface Server {
  url: string;
  product: Product;
  dir: string;
}

async function start(env: Record<string, string> = {}): Promise<Server> {
  const dir = await mkdtemp(join(tmpdir(), 'cw-dapp-input-'));
  const quiet = { info: () => {}, warn: () => {}, error: () => {} };
  const cfg = loadConfig({
    PORT: '0',
    HOST: '127.0.0.1',
    DATA_DIR: dir,
    DEMO: 'off',
    LOG_LEVEL: 'silent',
    ...env,
  });
  const product = await startProduct(cfg, { log: quiet });
  await product.ready;
  return { url: product.url, product, dir };
}

let strict: Server;
let dev: Server;
beforeAll(async () => {
  [strict, dev] = await Promise.all([start(), start({ DAPP_ALLOW_PRIVATE_URLS: '1' })]);
}, 120_000);
afterAll(async () => {
  for (const s of [strict, dev]) {
    if (!s) continue;
    await s.product.close();
    await rm(s.dir, { recursive: true, force: true });
  }
});

const body = (over: Record<string, unknown> = {}) => ({
  name: 'Harbor Swap',
  site: 'https://harbor.example/app',
  icon: 'https://cdn.harbor.example/icon.png',
  description: 'Swap coins in the harbor.',
  contactEmail: 'dev@harbor.example',
  chains: ['LTC'],
  ...over,
});

/** One signed-in wallet per server for the refusals (a refused request does not count against its three a day). */
const refusing = new Map<Server, Promise<string>>();

/** A listing request: from a newly signed-in wallet when it may be accepted (`fresh`), else the refusing wallet. */
async function submit(s: Server, over: Record<string, unknown>, fresh = true) {
  let token: Promise<string> | undefined = fresh ? undefined : refusing.get(s);
  if (!token) {
    token = testWallet().signIn(s.url);
    if (!fresh) refusing.set(s, token);
  }
  const r = await post(s.url, '/api/account/dapps', body(over), await token);
  return {
    status: r.status,
    body: r.body as { error?: { code: string; message: string } } & Record<string, unknown>,
  };
}

async function refused(s: Server, over: Record<string, unknown>, code: string, message: RegExp) {
  const r = await submit(s, over, false);
  expect(r.status, JSON.stringify(r.body)).toBe(400);
  expect(r.body.error?.code).toBe(code);
  expect(r.body.error?.message).toMatch(message);
}

describe('URLs are what the URL parser writes, without quotes, spaces or controls', () => {
  const QUOTES = /^(site|icon) must not contain quotes, spaces or control characters$/;
  const cases: [string, Record<string, unknown>, string, RegExp][] = [
    ['a " in the icon', { icon: 'https://x.com/i.png"onerror="alert(1)' }, 'INVALID_ICON', QUOTES],
    ["a ' in the site", { site: "https://x.com/it's" }, 'INVALID_SITE', QUOTES],
    ['a tab in the site', { site: 'https://x.com/a\tb' }, 'INVALID_SITE', QUOTES],
    ['a line feed at the end', { site: 'https://x.com/\n' }, 'INVALID_SITE', QUOTES],
    ['U+0085 (NEL)', { icon: 'https://x.com/\u0085' }, 'INVALID_ICON', QUOTES],
    [
      'an uppercase host',
      { site: 'https://Harbor.Example/app' },
      'INVALID_SITE',
      /^site must be written as a URL parser writes it \(.*\): https:\/\/harbor\.example\/app$/,
    ],
    [
      'an IDN host (its punycode is what a browser shows)',
      { site: 'https://bücher.example/' },
      'INVALID_SITE',
      /: https:\/\/xn--bcher-kva\.example\/$/,
    ],
    [
      'the default port',
      { site: 'https://harbor.example:443/' },
      'INVALID_SITE',
      /: https:\/\/harbor\.example\/$/,
    ],
    [
      'dot segments',
      { site: 'https://harbor.example/a/../b' },
      'INVALID_SITE',
      /: https:\/\/harbor\.example\/b$/,
    ],
    ['markup in the path', { icon: 'https://x.com/<svg>' }, 'INVALID_ICON', /: https:\/\/x\.com\/%3Csvg%3E$/],
    ['backslashes', { site: 'https:\\\\harbor.example\\' }, 'INVALID_SITE', /: https:\/\/harbor\.example\/$/],
    [
      'a decimal IPv4 address',
      { site: 'https://2130706433/' },
      'INVALID_SITE',
      /: https:\/\/127\.0\.0\.1\/$/,
    ],
  ];
  for (const [what, over, code, message] of cases)
    it(what, async () => {
      await refused(strict, over, code, message);
    });

  it('a bare origin (no path) is accepted and kept as sent; markup in text is stored as text', async () => {
    const r = await submit(strict, {
      site: 'https://harbor.example',
      description: '<img src=x onerror=alert(1)>',
    });
    expect(r.status, JSON.stringify(r.body)).toBe(201);
    expect(r.body).toMatchObject({
      site: 'https://harbor.example',
      origin: 'https://harbor.example',
      description: '<img src=x onerror=alert(1)>',
    });
  });
});

describe('sites and icons on non-public hosts', () => {
  const hosts: [string, string][] = [
    ['https://[::1]/', '[::1] is a loopback address'],
    ['https://localhost:4441/', 'localhost is a loopback host name'],
    ['https://app.localhost/', 'app.localhost is a loopback host name'],
    ['https://127.0.0.2/', '127.0.0.2 is a loopback address'],
    ['https://10.1.2.3/', '10.1.2.3 is a private address'],
    ['https://172.31.255.1/', '172.31.255.1 is a private address'],
    ['https://192.168.1.1/', '192.168.1.1 is a private address'],
    ['https://169.254.169.254/latest/meta-data/', '169.254.169.254 is a link-local address'],
    ['https://[fe80::1]/', '[fe80::1] is a link-local address'],
    ['https://[fd12:3456::1]/', '[fd12:3456::1] is a private (unique local) address'],
    ['https://[::ffff:7f00:1]/', '[::ffff:7f00:1] is a loopback address'],
    ['https://0.0.0.0/', '0.0.0.0 is an unspecified address'],
    ['https://printer.local/', 'printer.local is a local network name'],
    ['https://intranet/', 'intranet is a name without a domain (an intranet name)'],
  ];
  for (const [url, why] of hosts)
    it(`${url} is refused`, async () => {
      const expected = new RegExp(
        `^site must be on a public host: ${why.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}$`,
      );
      await refused(strict, { site: url }, 'INVALID_SITE', expected);
    });

  it('an icon too; public addresses and names are fine', async () => {
    await refused(
      strict,
      { icon: 'https://127.0.0.1/i.png' },
      'INVALID_ICON',
      /^icon must be on a public host/,
    );
    const ok = await submit(strict, { site: 'https://172.32.0.1/', icon: 'https://[2001:db8::1]/i.png' });
    expect(ok.status, JSON.stringify(ok.body)).toBe(201);
  });

  it('are accepted with DAPP_ALLOW_PRIVATE_URLS=1 (development), the other rules unchanged', async () => {
    const r = await submit(dev, { site: 'https://localhost:4441/', icon: 'https://[::1]/i.png' });
    expect(r.status, JSON.stringify(r.body)).toBe(201);
    expect(r.body).toMatchObject({ site: 'https://localhost:4441/', origin: 'https://localhost:4441' });
    await refused(dev, { icon: 'https://127.0.0.1/i.png"x' }, 'INVALID_ICON', /quotes/);
    await refused(dev, { site: 'https://LOCALHOST/' }, 'INVALID_SITE', /: https:\/\/localhost\/$/);
  });
});

describe('names and descriptions refuse direction overrides and invisible characters', () => {
  const INVISIBLE = (field: string, cp: string, at: number) =>
    new RegExp(
      `^${field} must not contain invisible or direction-changing characters \\(found ${cp} at character ${at}\\)`,
    );
  const cases: [string, Record<string, unknown>, string, RegExp][] = [
    ['U+202E in a name', { name: 'Harbor \u202Egnp.exe' }, 'INVALID_NAME', INVISIBLE('name', 'U\\+202E', 8)],
    [
      'U+202A in a description',
      { description: 'a\u202Ab' },
      'INVALID_DESCRIPTION',
      INVISIBLE('description', 'U\\+202A', 2),
    ],
    ['U+2066 (isolate)', { name: '\u2066Harbor' }, 'INVALID_NAME', INVISIBLE('name', 'U\\+2066', 1)],
    ['U+200F (RLM)', { name: 'Harbor\u200F' }, 'INVALID_NAME', INVISIBLE('name', 'U\\+200F', 7)],
    ['U+200B (zero-width space)', { name: 'Har\u200Bbor' }, 'INVALID_NAME', INVISIBLE('name', 'U\\+200B', 4)],
    ['U+FEFF', { description: '\uFEFFSwap' }, 'INVALID_DESCRIPTION', INVISIBLE('description', 'U\\+FEFF', 1)],
    ['U+2028 (line separator)', { name: 'a\u2028b' }, 'INVALID_NAME', INVISIBLE('name', 'U\\+2028', 2)],
    ['U+3164 (Hangul filler)', { name: '\u3164' }, 'INVALID_NAME', INVISIBLE('name', 'U\\+3164', 1)],
    ['a ZWJ between letters', { name: 'a\u200Db' }, 'INVALID_NAME', INVISIBLE('name', 'U\\+200D', 2)],
    [
      'after an emoji, counted in characters',
      { name: '🚀\u202E' },
      'INVALID_NAME',
      INVISIBLE('name', 'U\\+202E', 2),
    ],
  ];
  for (const [what, over, code, message] of cases)
    it(what, async () => {
      await refused(strict, over, code, message);
    });

  it('the joiners of emoji sequences and of scripts are kept', async () => {
    const name = '👩\u200D💻 Harbor 👋🏽\u200D';
    await refused(strict, { name }, 'INVALID_NAME', INVISIBLE('name', 'U\\+200D', 14));
    const ok = await submit(strict, { name: '👩\u200D💻 Harbor 🏳️\u200D🌈', description: 'می\u200Cخواهم' });
    expect(ok.status, JSON.stringify(ok.body)).toBe(201);
    expect(ok.body).toMatchObject({ name: '👩\u200D💻 Harbor 🏳️\u200D🌈', description: 'می\u200Cخواهم' });
  });
});
