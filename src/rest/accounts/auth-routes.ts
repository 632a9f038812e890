import type { FastifyInstance } from 'fastify';
import type { AuthService } from '../../accounts/auth.ts';
import { parseBody } from '../../accounts/body.ts';
import type { BodySpec } from '../../accounts/body.ts';
import { bearerToken } from '../../core/bearer.ts';
import { guarded } from './guards-impl.ts';
import type { AuthGuards } from './guards.ts';

const CHALLENGE_BODY = { address: { type: 'string', required: true, max: 100 } } as const satisfies BodySpec;
const SESSION_BODY = {
  address: { type: 'string', required: true, max: 100 },
  signature: { type: 'string', required: true, max: 200 },
  /** The nonce of the challenge signed (recommended; else the address's newest open challenge is checked). */
  nonce: { type: 'string', max: 64 },
} as const satisfies BodySpec;

/** `POST /auth/challenge`, `POST /auth/session`, `POST /auth/logout` (under the plugin's `/api` prefix). */
export function registerAuthRoutes(
  app: FastifyInstance,
  opts: { auth: AuthService; guards: AuthGuards },
): void {
  // Counted per client IP before the body is read (`src/rest/api-limits.ts`).
  app.post('/auth/challenge', { config: { apiLimit: 'challenge' } }, async (req) => {
    const b = parseBody(req.body, CHALLENGE_BODY);
    return opts.auth.challenge(b.address);
  });

  app.post('/auth/session', { config: { apiLimit: 'sign-in' } }, async (req, reply) => {
    const b = parseBody(req.body, SESSION_BODY);
    const s = await opts.auth.signIn(b.address, b.signature, b.nonce);
    return reply.code(201).send({
      token: s.token,
      expiresAt: s.expiresAt,
      account: { id: s.account.id, address: s.account.address, role: s.account.role },
    });
  });

  // 401 unless the token is a current session.
  const signedIn = guarded((r) => opts.guards.account(r));
  app.post('/auth/logout', { onRequest: signedIn.onRequest }, async (req, reply) => {
    parseBody(req.body, {});
    await opts.auth.logout(bearerToken(req.headers.authorization) ?? '');
    return reply.code(204).send();
  });
}
