/**
 * The bridge read API, a Fastify plugin registered under `/api`: `/coins`, `/config` and `/proof-of-reserves` of
 * the active deployment, as the bridge service (`src/bridge/service.ts`) reads them. Read-only: deposits and
 * withdrawals happen only through the wallet's bridge flow. See docs/bridge.md.
 */
import type { FastifyInstance } from 'fastify';
import { ipLimitHook } from '../api-limits.ts';
import type { ApiLimits } from '../api-limits.ts';
import type { BridgeService } from '../../bridge/service.ts';
import { sendJson } from './http.ts';

export interface BridgeApiOptions {
  /** The bridge service of the active deployment (`src/services.ts`: the one instance of the process). */
  bridge: BridgeService;
  /** The `/api` rate limits (`src/rest/api-limits.ts`); omitted → none. */
  limits?: ApiLimits | undefined;
}

/** Every route is public: counted in the client IP's `public` bucket when limits are on (`src/rest/api-limits.ts`). */
const PUBLIC = { apiLimit: 'public' } as const;

/** Cache lifetimes (seconds): lane terms change rarely; deposit addresses and pauses must not linger long. */
const MAX_AGE = { coins: 300, config: 60, reserves: 60 };

export async function bridgeApi(app: FastifyInstance, opts: BridgeApiOptions): Promise<void> {
  const { bridge } = opts;
  if (opts.limits) app.addHook('onRequest', ipLimitHook(opts.limits));

  app.get(
    '/coins',
    { schema: { tags: ['bridge'], summary: 'Coin metadata of the active deployment' }, config: PUBLIC },
    (req, reply) => sendJson(req, reply, bridge.coins(), MAX_AGE.coins),
  );

  app.get(
    '/config',
    { schema: { tags: ['bridge'], summary: 'Configuration of the active deployment' }, config: PUBLIC },
    async (req, reply) => sendJson(req, reply, await bridge.config(), MAX_AGE.config),
  );

  app.get(
    '/proof-of-reserves',
    { schema: { tags: ['bridge'], summary: 'Signed proof of reserves' }, config: PUBLIC },
    async (req, reply) => sendJson(req, reply, await bridge.proofOfReserves(), MAX_AGE.reserves),
  );
}
