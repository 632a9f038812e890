/**
 * `GET /provider.js`: the wallet provider script dapps load before the kit (docs/provider.md). Built once per
 * process by esbuild with the trusted wallet host origins (`WALLET_HOST_ORIGINS`) and the identity origin
 * (`IDENTITY_ORIGIN`, default: the origin the script is loaded from) baked in. Public, cacheable, any origin.
 */
import type { FastifyInstance } from 'fastify';
import { DEFAULT_WALLET_HOST_ORIGINS } from '../core/wallet-hosts.ts';
import { notModified, strongEtag } from '../core/conditional.ts';
import { buildProvider } from './provider-build.ts';

export interface ProviderRouteOptions {
  /** `WALLET_HOST_ORIGINS` as start-up read it (src/config.ts); default `DEFAULT_WALLET_HOST_ORIGINS`. */
  hostOrigins?: readonly string[];
  /** `IDENTITY_ORIGIN` as start-up read it; undefined (default) → the script's own origin. */
  identityOrigin?: string | undefined;
}

/** Browsers re-check after 5 minutes (the host origins are configuration and may change with a deployment). */
export const PROVIDER_MAX_AGE_S = 300;

export async function providerRoute(app: FastifyInstance, opts: ProviderRouteOptions = {}): Promise<void> {
  const hostOrigins = opts.hostOrigins ?? DEFAULT_WALLET_HOST_ORIGINS;
  const identity = opts.identityOrigin;
  let script: Promise<{ code: string; etag: string }> | undefined;
  const get = () =>
    (script ??= buildProvider({ hostOrigins, identityOrigin: identity ?? null }).then((code) => ({
      code,
      etag: strongEtag(code),
    })));

  app.get('/provider.js', async (req, reply) => {
    let s: { code: string; etag: string };
    try {
      s = await get();
    } catch (err) {
      script = undefined; // retried on the next request
      throw err;
    }
    void reply
      .header('access-control-allow-origin', '*')
      .header('cross-origin-resource-policy', 'cross-origin')
      .header('x-content-type-options', 'nosniff');
    return (
      notModified(req, reply, { etag: s.etag, cacheControl: `public, max-age=${PROVIDER_MAX_AGE_S}` }) ??
      reply.type('text/javascript; charset=utf-8').send(s.code)
    );
  });
}
