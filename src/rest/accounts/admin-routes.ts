import type { FastifyInstance } from 'fastify';
import type { AccountService } from '../../accounts/account-service.ts';
import { KEY_STATUSES } from '../../access/key-repo.ts';
import type { ApiKeyService } from '../../accounts/keys.ts';
import { PLANS } from '../../access/plans.ts';
import { oneOf } from '../../core/params.ts';
import type { Query } from '../../core/params.ts';
import { parseBody } from '../../accounts/body.ts';
import type { BodySpec } from '../../accounts/body.ts';
import { guarded } from './guards-impl.ts';
import type { AuthGuards } from './guards.ts';
import { idOf } from './key-routes.ts';

const LIMIT = { type: 'integer', min: 1, max: 10_000 } as const;
const REASON = { type: 'string', max: 500 } as const;
const CREATE_BODY = {
  plan: { type: 'string', required: true, max: 20, oneOf: PLANS },
  description: { type: 'string', max: 500 },
  limitPerMinute: LIMIT,
  approve: { type: 'boolean' },
} as const satisfies BodySpec;
const APPROVE_BODY = { limitPerMinute: LIMIT, reason: REASON } as const satisfies BodySpec;
const REJECT_BODY = { reason: { ...REASON, required: true } } as const satisfies BodySpec;
const REVOKE_BODY = { reason: REASON } as const satisfies BodySpec;
const ROLE_BODY = {
  address: { type: 'string', required: true, max: 100 },
  reason: REASON,
} as const satisfies BodySpec;

/**
 * Administrator endpoints under `/admin`: the API-key review queue and operator key management (the CLI uses these
 * with the operator token), and the admin role. Each answers 401 without a session and 403 to a non-admin.
 */
export function registerAdminRoutes(
  app: FastifyInstance,
  opts: { keys: ApiKeyService; accounts: AccountService; guards: AuthGuards },
): void {
  const admin = guarded((r) => opts.guards.admin(r));
  const route = { onRequest: admin.onRequest };

  app.get('/admin/api-keys', route, async (req) => {
    const status = oneOf(req.query as Query, 'status', KEY_STATUSES);
    return opts.keys.list(status ? { status } : {});
  });

  app.get('/admin/api-keys/:id', route, async (req) => {
    return opts.keys.get(idOf(req.params));
  });

  // A key for no owner (operators and automation); `approve: true` skips the review.
  app.post('/admin/api-keys', route, async (req, reply) => {
    const actor = admin.who(req);
    const b = parseBody(req.body, CREATE_BODY);
    const created = await opts.keys.create({
      plan: b.plan,
      description: b.description ?? 'created by the operator',
      approve: b.approve ?? false,
      limitPerMinute: b.limitPerMinute,
      actor,
    });
    return reply.code(201).send({ ...created.record, key: created.key });
  });

  app.post('/admin/api-keys/:id/approve', route, async (req) => {
    const actor = admin.who(req);
    const b = parseBody(req.body, APPROVE_BODY);
    return opts.keys.approve(idOf(req.params), { limitPerMinute: b.limitPerMinute, reason: b.reason, actor });
  });

  app.post('/admin/api-keys/:id/reject', route, async (req) => {
    const actor = admin.who(req);
    const b = parseBody(req.body, REJECT_BODY);
    return opts.keys.reject(idOf(req.params), b.reason, { actor });
  });

  app.post('/admin/api-keys/:id/revoke', route, async (req) => {
    const actor = admin.who(req);
    const b = parseBody(req.body, REVOKE_BODY);
    return opts.keys.revoke(idOf(req.params), { reason: b.reason, actor });
  });

  app.get('/admin/admins', route, async () => {
    return (await opts.accounts.admins()).map(publicAccount);
  });

  // `coinwallet admin grant <address>`: the first administrator is named this way with the operator token.
  app.post('/admin/admins', route, async (req) => {
    const actor = admin.who(req);
    const b = parseBody(req.body, ROLE_BODY);
    const r = await opts.accounts.grantAdmin(b.address, actor, b.reason ?? null);
    return { ...publicAccount(r.account), changed: r.changed };
  });

  app.post('/admin/admins/revoke', route, async (req) => {
    const actor = admin.who(req);
    const b = parseBody(req.body, ROLE_BODY);
    const r = await opts.accounts.revokeAdmin(b.address, actor, b.reason ?? null);
    return { ...publicAccount(r.account), changed: r.changed };
  });
}

function publicAccount(a: { id: string; address: string; role: string; createdAt: number }) {
  return { id: a.id, address: a.address, role: a.role, createdAt: a.createdAt };
}
