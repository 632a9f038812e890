/**
 * How many processes share the budgets: what each one divides them by while Redis is unreachable
 * (`local-share.ts`). Learned from Redis while it answers: every process that counts budgets notes itself in one
 * sorted set every {@link HEARTBEAT_MS}, and the live ones are those noted within {@link MEMBER_TTL_MS}. The last
 * figure learned is kept through an outage. `ROUTER_PROCESSES` is a floor: with it, a process that starts during an
 * outage, or whose peers have not counted anything yet, still divides by the right number.
 */
import { randomUUID } from 'node:crypto';
import { withTimeout } from '../core/timeout.ts';

/** The sorted set of live processes (member: a process id; score: when it last said so, ms since the epoch). */
export const FLEET_KEY = 'cw:limiter:processes';
/** How often a process says it is alive. */
export const HEARTBEAT_MS = 5_000;
/** A process not heard from for this long no longer counts (a stopped one, or one cut off from Redis). */
export const MEMBER_TTL_MS = 60_000;

/** What the limiter asks of the fleet. */
export interface Fleet {
  /** The number of processes sharing each budget: at least 1. */
  size(): number;
  /** This process counts budgets: it joins the fleet (once; later calls do nothing). */
  join(): void;
}

/** The node-redis calls the fleet makes. */
export interface FleetClient {
  isReady: boolean;
  multi(): {
    zAdd(key: string, member: { score: number; value: string }): unknown;
    zRemRangeByScore(key: string, min: number, max: number): unknown;
    zCard(key: string): unknown;
    exec(): Promise<unknown[]>;
  };
  zRem(key: string, member: string): Promise<unknown>;
}

export interface RedisFleetOptions {
  /** `ROUTER_PROCESSES`: the fleet is at least this large; default 1. */
  configured?: number | undefined;
  /** This process's member id; default a random UUID. */
  id?: string;
}

/** The fleet as Redis knows it (see the module's comment). `close` leaves it at once. */
export class RedisFleet implements Fleet {
  private readonly id: string;
  private readonly floor: number;
  private learned = 1;
  private timer: NodeJS.Timeout | null = null;

  constructor(
    private readonly client: FleetClient,
    opts: RedisFleetOptions = {},
  ) {
    this.id = opts.id ?? randomUUID();
    this.floor = Math.max(1, opts.configured ?? 1);
  }

  size(): number {
    return Math.max(this.floor, this.learned);
  }

  join(): void {
    if (this.timer) return;
    this.timer = setInterval(() => void this.beat(), HEARTBEAT_MS);
    this.timer.unref();
    void this.beat();
  }

  /** Notes this process alive and counts the live ones; an unreachable Redis leaves the last count as it was. */
  async beat(now = Date.now()): Promise<void> {
    if (!this.client.isReady) return;
    try {
      const tx = this.client.multi();
      tx.zAdd(FLEET_KEY, { score: now, value: this.id });
      tx.zRemRangeByScore(FLEET_KEY, 0, now - MEMBER_TTL_MS);
      tx.zCard(FLEET_KEY);
      const replies = await withTimeout(tx.exec(), 1_000);
      const n = Number(replies[2]);
      if (Number.isInteger(n) && n >= 1) this.learned = n;
    } catch {
      // Unreachable: the last count stands.
    }
  }

  /** Stops the heartbeat and leaves the set (best effort), so that the others divide by one fewer at once. */
  async close(): Promise<void> {
    if (!this.timer) return;
    clearInterval(this.timer);
    this.timer = null;
    if (this.client.isReady)
      await withTimeout(this.client.zRem(FLEET_KEY, this.id), 1_000).catch(() => undefined);
  }
}
