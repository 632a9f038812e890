/**
 * Serves the web pages and widgets: `GET /portal` and `GET /admin` (an HTML shell + its bundle under `/web/`), and
 * `GET /widgets/mining-calculator.js` (embeddable on any site: CORS `*`). Everything is served by the product itself;
 * nothing is loaded from a CDN (the pages' Content-Security-Policy allows only this origin).
 *
 * The pages may be framed only by this origin and by the wallet hosts that run dapps in a frame: the wallet host
 * origins (`WALLET_HOST_ORIGINS`, default `https://wallet.coinwallet.app`) and loopback (the `coinwallet dapp-browser`
 * emulator, `http://127.0.0.1:*`, `http://localhost:*`), where the administrators' and developers' wallet sign-in
 * happens (docs/admin.md). CSP `frame-ancestors` says so; `X-Frame-Options: SAMEORIGIN` for browsers without CSP
 * level 2 (a browser that reads `frame-ancestors` ignores it).
 */
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { notModified, strongEtag } from '../../core/conditional.ts';
import { DEFAULT_WALLET_HOST_ORIGINS } from '../../core/wallet-hosts.ts';
import { webBundle } from './web-build.ts';
import type { WebEntry } from './web-build.ts';

const PAGES: Record<string, { entry: WebEntry; title: string; provider: boolean }> = {
  '/portal': { entry: 'portal', title: 'Coin Wallet · Developer API keys and dapps', provider: true },
  '/admin': { entry: 'admin', title: 'Coin Wallet · Administration', provider: true },
};

/** Loopback origins of the `coinwallet dapp-browser` emulator (CSP cannot name an IPv6 literal such as `[::1]`). */
const EMULATOR_FRAME_ANCESTORS = ['http://127.0.0.1:*', 'http://localhost:*'];

/** The pages' Content-Security-Policy: framed only by this origin, `walletHosts` and the emulator. */
export function pageCsp(walletHosts: readonly string[]): string {
  return [
    "default-src 'self'",
    "script-src 'self'",
    "style-src 'self' 'unsafe-inline'",
    "img-src 'self' data:",
    "connect-src 'self'",
    `frame-ancestors ${["'self'", ...walletHosts, ...EMULATOR_FRAME_ANCESTORS].join(' ')}`,
    "base-uri 'none'",
    "form-action 'none'",
  ].join('; ');
}

export interface WebRoutesOptions {
  /** Origins that may frame the pages (`WALLET_HOST_ORIGINS`, from start-up); default `DEFAULT_WALLET_HOST_ORIGINS`. */
  walletHosts?: readonly string[] | undefined;
}

function shell(title: string, entry: WebEntry, provider: boolean): string {
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${title}</title>
</head>
<body>
<div id="app"></div>
${provider ? '<script src="/provider.js"></script>\n' : ''}<script src="/web/${entry}.js"></script>
</body>
</html>
`;
}

function sendScript(req: FastifyRequest, reply: FastifyReply, code: string, cors: boolean): FastifyReply {
  void reply.header('x-content-type-options', 'nosniff');
  if (cors)
    void reply
      .header('access-control-allow-origin', '*')
      .header('cross-origin-resource-policy', 'cross-origin');
  return (
    notModified(req, reply, { etag: strongEtag(code), cacheControl: 'public, max-age=300' }) ??
    reply.type('text/javascript; charset=utf-8').send(code)
  );
}

export async function webRoutes(app: FastifyInstance, opts: WebRoutesOptions = {}): Promise<void> {
  const CSP = pageCsp(opts.walletHosts ?? DEFAULT_WALLET_HOST_ORIGINS);
  for (const [path, page] of Object.entries(PAGES)) {
    const html = shell(page.title, page.entry, page.provider);
    app.get(path, async (_req, reply) =>
      reply
        .header('content-type', 'text/html; charset=utf-8')
        .header('content-security-policy', CSP)
        .header('cache-control', 'no-cache')
        .header('x-frame-options', 'SAMEORIGIN')
        .header('x-content-type-options', 'nosniff')
        .header('referrer-policy', 'no-referrer')
        .send(html),
    );
    app.get(`/web/${page.entry}.js`, async (req, reply) =>
      sendScript(req, reply, await webBundle(page.entry), false),
    );
  }
  app.get('/widgets/mining-calculator.js', async (req, reply) =>
    sendScript(req, reply, await webBundle('mining-calculator'), true),
  );
}
