/**
 * Mounts a {@link Router} on Fastify: GET and POST at `path` (default `/graphql`), and `GET <path>/health`.
 * Bodies of any media type reach the router, so Apollo Server's CSRF prevention (not Fastify's 415) answers a
 * "simple" cross-site request.
 */
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { Router } from './index.ts';

export async function mountRouter(app: FastifyInstance, router: Router, path = '/graphql'): Promise<void> {
  await app.register(async (scope) => {
    scope.addContentTypeParser('*', { parseAs: 'string' }, (_req, body, done) => done(null, body));
    const handler = async (req: FastifyRequest, reply: FastifyReply): Promise<void> => {
      const q = req.url.indexOf('?');
      const res = await router.handle({
        method: req.method,
        headers: req.headers,
        search: q === -1 ? '' : req.url.slice(q + 1),
        body: req.body,
        socketIp: req.socket.remoteAddress ?? '',
      });
      void reply.code(res.status).headers(res.headers).send(res.body);
    };
    scope.get(path, handler);
    scope.post(path, handler);
    scope.get(`${path}/health`, async (_req, reply) => {
      const h = router.health();
      return reply.code(h.status === 'UP' ? 200 : 503).send(h);
    });
  });
}
