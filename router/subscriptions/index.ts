/**
 * The router's live subscriptions (docs/graph.md, "Subscriptions"): `open` admits one stream (`open.ts`), the hub
 * keeps the groups and pushes each tick's events (`hub.ts`), and a snapshot feed says when there is a tick — the
 * market service of this process (embedded), or the markets subgraph's publication through Redis (scale-out). The
 * transports (`router/sse.ts`, `router/ws.ts`) only translate.
 */
import type { ExecutionResult } from 'graphql';
import { ApiError } from '../../src/core/errors.ts';
import type { Logger } from '../../src/core/log.ts';
import type { Engine } from '../engines/hive.ts';
import type { RouterRequest } from '../http-phase.ts';
import type { RouterOptions } from '../options.ts';
import { keyPhase } from '../phases.ts';
import type { RouterPlugin } from '../plugin.ts';
import { HttpSource } from '../sources/http.ts';
import { InProcessSource } from '../sources/in-process.ts';
import type { SubgraphSource } from '../sources/source.ts';
import { endEvent, SubscriptionHub } from './hub.ts';
import { createOpener } from './open.ts';
import type { Opened } from './open.ts';

export type { Opened } from './open.ts';
export type { PushStream, EndReason } from './stream.ts';

export type { SnapshotFeed } from '../options.ts';

/** What a connection (a WebSocket's `connection_init`) is checked with. */
export interface ConnectRequest {
  headers: Readonly<Record<string, string | undefined>>;
  search: string;
  socketIp: string;
}

export interface RouterSubscriptions {
  /**
   * The API key of a connection that will carry subscriptions, checked when it opens: null when usable, else the
   * access layer's refusal (each subscription is checked again, with the budgets, when it is sent).
   */
  connect(req: ConnectRequest): Promise<{ status: number; code: string; message: string } | null>;
  /** Admits one stream (or answers a query or mutation sent as one): see `open.ts`. */
  open(req: RouterRequest): Promise<Opened>;
  /** Computes every subscription again and delivers what changed (what the snapshot feed calls). */
  tick(): Promise<void>;
  stats(): { streams: number; groups: number; events: number };
  /** Ends every stream with `event` (default none: the transport closes the connection) and stops the feed. */
  stop(event?: ExecutionResult): void;
}

/** The markets subgraph as the subscriptions reach it. */
function marketsSource(opts: RouterOptions, timeoutMs: number, log: Pick<Logger, 'warn'>): SubgraphSource {
  const s = opts.subgraphs;
  if (s.kind === 'http')
    return new HttpSource('markets', s.urls.markets, timeoutMs, log, opts.dedupe !== false);
  const markets = s.subgraphs.find((sg) => sg.name === 'markets');
  if (!markets) throw new Error('router: no markets subgraph for subscriptions');
  return new InProcessSource(markets, timeoutMs, log);
}

export function createSubscriptions(
  opts: RouterOptions & { plugins: readonly RouterPlugin[]; engine: Engine; timeoutMs: number; log: Logger },
): RouterSubscriptions {
  const source = marketsSource(opts, opts.timeoutMs, opts.log);
  const hub = new SubscriptionHub({ source, plugins: opts.plugins, usage: opts.usage, log: opts.log });
  const open = createOpener({
    plugins: opts.plugins,
    engine: opts.engine,
    hub,
    usage: opts.usage,
    shedder: opts.shedder,
  });
  const tick = () =>
    hub.tick().catch((err: unknown) =>
      opts.log.error('subscription tick failed', {
        error: err instanceof Error ? err.message : String(err),
      }),
    );
  const unfeed = opts.snapshots?.(() => void tick()) ?? null;
  return {
    async connect(req) {
      const query: Record<string, string | string[]> = {};
      for (const [k, v] of new URLSearchParams(req.search)) {
        const prev = query[k];
        query[k] = prev === undefined ? v : Array.isArray(prev) ? [...prev, v] : [prev, v];
      }
      try {
        await keyPhase(
          opts.plugins,
          { headers: req.headers, query, socketIp: req.socketIp },
          {
            caller: null,
            headers: {},
          },
        );
        return null;
      } catch (e) {
        if (!(e instanceof ApiError)) throw e;
        return { status: e.status, code: e.code, message: e.message };
      }
    },
    open,
    tick,
    stats: () => hub.stats(),
    stop(event) {
      unfeed?.();
      hub.endAll(event);
      source.close?.();
    },
  };
}

export { endEvent };
