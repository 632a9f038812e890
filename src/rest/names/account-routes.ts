/**
 * Routes of a signed-in wallet account's own names (wiring only; the rules live in src/names/service.ts):
 * `POST|GET /names`, `PATCH /names/:name`, `POST /names/:name/transfer`,
 * `POST /names/:name/addresses/:asset/challenge`, `PUT|DELETE /names/:name/addresses/:asset`,
 * `POST /names/:name/primary/:asset/challenge`, `PUT|DELETE /names/:name/primary/:asset`.
 */
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { NameService } from '../../names/service.ts';
import { nameErrors } from '../../names/errors.ts';
import { parseBody } from '../../accounts/body.ts';
import type { AuthGuards } from '../accounts/guards.ts';
import { guarded } from '../accounts/guards-impl.ts';

/** Longest name, address, signature and nonce accepted in a body (the rules themselves are checked after). */
const NAME_MAX = 100;
const ADDRESS_MAX = 200;

export function registerAccountNameRoutes(
  app: FastifyInstance,
  o: { names: NameService; guards: AuthGuards },
): void {
  const { names } = o;
  // The session is checked before the body is read: an anonymous caller gets 401, never a body error.
  const g = guarded(o.guards.account);
  const auth = { onRequest: g.onRequest };
  const me = (req: FastifyRequest) => ({ kind: 'account' as const, account: g.who(req) });

  app.post('/names', auth, async (req, reply) => {
    const b = parseBody(req.body, { name: { type: 'string', required: true, max: NAME_MAX } });
    return reply.code(201).send(await names.register(me(req), b.name));
  });

  app.get('/names', auth, async (req) => names.listOwn(g.who(req)));

  app.patch('/names/:name', auth, async (req) => {
    const b = parseBody(req.body, { private: { type: 'boolean', required: true } });
    return names.setPrivate(me(req), param(req, 'name'), b.private);
  });

  app.post('/names/:name/addresses/:asset/challenge', auth, async (req) => {
    const b = parseBody(req.body, { address: { type: 'string', required: true, max: ADDRESS_MAX } });
    return names.challenge(g.who(req), param(req, 'name'), param(req, 'asset'), b.address);
  });

  app.put('/names/:name/addresses/:asset', auth, async (req) => {
    const b = parseBody(req.body, {
      address: { type: 'string', required: true, max: ADDRESS_MAX },
      signature: { type: 'string', max: 200 },
      nonce: { type: 'string', max: 64 },
    });
    return names.linkProved(g.who(req), param(req, 'name'), param(req, 'asset'), b);
  });

  app.delete('/names/:name/addresses/:asset', auth, async (req) => {
    parseBody(req.body, {});
    return names.unlink(me(req), param(req, 'name'), param(req, 'asset'));
  });

  // Primary names (reverse resolution): the same proof as linking, over a challenge of its own.
  app.post('/names/:name/primary/:asset/challenge', auth, async (req) => {
    const b = parseBody(req.body, { address: { type: 'string', required: true, max: ADDRESS_MAX } });
    return names.primary.challenge(g.who(req), param(req, 'name'), param(req, 'asset'), b.address);
  });

  app.put('/names/:name/primary/:asset', auth, async (req) => {
    const b = parseBody(req.body, {
      address: { type: 'string', required: true, max: ADDRESS_MAX },
      signature: { type: 'string', max: 200 },
      nonce: { type: 'string', max: 64 },
    });
    return names.primary.setProved(g.who(req), param(req, 'name'), param(req, 'asset'), b);
  });

  app.delete('/names/:name/primary/:asset', auth, async (req) => {
    parseBody(req.body, {});
    return names.primary.clear(me(req), param(req, 'name'), param(req, 'asset'));
  });

  app.post('/names/:name/transfer', auth, async (req) => {
    const b = parseBody(req.body, {
      toAddress: { type: 'string', max: ADDRESS_MAX },
      toAccountId: { type: 'string', max: 64 },
    });
    if ((b.toAddress === undefined) === (b.toAccountId === undefined)) throw nameErrors.transferTarget();
    const target =
      b.toAddress !== undefined ? { toAddress: b.toAddress } : { toAccountId: b.toAccountId ?? '' };
    return names.transfer(g.who(req), param(req, 'name'), target);
  });
}

/** A path parameter as text (Fastify has already percent-decoded it). */
export function param(req: FastifyRequest, key: string): string {
  return String((req.params as Record<string, unknown>)[key] ?? '');
}
