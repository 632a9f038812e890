/**
 * Refusals paced for a caller who does not wait: a 429 says when to come back (`Retry-After`); a caller who keeps
 * asking anyway — a loop over a few keep-alive connections — would otherwise be answered thousands of times a second,
 * each refusal a request parsed and answered, and the process's time would go to refusing it instead of serving
 * others. Past `grace` refusals inside one `Retry-After` period, each further refusal of that caller is held for
 * `holdMs` before it is sent (the way nginx's `limit_req` delays the excess): a client that waits as told never
 * notices; one that does not gets its answers at the pace of its connections, about one a second each.
 *
 * A caller is who the budget counts: its key (`key:<id>`), else its address behind the trusted proxies (`ip:<addr>`).
 * At most `maxHeld` refusals are held at once (then they are sent at once) and `maxCallers` callers remembered.
 */
import { clientIp } from './client-ip.ts';

export interface RefusalPaceOptions {
  /** Refusals of one caller inside one `Retry-After` period sent at once. Default 10. */
  grace?: number;
  /** How long each further refusal is held, ms; 0: never held. Default 1,000. */
  holdMs?: number;
  /** Refusals held at once across all callers, beyond which they are sent at once. Default 1,000. */
  maxHeld?: number;
  /** Callers remembered (the oldest forgotten first). Default 10,000. */
  maxCallers?: number;
  /** `TRUSTED_PROXIES`: whose `X-Forwarded-For` names the caller (`src/access/client-ip.ts`). Default none. */
  trustedProxies?: readonly string[];
}

/** One caller's refusals in its current `Retry-After` period. */
interface Period {
  until: number;
  refused: number;
}

export class RefusalPace {
  private readonly grace: number;
  private readonly holdMs: number;
  private readonly maxHeld: number;
  private readonly maxCallers: number;
  private readonly trusted: readonly string[];
  private readonly periods = new Map<string, Period>();
  private held = 0;

  constructor(opts: RefusalPaceOptions = {}) {
    this.grace = opts.grace ?? 10;
    this.holdMs = opts.holdMs ?? 1_000;
    this.maxHeld = opts.maxHeld ?? 1_000;
    this.maxCallers = opts.maxCallers ?? 10_000;
    this.trusted = opts.trustedProxies ?? [];
  }

  /** Who a refusal was for: the key it named, else the client's address behind the trusted proxies. */
  callerOf(keyId: string | undefined, socketIp: string, xff: string | string[] | undefined): string {
    if (keyId !== undefined) return `key:${keyId}`;
    return `ip:${clientIp(socketIp, xff, this.trusted)}`;
  }

  /**
   * Counts a refusal of `caller` that says to come back in `retryAfterS` seconds: how long to hold it before it is
   * sent, ms (0: at once). A held refusal is given back with {@link release} once sent.
   */
  hold(caller: string, retryAfterS: number, now: number): number {
    if (this.holdMs === 0) return 0;
    let p = this.periods.get(caller);
    if (!p || now >= p.until) {
      if (p) this.periods.delete(caller);
      else if (this.periods.size >= this.maxCallers) this.forgetOldest();
      p = { until: now + Math.max(1, retryAfterS) * 1000, refused: 0 };
      this.periods.set(caller, p);
    }
    p.refused++;
    if (p.refused <= this.grace || this.held >= this.maxHeld) return 0;
    this.held++;
    return this.holdMs;
  }

  release(): void {
    this.held = Math.max(0, this.held - 1);
  }

  /** Refusals held now. */
  holding(): number {
    return this.held;
  }

  private forgetOldest(): void {
    const oldest = this.periods.keys().next();
    if (!oldest.done) this.periods.delete(oldest.value);
  }
}
