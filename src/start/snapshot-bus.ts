/**
 * Scale-out's snapshot bus (docs/graph.md, "Subscriptions"): the markets subgraph process publishes the identity of
 * each snapshot its engine computes (its `computedAt`) on a Redis channel; every router process subscribes and, on
 * each new identity, computes its live subscriptions again from the markets subgraph over HTTP. Without Redis a
 * router asks the markets subgraph on a timer instead (a change then reaches subscribers within that interval).
 */

import type { Logger } from '../core/log.ts';
import type { MarketService } from '../market/service.ts';
import type { SnapshotFeed } from '../../router/options.ts';

/** The Redis channel of snapshot identities. */
export const SNAPSHOT_CHANNEL = 'cw:market:snapshot';

export interface SnapshotBus {
  close(): Promise<void>;
}

const closeClient = async (c: {
  isReady: boolean;
  close(): Promise<unknown>;
  destroy(): unknown;
}): Promise<void> => {
  if (c.isReady) await c.close().catch(() => c.destroy());
  else c.destroy();
};

/** The markets subgraph process: publishes each snapshot's identity (a lost publication is logged; the next comes). */
export async function publishSnapshots(
  redisUrl: string,
  market: Pick<MarketService, 'onSnapshot'>,
  log: Pick<Logger, 'warn'>,
): Promise<SnapshotBus> {
  const { createClient } = await import('redis'); // loaded only with REDIS_URL
  const client = createClient({ url: redisUrl });
  client.on('error', (err: Error) => log.warn('redis error (snapshot bus)', { error: err.message }));
  await client.connect();
  const off = market.onSnapshot((s) => {
    if (!client.isReady) return;
    client
      .publish(SNAPSHOT_CHANNEL, String(s.computedAt))
      .catch((err: unknown) =>
        log.warn('snapshot not published', { error: err instanceof Error ? err.message : String(err) }),
      );
  });
  return {
    async close() {
      off();
      await closeClient(client);
    },
  };
}

/**
 * A router process: a feed that calls its listeners once per new snapshot identity heard on the channel (the same
 * identity twice, from two markets replicas, once), and once more after the subscription is set up again following a
 * Redis outage (publications may have been missed meanwhile).
 */
export async function redisSnapshotFeed(
  redisUrl: string,
  log: Pick<Logger, 'warn'>,
): Promise<SnapshotBus & { feed: SnapshotFeed }> {
  const listeners = new Set<() => void>();
  const fire = () => {
    for (const l of listeners) l();
  };
  const { createClient } = await import('redis'); // loaded only with REDIS_URL
  const client = createClient({ url: redisUrl });
  client.on('error', (err: Error) => log.warn('redis error (snapshot feed)', { error: err.message }));
  let connectedBefore = false;
  client.on('ready', () => {
    if (connectedBefore) fire();
    connectedBefore = true;
  });
  await client.connect();
  let last = '';
  await client.subscribe(SNAPSHOT_CHANNEL, (message) => {
    if (message === last) return;
    last = message;
    fire();
  });
  return {
    feed(onSnapshot) {
      listeners.add(onSnapshot);
      return () => void listeners.delete(onSnapshot);
    },
    async close() {
      listeners.clear();
      await closeClient(client);
    },
  };
}

/** A router without Redis: computes its subscriptions again every `intervalMs` (only changes are sent). */
export function pollingSnapshotFeed(intervalMs: number): SnapshotFeed {
  return (onSnapshot) => {
    const timer = setInterval(onSnapshot, intervalMs);
    timer.unref();
    return () => clearInterval(timer);
  };
}
