/** What every serving process of the benchmark shares: its API keys, the safelist and the Fastify app. */
import Fastify from 'fastify';
import type { FastifyInstance, FastifyServerOptions } from 'fastify';
import type { ApiKeyService } from '../../src/accounts/keys.ts';
import { registerErrorHandling } from '../../src/server/host/render.ts';
import { KEYS, QUERIES } from './config.ts';

/**
 * 100 approved enterprise keys at the highest per-key limit (10,000/min), the way `keys create` makes them (owned by
 * `ownerId` when given, as a signed-in account's keys are).
 */
export async function makeKeys(
  keys: ApiKeyService,
  ownerId?: string,
): Promise<{ key: string; id: string }[]> {
  const out: { key: string; id: string }[] = [];
  for (let k = 0; k < KEYS; k++) {
    const { key, record } = await keys.create({
      plan: 'enterprise',
      description: `bench ${k}`,
      approve: true,
      ownerId,
    });
    out.push({ key, id: record.id });
  }
  return out;
}

/** The safelist: exactly the two benchmark operations (persisted operations plugin in `safelist` mode). */
export const manifest = (): ReadonlyMap<string, string> => new Map(Object.entries(QUERIES));

export async function listen(app: FastifyInstance): Promise<string> {
  await app.listen({ port: 0, host: '127.0.0.1' });
  const addr = app.server.address();
  if (!addr || typeof addr !== 'object') throw new Error('no address');
  return `http://127.0.0.1:${addr.port}/graphql`;
}

/** As `startGraphPart`: a Fastify app with the product's error handling and body limit. */
export function fastifyApp(options: FastifyServerOptions = {}): FastifyInstance {
  const app = Fastify({
    ...options,
    bodyLimit: 1_048_576,
    // Off while measuring, as `serve --only …`; BENCH_LOG=1 shows why a probe failed.
    ...(process.env.BENCH_LOG ? { logger: { level: 'error' } } : {}),
  });
  registerErrorHandling(app);
  return app;
}
