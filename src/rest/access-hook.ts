import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { Access, AccessGrant } from '../access/access.ts';

declare module 'fastify' {
  interface FastifyRequest {
    /** Set by the access hook on the paths it guards: the plan, rate-limit identity and key. Null elsewhere. */
    access: AccessGrant | null;
  }
}

export interface AccessHookOptions {
  /** Path prefixes the check applies to (`/v1/agg` guards `/v1/agg` and `/v1/agg/...`, not `/v1/aggx`). */
  prefixes: readonly string[];
}

/**
 * Installs the access check as an `onRequest` hook: for a URL under one of the prefixes (CORS preflights excepted),
 * runs `access.check`, puts the rate-limit headers on the reply, and on a denial answers the status with the JSON
 * error body before any route work. Usage: `accessHook(access, { prefixes: ['/v1/agg'] })(app)`.
 */
export function accessHook(
  access: Pick<Access, 'check'>,
  opts: AccessHookOptions,
): (app: FastifyInstance) => void {
  const prefixes = opts.prefixes.map((p) => p.replace(/\/+$/, ''));
  const guards = (url: string): boolean => {
    const path = url.split('?', 1)[0] ?? '';
    return prefixes.some((p) => path === p || path.startsWith(p + '/'));
  };
  return (app) => {
    if (!app.hasRequestDecorator('access')) app.decorateRequest('access', null);
    app.addHook('onRequest', async (req: FastifyRequest, reply: FastifyReply) => {
      // The matched route pattern as well as the raw URL, so no spelling the router accepts slips past.
      const route = req.routeOptions.url;
      if (isPreflight(req) || !(guards(req.url) || (route !== undefined && guards(route)))) return;
      const d = await access.check({
        headers: req.headers,
        query: (req.query ?? {}) as Record<string, unknown>,
        socketIp: req.socket.remoteAddress ?? '',
      });
      void reply.headers(d.headers);
      if (d.ok) {
        req.access = d;
        return;
      }
      return reply.code(d.status).send({ error: { code: d.code, message: d.message } });
    });
  };
}

function isPreflight(req: FastifyRequest): boolean {
  return req.method === 'OPTIONS' && req.headers['access-control-request-method'] !== undefined;
}
