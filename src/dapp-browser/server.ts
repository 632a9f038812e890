/**
 * `coinwallet dapp-browser`: a local wallet host for developing dapps (docs/dapp-browser.md). A Fastify server on
 * loopback serves the host page (the dapp in a frame, the approval prompt) and the endpoints the page calls; the
 * development wallet and every decision live here (`host-core.ts`), so private keys never reach a browser.
 *
 * The endpoints only answer the page itself: a per-process token the page carries (other sites cannot read it, and
 * the custom header makes cross-site calls fail their CORS preflight), a loopback `Host` (no DNS rebinding) and, when
 * the browser sends one, a same-origin `Origin`.
 */
import { randomBytes, timingSafeEqual } from 'node:crypto';
import { projectPath } from '../core/project-root.ts';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { bundleBrowserScript } from '../rest/provider-build.ts';
import { createHttpHost } from '../server/host.ts';
import type { Params } from '../provider/protocol.ts';
import { DEFAULT_DEV_COINS, DEFAULT_DEV_SEED, DevWallet } from './dev-wallet.ts';
import { HostCore } from './host-core.ts';
import type { Platform } from './platform.ts';
import { HttpPlatform } from './platform.ts';
import { HOST_CSS, hostPageHtml } from './page.ts';
import { DEFAULT_API, DEFAULT_EMULATOR_PORT, DEFAULT_LKY_BALANCE } from './defaults.ts';
import { listenError } from '../core/listen.ts';

export const EMULATOR_VERSION = '1.0.0';
export { DEFAULT_API, DEFAULT_EMULATOR_PORT, DEFAULT_LKY_BALANCE } from './defaults.ts';

export interface DappBrowserOptions {
  /** The dapp to open (http or https URL). */
  dappUrl: string;
  /** Default {@link DEFAULT_EMULATOR_PORT}; 0 picks a free port. */
  port?: number;
  /** Loopback address to listen on; default 127.0.0.1. */
  host?: string;
  /** The platform (dapp store, bridge config, sign-in domain); default {@link DEFAULT_API}. */
  api?: string;
  /** Coins the development wallet holds; default LTC, DOGE, LKY, SOL. */
  coins?: readonly string[];
  seed?: string;
  allowUnlisted?: boolean;
  /** The origin allowed to call `id_connect`; default the platform's origin. */
  identityOrigin?: string;
  /** The domain the platform's sign-in challenges name (its `SIGN_IN_DOMAIN`); default the `api` host and port. */
  signInDomain?: string;
  /** Starting LKY balance in base units; default 100 LKY. */
  lkyBalance?: bigint;
  /** Substitute platform (tests); default HTTP calls to `api`. */
  platform?: Platform;
}

export interface DappBrowser {
  url: string;
  core: HostCore;
  wallet: DevWallet;
  app: FastifyInstance;
  close(): Promise<void>;
}

const HOST_PAGE_ENTRY = projectPath('src', 'dapp-browser', 'host-page.ts');
let hostScript: Promise<string> | undefined;

const LOOPBACK = new Set(['127.0.0.1', 'localhost', '[::1]', '::1']);

const CSP = [
  "default-src 'none'",
  "script-src 'self'",
  "style-src 'self'",
  "connect-src 'self'",
  "img-src 'self' data:",
  'frame-src http: https:',
  "frame-ancestors 'none'",
  "base-uri 'none'",
  "form-action 'none'",
].join('; ');

function checkUrl(v: string, what: string): URL {
  let u: URL;
  try {
    u = new URL(v);
  } catch {
    throw new Error(`${what} must be an http(s) URL, got ${JSON.stringify(v)}`);
  }
  if (u.protocol !== 'http:' && u.protocol !== 'https:') throw new Error(`${what} must be an http(s) URL`);
  return u;
}

export async function startDappBrowser(o: DappBrowserOptions): Promise<DappBrowser> {
  const dapp = checkUrl(o.dappUrl, 'the dapp URL');
  const host = o.host ?? '127.0.0.1';
  if (!LOOPBACK.has(host))
    throw new Error('the emulator listens on loopback only (127.0.0.1, localhost or ::1)');
  const platform = o.platform ?? new HttpPlatform(o.api ?? DEFAULT_API, { signInDomain: o.signInDomain });
  const identityOrigin = checkUrl(o.identityOrigin ?? platform.origin, '--identity-origin').origin;
  const wallet = new DevWallet(o.seed ?? DEFAULT_DEV_SEED, o.coins ?? DEFAULT_DEV_COINS);
  const core = new HostCore({
    wallet,
    platform,
    allowUnlisted: o.allowUnlisted ?? false,
    identityOrigin,
    lkyBalance: o.lkyBalance ?? DEFAULT_LKY_BALANCE,
  });
  const token = randomBytes(24).toString('base64url');
  const page = hostPageHtml({
    dappUrl: dapp.href,
    token,
    wallet: { name: 'Coin Wallet dapp browser (emulator)', version: EMULATOR_VERSION },
  });

  let port = 0;
  const app = await createHttpHost({
    bodyLimit: 262_144,
    // Its page's own calls only: no CORS (another site's call carrying the token header fails its preflight).
    cors: false,
    // Closing drops every connection: a browser's keep-alive socket (or a request in flight) must not hold a
    // stopping emulator open for the keep-alive timeout.
    forceCloseConnections: true,
    pages: (app) => hostRoutes(app, { token, page, core, port: () => port }),
  });

  try {
    await app.listen({ port: o.port ?? DEFAULT_EMULATOR_PORT, host });
  } catch (err) {
    await app.close();
    throw listenError(err, host, o.port ?? DEFAULT_EMULATOR_PORT, '--port');
  }
  const addr = app.server.address();
  port = typeof addr === 'object' && addr ? addr.port : (o.port ?? DEFAULT_EMULATOR_PORT);
  const urlHost = host === '::1' ? '[::1]' : host;
  return { url: `http://${urlHost}:${port}`, core, wallet, app, close: () => app.close() };
}

/** The host page, its script and style, and the endpoints it calls; every route for a loopback `Host` only. */
function hostRoutes(
  app: FastifyInstance,
  o: { token: string; page: string; core: HostCore; port: () => number },
): void {
  const { token, page, core } = o;
  // Every route: a loopback Host with our port (a rebound DNS name never reaches the page or its token).
  app.addHook('onRequest', async (req, reply) => {
    const h = req.headers.host ?? '';
    const i = h.lastIndexOf(':');
    if (i < 0 || !LOOPBACK.has(h.slice(0, i)) || h.slice(i + 1) !== String(o.port())) {
      return reply.code(421).send({
        error: {
          code: 'MISDIRECTED_REQUEST',
          message: `this emulator answers its loopback URL only: open the URL it printed (127.0.0.1, localhost or [::1], port ${o.port()})`,
        },
      });
    }
  });

  const guard = async (req: FastifyRequest, reply: FastifyReply) => {
    const t = req.headers['x-cw-emulator-token'];
    const ok =
      typeof t === 'string' &&
      t.length === token.length &&
      timingSafeEqual(Buffer.from(t), Buffer.from(token));
    const origin = req.headers.origin;
    if (!ok || (origin !== undefined && origin !== `http://${req.headers.host}`)) {
      return reply
        .code(403)
        .send({ error: { code: 'FORBIDDEN', message: 'only the host page may call this' } });
    }
  };

  app.get('/', async (_req, reply) =>
    reply
      .type('text/html; charset=utf-8')
      .header('cache-control', 'no-store')
      .header('content-security-policy', CSP)
      .header('x-frame-options', 'DENY')
      .header('referrer-policy', 'no-referrer')
      .send(page),
  );
  app.get('/host.css', async (_req, reply) =>
    reply.type('text/css; charset=utf-8').header('cache-control', 'no-store').send(HOST_CSS),
  );
  app.get('/host.js', async (_req, reply) => {
    hostScript ??= bundleBrowserScript(HOST_PAGE_ENTRY, { minify: false });
    let code: string;
    try {
      code = await hostScript;
    } catch (e) {
      hostScript = undefined;
      throw e;
    }
    return reply.type('text/javascript; charset=utf-8').header('cache-control', 'no-store').send(code);
  });

  app.get('/host/state', { preHandler: guard }, async () => core.state());
  app.post<{ Body: { origin?: unknown; method?: unknown; params?: unknown } }>(
    '/host/request',
    { preHandler: guard },
    async (req, reply) => {
      const b = req.body ?? {};
      if (typeof b.origin !== 'string' || typeof b.method !== 'string') {
        return reply
          .code(400)
          .send({ error: { code: 'INVALID_BODY', message: 'needs { origin, method, params? }' } });
      }
      const params = typeof b.params === 'object' && b.params !== null ? (b.params as Params) : undefined;
      return core.request(b.origin, b.method, params);
    },
  );
  app.post<{ Body: { promptId?: unknown; approve?: unknown } }>(
    '/host/decide',
    { preHandler: guard },
    async (req, reply) => {
      const b = req.body ?? {};
      if (typeof b.promptId !== 'string' || typeof b.approve !== 'boolean') {
        return reply
          .code(400)
          .send({ error: { code: 'INVALID_BODY', message: 'needs { promptId, approve }' } });
      }
      return core.decide(b.promptId, b.approve);
    },
  );
  app.post<{ Body: { origin?: unknown } }>('/host/revoke', { preHandler: guard }, async (req, reply) => {
    const b = req.body ?? {};
    if (typeof b.origin !== 'string') {
      return reply.code(400).send({ error: { code: 'INVALID_BODY', message: 'needs { origin }' } });
    }
    return { events: core.revoke(b.origin) };
  });
}
