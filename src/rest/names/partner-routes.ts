/**
 * Partner routes (wiring only): `POST /admin/partners` (an administrator creates a credential) and the HMAC-signed
 * `POST /partner/names`, `PATCH /partner/names/:name`, `PUT|DELETE /partner/names/:name/addresses/:asset`,
 * `PUT|DELETE /partner/names/:name/primary/:asset`.
 *
 * This scope parses JSON itself so that the signature is checked over the exact bytes received; other content types
 * are refused (415), so no body can reach a handler without being covered by the signature.
 */
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { AuthGuards } from '../accounts/guards.ts';
import { guarded } from '../accounts/guards-impl.ts';
import { admitCaller, refusedCredentials } from '../api-limits.ts';
import type { ApiLimits } from '../api-limits.ts';
import { parseBody } from '../../accounts/body.ts';
import { ApiError } from '../../core/errors.ts';
import { utf8Body } from '../../core/utf8.ts';
import { nameErrors } from '../../names/errors.ts';
import type { PartnerRequest, PartnerService } from '../../names/partners.ts';
import type { NameService } from '../../names/service.ts';
import { param } from './account-routes.ts';

export interface PartnerRoutesOptions {
  names: NameService;
  /** Partner credentials and the check of signed requests (`src/services.ts`). */
  partners: PartnerService;
  guards: AuthGuards;
  /** Each signed request counts in its partner's `partner` bucket, each refused one in its IP's `sign-in` bucket. */
  limits?: ApiLimits | undefined;
}

export async function registerPartnerRoutes(app: FastifyInstance, o: PartnerRoutesOptions): Promise<void> {
  const raw = new WeakMap<FastifyRequest, Buffer>();
  app.removeAllContentTypeParsers();
  app.addContentTypeParser('application/json', { parseAs: 'buffer' }, (req, body: Buffer, done) => {
    raw.set(req, body);
    if (body.length === 0) return done(null, undefined);
    try {
      done(null, JSON.parse(utf8Body(body)));
    } catch (e) {
      done(e instanceof ApiError ? e : nameErrors.invalidJson(), undefined);
    }
  });

  const admin = guarded(o.guards.admin);
  app.post('/admin/partners', { onRequest: admin.onRequest }, async (req, reply) => {
    const b = parseBody(req.body, { name: { type: 'string', required: true, max: 100 } });
    const p = await o.partners.create(b.name, admin.who(req));
    return reply.code(201).send(p);
  });

  // Headers, clock and partner before the body is read; the signature and the nonce once it is.
  const seen = new WeakMap<FastifyRequest, PartnerRequest>();
  // A refusal (401) counts in the client IP's `sign-in` bucket: answered 429 once that is used up.
  const counted =
    (check: (req: FastifyRequest) => Promise<void>) =>
    async (req: FastifyRequest): Promise<void> => {
      try {
        await check(req);
      } catch (e) {
        throw await refusedCredentials(o.limits, req, e);
      }
    };
  const signed = {
    onRequest: counted(async (req) => {
      seen.set(req, await o.partners.identify(req.headers));
    }),
    preHandler: async (req: FastifyRequest) => {
      const s = seen.get(req);
      if (!s) throw new Error('partner route without its onRequest hook');
      await counted(() => o.partners.verify(s, req.method, req.url, raw.get(req) ?? ''))(req);
      await admitCaller(o.limits, 'partner', s.partner.id);
    },
  };
  const partnerId = (req: FastifyRequest) => (seen.get(req) as PartnerRequest).partner.id;
  const holder = (req: FastifyRequest) => ({ kind: 'partner' as const, partnerId: partnerId(req) });

  app.post('/partner/names', signed, async (req, reply) => {
    const b = parseBody(req.body, {
      name: { type: 'string', required: true, max: 100 },
      owner: { type: 'string', required: true, max: 200 },
    });
    return reply.code(201).send(await o.names.register(holder(req), b.name, b.owner));
  });

  app.patch('/partner/names/:name', signed, async (req) => {
    const b = parseBody(req.body, { private: { type: 'boolean', required: true } });
    return o.names.setPrivate(holder(req), param(req, 'name'), b.private);
  });

  app.put('/partner/names/:name/addresses/:asset', signed, async (req) => {
    const b = parseBody(req.body, { address: { type: 'string', required: true, max: 200 } });
    return o.names.linkCustodial(partnerId(req), param(req, 'name'), param(req, 'asset'), b.address);
  });

  app.delete('/partner/names/:name/addresses/:asset', signed, async (req) => {
    parseBody(req.body, {});
    return o.names.unlink(holder(req), param(req, 'name'), param(req, 'asset'));
  });

  app.put('/partner/names/:name/primary/:asset', signed, async (req) => {
    const b = parseBody(req.body, { address: { type: 'string', required: true, max: 200 } });
    return o.names.primary.setCustodial(partnerId(req), param(req, 'name'), param(req, 'asset'), b.address);
  });

  app.delete('/partner/names/:name/primary/:asset', signed, async (req) => {
    parseBody(req.body, {});
    return o.names.primary.clear(holder(req), param(req, 'name'), param(req, 'asset'));
  });
}
