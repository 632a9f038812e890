import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { Access, AccessGrant } from '../access/access.ts';
import { socketGone } from '../core/client-gone.ts';
import { noteRequest } from '../core/request-notes.ts';
import type { CallerPlan } from '../access/plans.ts';
import type { UsageSink } from '../access/usage.ts';
import type { AppPolicies } from '../accounts/app-policy.ts';
import { originRefusal } from '../accounts/app-policy.ts';

declare module 'fastify' {
  interface FastifyRequest {
    /** Set by the access hook on the paths it guards: the plan, rate-limit identity and key. Null elsewhere. */
    access: AccessGrant | null;
    /**
     * Set by the access hook on the paths it guards, admitted or refused: the plan the request counts under in the
     * usage statistics (a refused unknown key: `keyless`). Null elsewhere (not counted).
     */
    usagePlan: CallerPlan | null;
  }
}

export interface AccessHookOptions {
  /** Path prefixes the check applies to (`/v1/agg` guards `/v1/agg` and `/v1/agg/...`, not `/v1/aggx`). */
  prefixes: readonly string[];
  /**
   * Request statistics (`src/access/usage.ts`): every guarded request, admitted or refused, is counted under its plan
   * with the status it was answered with (an `onResponse` hook, after the answer is sent). The per-key counts are
   * the access layer's (`createAccess({ usage })`).
   */
  usage?: Pick<UsageSink, 'request'> | undefined;
  /**
   * The apps' allowed origins (docs/apps.md): an admitted key whose app lists origins, on a request whose `Origin` is
   * not one of them, is answered 403 `ORIGIN_NOT_ALLOWED`. Omitted → no origin rule.
   */
  origins?: AppPolicies | undefined;
}

/**
 * Installs the access check as an `onRequest` hook: for a URL under one of the prefixes (CORS preflights excepted),
 * runs `access.check`, puts the rate-limit headers on the reply, takes one of the caller's places in flight (waiting
 * its turn when all are taken; given back when the response ends, or the connection does) and on a denial answers
 * the status with the JSON error body before any route work. A client that leaves while its request waits is not
 * answered. Usage: `accessHook(access, { prefixes: ['/v1/agg'] })(app)`.
 */
export function accessHook(
  access: Pick<Access, 'check' | 'enter'>,
  opts: AccessHookOptions,
): (app: FastifyInstance) => void {
  const prefixes = opts.prefixes.map((p) => p.replace(/\/+$/, ''));
  const usage = opts.usage;
  const guards = (url: string): boolean => {
    const q = url.indexOf('?');
    const path = q < 0 ? url : url.slice(0, q);
    for (const p of prefixes) if (path === p || path.startsWith(p + '/')) return true;
    return false;
  };
  // The matched route pattern as well as the raw URL, so no spelling the router accepts slips past (the pattern is
  // read only when the URL is not under a prefix: Fastify builds the route's options anew at each read).
  const guarded = (req: FastifyRequest): boolean => {
    if (guards(req.url)) return true;
    const route = req.routeOptions.url;
    return route !== undefined && guards(route);
  };
  return (app) => {
    if (!app.hasRequestDecorator('access')) app.decorateRequest('access', null);
    if (!app.hasRequestDecorator('usagePlan')) app.decorateRequest('usagePlan', null);
    app.addHook('onRequest', async (req: FastifyRequest, reply: FastifyReply) => {
      if (isPreflight(req) || !guarded(req)) return;
      const d = await access.check({
        headers: req.headers,
        query: (req.query ?? {}) as Record<string, unknown>,
        socketIp: req.socket.remoteAddress ?? '',
      });
      void reply.headers(d.headers);
      req.usagePlan = d.plan ?? 'keyless';
      if (d.ok && d.key) noteRequest(req.raw, { keyId: d.key.id });
      else if (!d.ok) noteRequest(req.raw, { keyId: d.keyId, refusal: d.code });
      if (d.ok) {
        const refused =
          opts.origins && d.key
            ? originRefusal(await opts.origins.forKey(d.key.id), req.headers.origin)
            : null;
        if (refused) {
          noteRequest(req.raw, { refusal: refused.code });
          return reply.code(refused.status).send(refused.toBody());
        }
        const place = await access.enter(d, socketGone(req.raw.socket));
        if (place === null) return reply.hijack();
        if (typeof place === 'function') {
          // Gone between its turn and now: the response's `close` has passed, so the place is given back here.
          if (req.raw.socket.destroyed) {
            place();
            return reply.hijack();
          }
          req.access = d;
          reply.raw.once('close', place);
          return;
        }
        noteRequest(req.raw, { refusal: place.code });
        return reply.code(place.status).headers(place.headers).send(place.toBody());
      }
      return reply.code(d.status).send(d.toBody());
    });
    // Once per answered request, whatever answered it (the route, an error handler, the denial above); a request
    // this hook did not guard has no plan and is not counted. (Several hooks on one app: each counts its own.)
    if (usage)
      app.addHook('onResponse', (req: FastifyRequest, reply: FastifyReply, done: () => void) => {
        if (req.usagePlan !== null && guarded(req)) usage.request(req.usagePlan, reply.statusCode);
        done();
      });
  };
}

function isPreflight(req: FastifyRequest): boolean {
  return req.method === 'OPTIONS' && req.headers['access-control-request-method'] !== undefined;
}
