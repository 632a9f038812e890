import type { FastifyInstance } from 'fastify';
import type { AccountKeys } from '../../accounts/api-keys.ts';
import { PLANS } from '../../access/plans.ts';
import { parseBody } from '../../accounts/body.ts';
import type { BodySpec } from '../../accounts/body.ts';
import { guarded } from './guards-impl.ts';
import type { AuthGuards } from './guards.ts';

const CREATE_BODY = {
  description: { type: 'string', required: true, max: 500 },
  plan: { type: 'string', required: true, max: 20, oneOf: PLANS },
} as const satisfies BodySpec;
const REVOKE_BODY = { reason: { type: 'string', max: 500 } } as const satisfies BodySpec;

/** The signed-in account: `GET /account/me` and its API keys under `/account/api-keys`. */
export function registerKeyRoutes(
  app: FastifyInstance,
  opts: { keys: AccountKeys; guards: AuthGuards },
): void {
  const signedIn = guarded((r) => opts.guards.account(r));
  const route = { onRequest: signedIn.onRequest };

  app.get('/account/me', route, async (req) => {
    const a = signedIn.who(req);
    return { id: a.id, address: a.address, role: a.role, createdAt: a.createdAt };
  });

  app.post('/account/api-keys', route, async (req, reply) => {
    const b = parseBody(req.body, CREATE_BODY);
    const { key, record } = await opts.keys.create(signedIn.who(req), {
      plan: b.plan,
      description: b.description,
    });
    return reply.code(201).send({ ...record, key });
  });

  app.get('/account/api-keys', route, async (req) => opts.keys.list(signedIn.who(req)));

  app.get('/account/api-keys/:id', route, async (req) => opts.keys.get(signedIn.who(req), idOf(req.params)));

  app.post('/account/api-keys/:id/revoke', route, async (req) => {
    const b = parseBody(req.body, REVOKE_BODY);
    return opts.keys.revoke(signedIn.who(req), idOf(req.params), b.reason);
  });
}

export function idOf(params: unknown): string {
  return String((params as { id?: unknown }).id ?? '');
}
