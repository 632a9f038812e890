/**
 * Dapp routes (wiring only; the rules live in src/accounts/dapps.ts). Registered under `/api`:
 * - `POST|GET /account/dapps`: an account submits and lists its own listing requests;
 * - `GET /admin/dapps`, `POST /admin/dapps/:id/{approve,reject,delist}`: review;
 * - `GET /dapps` (the public store) and `GET /dapps/access?origin=` (the wallet's check), no authentication.
 */
import type { FastifyError, FastifyInstance, FastifyRequest, RouteShorthandOptions } from 'fastify';
import { DAPP_CHAINS, DAPP_STATUSES } from '../../accounts/dapps.ts';
import type { DappService } from '../../accounts/dapps.ts';
import { reviewBody } from '../../accounts/dapp-validate.ts';
import type { Account, Actor } from '../../accounts/types.ts';
import { int, oneOf, paramError, required, single } from '../../core/params.ts';
import type { Query } from '../../core/params.ts';
import { ACCOUNTS_BODY_LIMIT, accountErrors } from '../../accounts/errors.ts';
import type { AuthGuards } from './guards.ts';

export interface DappRoutesOptions {
  dapps: DappService;
  /** Authenticates `/account/...` (any signed-in account) and `/admin/...` (admins and the operator). */
  guards: AuthGuards;
}

/** `per_page` of the store and the admin list: 1 to 100, default 50. */
const PER_PAGE = { def: 50, max: 100 } as const;

export function registerDappRoutes(app: FastifyInstance, opts: DappRoutesOptions): void {
  const { dapps } = opts;
  // Who the guard let in, found in an onRequest hook: before the body is even read.
  const accounts = new WeakMap<FastifyRequest, Account>();
  const admins = new WeakMap<FastifyRequest, Actor>();
  const asAccount: RouteShorthandOptions = {
    ...withBody,
    onRequest: async (req) => {
      accounts.set(req, await opts.guards.account(req));
    },
  };
  const asAdmin: RouteShorthandOptions = {
    ...withBody,
    onRequest: async (req) => {
      admins.set(req, await opts.guards.admin(req));
    },
  };
  const account = (req: FastifyRequest) => accounts.get(req) as Account;
  const admin = (req: FastifyRequest) => admins.get(req) as Actor;

  app.post('/account/dapps', asAccount, async (req, reply) => {
    const created = await dapps.submit(account(req), req.body);
    return reply.code(201).send(created);
  });

  app.get('/account/dapps', asAccount, async (req) => dapps.listOwn(account(req).id));

  app.get('/admin/dapps', asAdmin, async (req) => {
    const q = req.query as Query;
    const status = oneOf(q, 'status', DAPP_STATUSES);
    return dapps.adminList(status, page(q));
  });

  app.post('/admin/dapps/:id/approve', asAdmin, async (req) => {
    const b = reviewBody(req.body);
    return dapps.approve(id(req), admin(req), b.notes as string | null | undefined);
  });

  app.post('/admin/dapps/:id/reject', asAdmin, async (req) =>
    dapps.reject(id(req), admin(req), reviewBody(req.body).notes as string),
  );

  app.post('/admin/dapps/:id/delist', asAdmin, async (req) =>
    dapps.delist(id(req), admin(req), reviewBody(req.body).notes as string),
  );

  const publicRoute = { config: { apiLimit: 'public' as const } };
  app.get('/dapps', publicRoute, async (req) => {
    const q = req.query as Query;
    return dapps.store({ ...page(q), chain: chain(q) });
  });

  app.get('/dapps/access', publicRoute, async (req, reply) => {
    const origin = required(req.query as Query, 'origin', 'the page origin, e.g. https://app.example.com');
    const r = await dapps.access(origin);
    if (!r) throw paramError('origin', 'must be an http:// or https:// URL such as https://app.example.com');
    // A delisting applies at once: no cache may keep an old answer.
    return reply.header('cache-control', 'no-store').send(r);
  });
}

const withBody: RouteShorthandOptions = {
  bodyLimit: ACCOUNTS_BODY_LIMIT,
  // The shared handler would name its own (larger) limit; everything else goes to it unchanged.
  errorHandler: (err: FastifyError) => {
    throw err.code === 'FST_ERR_CTP_BODY_TOO_LARGE' ? accountErrors.payloadTooLarge() : err;
  },
};

function page(q: Query): { page: number; perPage: number } {
  return {
    page: int(q, 'page', 1, 1, 1_000_000),
    perPage: int(q, 'per_page', PER_PAGE.def, 1, PER_PAGE.max),
  };
}

/** `chain=LTC` (any case) → `LTC`; absent → undefined. */
function chain(q: Query): string | undefined {
  const c = single(q, 'chain');
  if (c === undefined || c === '') return undefined;
  if (!DAPP_CHAINS.includes(c.toUpperCase()))
    throw paramError('chain', `must be one of ${DAPP_CHAINS.join(', ')}`);
  return c.toUpperCase();
}

function id(req: FastifyRequest): string {
  return String((req.params as { id?: unknown }).id ?? '');
}
