/**
 * The things a docs example talks about (`cws_…`, `<id>`, `alice.coin`, …), made real on a running server.
 * One `DocWorld` per example: every example gets its own session, name, key and dapp, in the state the example's
 * action needs, so the examples do not depend on each other's order (a logout does not end the next example's session;
 * the fourth dapp submission is not refused by the 3-per-24-h rule).
 */
import { randomBytes } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { messageParams } from '../../src/crypto/chains.ts';
import { addressOf, signMessage } from '../../src/crypto/signed-message.ts';
import type { MessageAddressType } from '../../src/crypto/signed-message.ts';
import { get, post, testWallet } from '../support/wallet.ts';

type Reply = { status: number; body: unknown; headers: Headers };

function ok(r: Reply, what: string): Record<string, unknown> {
  if (r.status < 200 || r.status > 299)
    throw new Error(`setup: ${what}: ${r.status} ${JSON.stringify(r.body)}`);
  return r.body as Record<string, unknown>;
}

/** A key pair of `asset` (mainnet) that signs that coin's messages. */
function coinWallet(asset: string, type: MessageAddressType) {
  const params = messageParams(asset);
  if (!params) throw new Error(`no message parameters for ${asset}`);
  const key = randomBytes(32);
  return {
    address: addressOf(params, key, type),
    sign: (text: string) => signMessage(params, key, text, type),
  };
}

const label = (prefix: string) => `${prefix}-${randomBytes(4).toString('hex')}`;

/** Lazily created, memoised per example. */
export class DocWorld {
  private readonly memo = new Map<string, Promise<unknown>>();
  private readonly owner = testWallet('p2wpkh');
  /** The wallets of the addresses `ownName` linked, by ticker. */
  private readonly linked = new Map<string, ReturnType<typeof coinWallet>>();

  constructor(
    readonly url: string,
    readonly adminToken: string,
    /** The persisted-documents manifest the server was started with. */
    readonly manifest: string,
  ) {}

  private once<T>(key: string, make: () => Promise<T>): Promise<T> {
    if (!this.memo.has(key)) this.memo.set(key, make());
    return this.memo.get(key) as Promise<T>;
  }

  /**
   * The reader's session (`cws_…`). The README uses one `$T` for the account's own calls and for the admin calls
   * ("an admin session, or the operator token"), so its account is made an administrator.
   */
  session(): Promise<string> {
    return this.once('session', async () => {
      const token = await this.owner.signIn(this.url);
      ok(
        await post(this.url, '/api/admin/admins', { address: this.owner.address }, this.adminToken),
        'grant',
      );
      return token;
    });
  }

  /** A key of the reader's account, approved (`cw_live_…`, and the `<id>` a revoke needs). */
  approvedKey(): Promise<{ id: string; key: string }> {
    return this.once('approvedKey', async () => {
      const k = ok(
        await post(
          this.url,
          '/api/account/api-keys',
          { description: 'docs test', plan: 'pro' },
          await this.session(),
        ),
        'request a key',
      );
      ok(await post(this.url, `/api/admin/api-keys/${String(k.id)}/approve`, {}, this.adminToken), 'approve');
      return { id: String(k.id), key: String(k.key) };
    });
  }

  /** A key waiting for review. Enterprise: the approval examples set a custom limit, which only enterprise keys take. */
  pendingKeyId(): Promise<string> {
    return this.once('pendingKey', async () => {
      const token = await testWallet().signIn(this.url);
      const body = { description: 'docs test: pending', plan: 'enterprise' };
      return String(ok(await post(this.url, '/api/account/api-keys', body, token), 'request a key').id);
    });
  }

  /** A dapp listing request of another account (a fresh one: at most three requests per account and day). */
  submittedDappId(): Promise<string> {
    return this.once('submittedDapp', async () => {
      const token = await testWallet().signIn(this.url);
      const site = `https://${label('dapp')}.example`;
      const dapp = {
        name: 'Docs Test Dapp',
        site,
        icon: `${site}/icon.png`,
        description: 'A dapp the docs test submits.',
        contactEmail: 'team@dapp.example',
        chains: ['LTC'],
      };
      return String(ok(await post(this.url, '/api/account/dapps', dapp, token), 'submit a dapp').id);
    });
  }

  approvedDappId(): Promise<string> {
    return this.once('approvedDapp', async () => {
      const id = await this.submittedDappId();
      ok(await post(this.url, `/api/admin/dapps/${id}/approve`, {}, this.adminToken), 'approve the dapp');
      return id;
    });
  }

  /** A name nobody holds (for a registration). */
  freeName(): Promise<string> {
    return this.once('freeName', async () => `${label('docs')}.coin`);
  }

  /** The reader's name, public, with proven LTC and DOGE addresses linked. */
  ownName(): Promise<string> {
    return this.once('ownName', async () => {
      const name = await this.freeName();
      const token = await this.session();
      ok(await post(this.url, '/api/names', { name }, token), 'register');
      for (const [asset, type] of [
        ['LTC', 'p2wpkh'],
        ['DOGE', 'p2pkh'],
      ] as const) {
        const w = coinWallet(asset, type);
        this.linked.set(asset, w);
        const path = `/api/names/${name}/addresses/${asset}`;
        const c = ok(await post(this.url, `${path}/challenge`, { address: w.address }, token), 'challenge');
        const proof = { address: w.address, signature: w.sign(String(c.challenge)), nonce: String(c.nonce) };
        ok(await send(this.url, 'PUT', path, proof, token), `link ${asset}`);
      }
      return name;
    });
  }

  /**
   * The LTC address the reader's name links (`ltc1q…` in a primary-name or reverse example); when `primary`, the name
   * is made its primary name first, with the address's own signature (what `GET /api/reverse/…` then serves).
   */
  linkedLtcAddress(primary: boolean): Promise<string> {
    return this.once(`linkedLtc:${primary}`, async () => {
      const name = await this.ownName();
      const w = this.linked.get('LTC');
      if (!w) throw new Error('setup: the reader name has no LTC wallet');
      if (primary) {
        const token = await this.session();
        const path = `/api/names/${name}/primary/LTC`;
        const c = ok(
          await post(this.url, `${path}/challenge`, { address: w.address }, token),
          'primary challenge',
        );
        const proof = { address: w.address, signature: w.sign(String(c.challenge)), nonce: String(c.nonce) };
        ok(await send(this.url, 'PUT', path, proof, token), 'set the primary name');
      }
      return w.address;
    });
  }

  /** Another LTC address (`ltc1q…`): a name's transfer target must not be the reader. */
  ltcAddress(): Promise<string> {
    return this.once('ltc', async () => testWallet('p2wpkh').address);
  }

  /** A legacy LTC address (`L…`); already an administrator when `admin` (for the revoke example). */
  legacyAddress(admin: boolean): Promise<string> {
    return this.once('legacy', async () => {
      const address = testWallet('p2pkh').address;
      if (admin) ok(await post(this.url, '/api/admin/admins', { address }, this.adminToken), 'grant');
      return address;
    });
  }

  /** A DOGE address (`D…`), the same one for every mention in the example. */
  dogeAddress(): Promise<string> {
    return this.once('doge', async () => coinWallet('DOGE', 'p2pkh').address);
  }

  /** Another account's id (`toAccountId`). */
  otherAccountId(): Promise<string> {
    return this.once('otherAccount', async () => {
      const token = await testWallet().signIn(this.url);
      return String(ok(await get(this.url, '/api/account/me', token), 'me').id);
    });
  }

  /** The nonce of an open sign-in challenge for `address`. */
  signInNonce(address: string): Promise<string> {
    return this.once(`signIn:${address}`, async () => {
      return String(ok(await post(this.url, '/api/auth/challenge', { address }), 'challenge').nonce);
    });
  }

  /** The nonce of an open link challenge (`path` = `/api/names/{name}/addresses/{asset}`). */
  linkNonce(path: string, address: string): Promise<string> {
    return this.once(`link:${path}:${address}`, async () => {
      const c = await post(this.url, `${path}/challenge`, { address }, await this.session());
      return String(ok(c, 'link challenge').nonce);
    });
  }

  /** Partner credentials (`$PARTNER_ID`), created by the operator. */
  partner(): Promise<{ id: string; secret: string }> {
    return this.once('partner', async () => {
      const p = ok(
        await post(this.url, '/api/admin/partners', { name: 'Docs Test Exchange' }, this.adminToken),
        'partner',
      );
      return { id: String(p.id), secret: String(p.secret) };
    });
  }

  /** The ETag `url` answers now. */
  async etag(url: string): Promise<string> {
    const r = await fetch(url);
    const tag = r.headers.get('etag');
    if (!r.ok || !tag) throw new Error(`setup: no ETag from ${url} (${r.status})`);
    return tag;
  }
}

async function send(url: string, method: string, path: string, body: unknown, token: string): Promise<Reply> {
  const r = await fetch(url + path, {
    method,
    headers: { 'content-type': 'application/json', authorization: `Bearer ${token}` },
    body: JSON.stringify(body),
  });
  return { status: r.status, body: await r.json().catch(() => null), headers: r.headers };
}

/** The id of the one persisted document (of a client-preset manifest) that declares every variable in `variables`. */
export function documentIdFor(manifestPath: string, variables: Record<string, unknown>): string {
  const manifest = JSON.parse(readFileSync(manifestPath, 'utf8')) as Record<string, string>;
  const want = Object.keys(variables).join(', ');
  const ids = Object.entries(manifest)
    .filter(([, doc]) => {
      const declared = /\b(?:query|mutation|subscription)\s+\w+\s*\(([^)]*)\)/.exec(doc)?.[1] ?? '';
      const names = new Set([...declared.matchAll(/\$(\w+)\s*:/g)].map((m) => m[1]));
      return Object.keys(variables).every((v) => names.has(v));
    })
    .map(([id]) => id);
  if (ids.length !== 1) throw new Error(`${ids.length} documents of ${manifestPath} declare ${want}`);
  return ids[0]!.replace(/^sha256:/, '');
}
