import type { FastifyInstance } from 'fastify';
import type { ApiKeyService } from '../../access/keys.ts';
import type { Plan } from '../../access/plans.ts';
import { bearerMatches } from '../../admin/token.ts';
import { oneOf } from '../params.ts';
import type { Query } from '../params.ts';
import { adminErrors } from './errors.ts';

export interface AdminKeysOptions {
  keys: ApiKeyService;
  /** The operator token; null disables these endpoints (every call → 401). */
  adminToken: string | null;
}

const PLANS: readonly Plan[] = ['free', 'pro', 'enterprise'];
const STATUSES = ['pending', 'approved', 'rejected', 'revoked'] as const;

/**
 * Operator endpoints for API keys under `/api/admin/api-keys`, authenticated by the operator token. The CLI uses
 * them while the server runs (the embedded store has one writer: this process).
 */
export async function adminKeysApi(app: FastifyInstance, opts: AdminKeysOptions): Promise<void> {
  app.addHook('onRequest', async (req) => {
    if (!bearerMatches(req.headers.authorization, opts.adminToken)) throw adminErrors.unauthorized();
  });

  app.get('/api-keys', async (req) => {
    const status = oneOf(req.query as Query, 'status', STATUSES);
    return opts.keys.list(status ? { status } : {});
  });

  app.post('/api-keys', async (req, reply) => {
    const b = body(req.body);
    const plan = b.plan;
    if (typeof plan !== 'string' || !(PLANS as readonly string[]).includes(plan)) {
      throw adminErrors.badBody('plan', 'must be one of free, pro, enterprise');
    }
    const description = b.description ?? 'created by the operator';
    if (typeof description !== 'string') throw adminErrors.badBody('description', 'must be a string');
    const limit = optionalLimit(b.limitPerMinute);
    const approve = b.approve ?? false;
    if (typeof approve !== 'boolean') throw adminErrors.badBody('approve', 'must be true or false');
    const created = await opts.keys.create({
      plan: plan as Plan,
      description,
      approve,
      ...(limit !== undefined ? { limitPerMinute: limit } : {}),
    });
    return reply.code(201).send({ ...created.record, key: created.key });
  });

  app.post('/api-keys/:id/approve', async (req) => {
    const limit = optionalLimit(body(req.body ?? {}).limitPerMinute);
    return opts.keys.approve(param(req.params), limit !== undefined ? { limitPerMinute: limit } : {});
  });

  app.post('/api-keys/:id/reject', async (req) => {
    const reason = body(req.body).reason;
    if (typeof reason !== 'string' || reason.trim() === '')
      throw adminErrors.badBody('reason', 'is required: tell the owner why');
    return opts.keys.reject(param(req.params), reason);
  });

  app.post('/api-keys/:id/revoke', async (req) => opts.keys.revoke(param(req.params)));
}

function body(b: unknown): Record<string, unknown> {
  if (typeof b !== 'object' || b === null || Array.isArray(b))
    throw adminErrors.badBody('body', 'must be a JSON object');
  return b as Record<string, unknown>;
}

function param(p: unknown): string {
  return String((p as { id?: unknown }).id ?? '');
}

function optionalLimit(v: unknown): number | undefined {
  if (v === undefined || v === null) return undefined;
  if (typeof v !== 'number' || !Number.isInteger(v) || v < 1 || v > 10_000) {
    throw adminErrors.badBody('limitPerMinute', 'must be an integer from 1 to 10000');
  }
  return v;
}
