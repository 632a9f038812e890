/**
 * `GET /`: the landing page. HTML for a browser, JSON for `Accept: application/json`, by the client's preference
 * (`src/core/negotiate.ts`: q-values, then the more specific range, then the client's order; no `Accept` → HTML). A
 * client that accepts neither gets 406 `NOT_ACCEPTABLE` in the error shape of every other answer. Both forms carry a
 * strong ETag (304 on `If-None-Match`) and `Vary: Accept`; the HTML the pages' Content-Security-Policy.
 */
import { statSync } from 'node:fs';
import { join } from 'node:path';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { DEFAULT_WALLET_HOST_ORIGINS } from '../../core/wallet-hosts.ts';
import { preferredType } from '../../core/negotiate.ts';
import { kitPackages } from '../browser/kit-packages.ts';
import { DEFAULT_KITS_DIR } from '../browser/kit-route.ts';
import { pageCsp } from '../browser/web-route.ts';
import { sendEtagged } from '../etagged.ts';
import { serverErrors } from '../errors.ts';
import type { HealthOptions } from '../health.ts';
import { homeHtml } from './html.ts';
import { homeOf } from './model.ts';
import type { HomeOptions } from './model.ts';

export interface HomeRoutesOptions extends HomeOptions {
  dataset: HealthOptions['dataset'];
  /** Where the kits are built (as `kitRoutes`); default `dist/kits`. */
  kitsDir?: string | undefined;
  /** Origins that may frame the page (`WALLET_HOST_ORIGINS`, from start-up); default `DEFAULT_WALLET_HOST_ORIGINS`. */
  walletHosts?: readonly string[] | undefined;
}

/** The types `/` has, in the server's order of preference. */
const OFFERED = ['text/html', 'application/json'] as const;

/** A `Host` header that is a host name or address with an optional port, and nothing else. */
const HOST = /^(?:[a-z0-9.-]+|\[[0-9a-f:.]+\])(?::\d{1,5})?$/i;

function originOf(req: FastifyRequest): string | null {
  const host = req.headers.host;
  return host && HOST.test(host) ? `${req.protocol}://${host}` : null;
}

function builtKits(dir: string): Set<string> {
  const built = new Set<string>();
  for (const k of kitPackages()) {
    try {
      statSync(join(dir, k.dir, 'package.json'));
      built.add(k.dir);
    } catch {
      // not built
    }
  }
  return built;
}

export async function homeRoutes(app: FastifyInstance, opts: HomeRoutesOptions): Promise<void> {
  const csp = pageCsp(opts.walletHosts ?? DEFAULT_WALLET_HOST_ORIGINS);
  const kitsDir = opts.kitsDir ?? DEFAULT_KITS_DIR;
  app.get('/', async (req, reply) => {
    const type = preferredType(req.headers.accept, OFFERED);
    const vary = reply.getHeader('vary'); // CORS's `Origin`, when set
    void reply.header('vary', vary ? `${String(vary)}, Accept` : 'Accept');
    if (!type) throw serverErrors.notAcceptable(OFFERED);
    const home = homeOf(opts, {
      dataset: opts.dataset(),
      builtKits: builtKits(kitsDir),
      origin: originOf(req),
    });
    if (type === 'application/json')
      return sendEtagged(req, reply, JSON.stringify(home), 'application/json; charset=utf-8');
    void reply
      .header('content-security-policy', csp)
      .header('x-frame-options', 'SAMEORIGIN')
      .header('referrer-policy', 'no-referrer');
    return sendEtagged(req, reply, homeHtml(home), 'text/html; charset=utf-8');
  });
}
