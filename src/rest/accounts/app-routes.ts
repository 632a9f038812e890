/**
 * Apps and their trusted documents under `/account/apps` (docs/apps.md). Signed in with the session token, except
 * the publish and activate routes, which also take the app's publish token (`Authorization: Bearer cwp_…`), so a CI
 * job can publish without a wallet session.
 */
import type { FastifyError, FastifyInstance, FastifyRequest } from 'fastify';
import { appErrors, MANIFEST_MAX_BYTES } from '../../accounts/app-errors.ts';
import type { AppService, Publisher } from '../../accounts/apps.ts';
import { isPublishToken } from '../../accounts/apps.ts';
import { accountErrors } from '../../accounts/errors.ts';
import { bearerToken } from '../../core/bearer.ts';
import { paramErrors } from '../../core/params.ts';
import { guarded } from './guards-impl.ts';
import type { AuthGuards } from './guards.ts';

/**
 * A publish body carries the manifest as JSON or as its text (what the CLI sends, so the server judges the file as
 * written): room for the manifest's limit with JSON string escaping. Beyond: 413 `MANIFEST_TOO_LARGE`.
 */
const PUBLISH_BODY_LIMIT = 2 * MANIFEST_MAX_BYTES;

/** The fields of an object body; an unknown field or another type is 400 naming it. */
function fields<K extends string>(body: unknown, known: readonly K[]): Partial<Record<K, unknown>> {
  if (body === undefined || body === null) return {};
  if (typeof body !== 'object' || Array.isArray(body))
    throw accountErrors.invalidBody('body', 'must be a JSON object');
  for (const f of Object.keys(body))
    if (!(known as readonly string[]).includes(f)) throw accountErrors.unknownField(f, known);
  return body as Partial<Record<K, unknown>>;
}

const param = (req: FastifyRequest, name: string): string =>
  String((req.params as Record<string, unknown>)[name] ?? '');

export function registerAppRoutes(
  app: FastifyInstance,
  opts: { apps: AppService; guards: AuthGuards },
): void {
  const { apps } = opts;
  const signedIn = guarded((r) => opts.guards.account(r));
  const route = { onRequest: signedIn.onRequest };
  // A publish token, or else a session.
  const publisher = guarded(async (r): Promise<Publisher> => {
    const token = bearerToken(r.headers.authorization);
    if (token !== null && isPublishToken(token)) return { kind: 'token', token };
    return { kind: 'account', account: await opts.guards.account(r) };
  });

  app.post('/account/apps', route, async (req, reply) => {
    const b = fields(req.body, ['name', 'origins', 'keys']);
    const out = await apps.create(signedIn.who(req), { name: b.name, origins: b.origins, keys: b.keys });
    return reply.code(201).send({ ...out.app, publishToken: out.publishToken });
  });

  app.get('/account/apps', route, async (req) => apps.list(signedIn.who(req)));

  app.get('/account/apps/:app', route, async (req) => apps.get(signedIn.who(req), param(req, 'app')));

  // Usage per document (docs/apps.md, "Usage per document"): `?days=` 1–35, default 30.
  app.get('/account/apps/:app/usage', route, async (req) => {
    const q = req.query as Record<string, unknown>;
    if (Array.isArray(q['days'])) throw paramErrors.repeated('days');
    return apps.usage(signedIn.who(req), param(req, 'app'), q['days'] ?? 30);
  });

  app.put('/account/apps/:app/origins', route, async (req) => {
    const b = fields(req.body, ['origins']);
    return apps.setOrigins(signedIn.who(req), param(req, 'app'), b.origins ?? []);
  });

  app.put('/account/apps/:app/keys/:key', route, async (req) => {
    const b = fields(req.body, ['documents']);
    return apps.setKey(signedIn.who(req), param(req, 'app'), param(req, 'key'), b.documents ?? 'any');
  });

  app.post('/account/apps/:app/publish-token', route, async (req) =>
    apps.rotateToken(signedIn.who(req), param(req, 'app')),
  );

  // Publishing: in its own scope, so a body over the limit says so in the manifest's terms.
  void app.register(async (scope) => {
    scope.setErrorHandler((err: FastifyError) => {
      throw err.code === 'FST_ERR_CTP_BODY_TOO_LARGE' ? appErrors.manifestTooLarge() : err;
    });
    scope.post(
      '/account/apps/:app/versions',
      { onRequest: publisher.onRequest, bodyLimit: PUBLISH_BODY_LIMIT },
      async (req, reply) => {
        const b = fields(req.body, ['version', 'manifest', 'activate']);
        if (b.activate !== undefined && typeof b.activate !== 'boolean')
          throw accountErrors.invalidBody('activate', 'must be true or false');
        const v = await apps.publish(publisher.who(req), param(req, 'app'), {
          version: b.version,
          manifest: b.manifest,
          activate: b.activate,
        });
        return reply.code(201).send(v);
      },
    );
  });

  for (const [action, active] of [
    ['activate', true],
    ['deactivate', false],
  ] as const)
    app.post(
      `/account/apps/:app/versions/:version/${action}`,
      { onRequest: publisher.onRequest },
      async (req) => apps.setActive(publisher.who(req), param(req, 'app'), param(req, 'version'), active),
    );
}
