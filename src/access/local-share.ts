/**
 * Budgets counted by one process alone: the embedded product's whole limiter (one process: its share is the budget),
 * and each scale-out process's while the shared store (Redis) is unreachable: "degrade to local, never to none".
 * The rule is the shared store's (`limiter.ts`'s Lua scripts). Each of the fleet's `processes` admits its share of an identity's budget, `floor(limit / processes)`, in any
 * sliding window (a window's length, counted in tenths: a span of 11 tenths, so never more in any window), so that the
 * fleet together never admits more than the budget, however the windows of the processes fall.
 *
 * - What the shared store had counted in its window when it went away (`spent`, the last count this process saw)
 *   counts here too, each process its part (`spent / processes`), until a window has passed.
 * - Only admitted points count (a refusal counts nothing: a caller who keeps asking is admitted again as its earlier
 *   requests leave the window).
 * - When the store returns, {@link LocalShare.pending} lists what to carry back into it, so that the window's count
 *   goes on instead of starting again (`limiter.ts` writes it).
 *
 * Pure bookkeeping over a clock given by the caller: no timers, no I/O.
 */
/** Result of counting one request against an identity's per-minute budget (`limiter.ts` re-exports it). */
export interface RateLimitResult {
  allowed: boolean;
  /** The budget: requests per minute. */
  limit: number;
  /** What more fits now (0 when denied). */
  remaining: number;
  /**
   * Milliseconds until enough counted points leave the span for a call of the same points to fit (denied), or until
   * the oldest leave and `remaining` grows (admitted).
   */
  resetMs: number;
  /** Counted in the span, this call included when admitted; when denied, what it would have been with it. */
  consumed?: number;
}

/** Tenths of a window: the span counted is {@link SLOTS} + 1 of them. */
export const SLOTS = 10;

/** What the shared store last said of an identity: its count and when its window ends (ms since the epoch). */
interface Seen {
  consumed: number;
  end: number;
}

/** One identity's counts in the last slots (a ring indexed by slot number), and the store's count it started from. */
interface Span {
  /** The newest slot counted. */
  slot: number;
  /** Admitted points per slot. */
  admitted: number[];
  /** Of those, the points Redis counted too (its answer came after this process took over): never carried back. */
  sent: number[];
  /** The store's count when this process took over (0 for none), and its part of it counted until `spentUntil`. */
  spent: number;
  part: number;
  partUntil: number;
}

/** What one identity's window carries back to the shared store on its return. */
export interface Carry {
  identity: string;
  /** Admitted by this process within the last window while the store was away. */
  own: number;
  /** Counted by the store before it went away (the last count this process saw of it), while its window lasts. */
  spent: number;
  /** Milliseconds the carried count should last: a window. */
  ttlMs: number;
}

/** Identities remembered at most in each map (the oldest are forgotten first: a bound, not a policy). */
const MAX_IDENTITIES = 50_000;

const sum = (xs: readonly number[]): number => xs.reduce((a, b) => a + b, 0);

export class LocalShare {
  private readonly seen = new Map<string, Seen>();
  private readonly spans = new Map<string, Span>();
  private readonly slotMs: number;

  /** `windowMs`: the window's length (the store's). */
  constructor(private readonly windowMs: number) {
    this.slotMs = windowMs / SLOTS;
  }

  /**
   * Notes the shared store's count of `identity` at `now`, while it answers: all admitted before now, those points
   * have left any window a window later.
   */
  note(identity: string, consumed: number, now: number): void {
    this.seen.delete(identity); // re-inserted last: the map's order is the order of last use
    this.seen.set(identity, { consumed, end: now + this.windowMs });
    bound(this.seen);
  }

  /**
   * Counts `points` against this process's share of `limit` for `processes` processes. The figures returned are the
   * fleet's as this process estimates them (remaining: its share left × processes), the decision its own.
   * `carry: false`: the store counted the points too (it answered after this process took over), so they are not
   * carried back.
   */
  consume(
    identity: string,
    limit: number,
    points: number,
    processes: number,
    now: number,
    carry = true,
  ): RateLimitResult {
    const n = Math.max(1, processes);
    this.sweep(now);
    const s = this.span(identity, now, n, limit);
    const share = Math.floor(limit / n);
    const used = sum(s.admitted) + (now < s.partUntil ? s.part : 0);
    const allowed = used + points <= share;
    if (allowed) {
      const i = s.slot % (SLOTS + 1);
      s.admitted[i] = (s.admitted[i] ?? 0) + points;
      if (!carry) s.sent[i] = (s.sent[i] ?? 0) + points;
    }
    const after = used + (allowed ? points : 0);
    return {
      allowed,
      limit,
      remaining: allowed ? Math.max(0, share - after) * n : 0,
      resetMs: this.freesIn(s, now, allowed ? 1 : used + points - share),
      consumed: (allowed ? after : after + points) * n,
    };
  }

  /** Corrects this process's count of `identity` by `points` (negative: a refund, from the newest slots back). */
  adjust(identity: string, points: number, now: number): void {
    const s = this.span(identity, now, 1, 0);
    let left = points;
    for (let k = 0; k <= SLOTS && left !== 0; k++) {
      const i = (s.slot - k + (SLOTS + 1) * 2) % (SLOTS + 1);
      const have = s.admitted[i] ?? 0;
      const take = left > 0 ? left : Math.max(left, -have);
      s.admitted[i] = have + take;
      left -= take;
    }
  }

  /** What each identity carries back: admitted here within the last window, and the store's count while it lasts. */
  pending(now: number): Carry[] {
    const out: Carry[] = [];
    for (const [identity, s] of this.spans) {
      this.advance(s, now);
      const own = Math.max(0, sum(s.admitted) - sum(s.sent));
      const spent = now < s.partUntil ? s.spent : 0;
      if (own > 0 || spent > 0) out.push({ identity, own, spent, ttlMs: this.windowMs });
    }
    // Windows the store had open that nothing touched here: its count, in case it came back empty (restarted).
    for (const [identity, seen] of this.seen)
      if (seen.end > now && seen.consumed > 0 && !this.spans.has(identity))
        out.push({ identity, own: 0, spent: seen.consumed, ttlMs: seen.end - now });
    return out;
  }

  /** The identities remembered (counted here, or last seen in the store): for tests. */
  get identities(): number {
    return new Set([...this.spans.keys(), ...this.seen.keys()]).size;
  }

  /**
   * Forgets the identities whose counts have all left the span, so that memory follows the callers of the last
   * window rather than every caller ever seen. Both maps are in order of last use, the stalest first: the sweep stops
   * at the first one still counting (what it leaves is swept later), so each call costs what it frees.
   */
  private sweep(now: number): void {
    const slot = Math.floor(now / this.slotMs);
    for (const [identity, s] of this.spans) {
      if (s.slot > slot - (SLOTS + 1) || now < s.partUntil) break;
      this.spans.delete(identity);
    }
    for (const [identity, seen] of this.seen) {
      if (seen.end > now) break;
      this.seen.delete(identity);
    }
  }

  /** Forgets the local counts (they are carried back) and what the store said (it counts again). */
  clear(): void {
    this.spans.clear();
    this.seen.clear();
  }

  /**
   * The identity's span, moved on to `now`; a new one takes its part of what the store had admitted (its count, at
   * most `limit`: refusals are counted there too).
   */
  private span(identity: string, now: number, n: number, limit: number): Span {
    let s = this.spans.get(identity);
    if (s) {
      this.spans.delete(identity); // re-inserted last: the bound forgets the identity used longest ago
      this.spans.set(identity, s);
    } else {
      const seen = this.seen.get(identity);
      const spent = seen && seen.end > now ? seen.consumed : 0;
      s = {
        slot: Math.floor(now / this.slotMs),
        admitted: new Array<number>(SLOTS + 1).fill(0),
        sent: new Array<number>(SLOTS + 1).fill(0),
        spent,
        part: Math.ceil(Math.min(spent, limit) / n),
        // The store's admissions were all within the window before now: they have left any window by now + a window.
        partUntil: now + this.windowMs,
      };
      this.spans.set(identity, s);
      bound(this.spans);
    }
    this.advance(s, now);
    return s;
  }

  /** Clears the slots that have left the span since the span's newest slot. */
  private advance(s: Span, now: number): void {
    const slot = Math.floor(now / this.slotMs);
    for (let k = s.slot + 1; k <= Math.min(slot, s.slot + SLOTS + 1); k++) {
      s.admitted[k % (SLOTS + 1)] = 0;
      s.sent[k % (SLOTS + 1)] = 0;
    }
    if (slot > s.slot) s.slot = slot;
  }

  /**
   * Milliseconds until `need` of the counted points (the oldest first; the store's part at `partUntil`) have left the
   * span; when fewer are counted, until all have (a call over the whole share never fits); a window when none are.
   */
  private freesIn(s: Span, now: number, need: number): number {
    const leaving: [at: number, points: number][] = [];
    for (let k = s.slot - SLOTS; k <= s.slot; k++) {
      const c = s.admitted[((k % (SLOTS + 1)) + SLOTS + 1) % (SLOTS + 1)] ?? 0;
      if (c > 0) leaving.push([(k + SLOTS + 1) * this.slotMs, c]);
    }
    if (now < s.partUntil && s.part > 0) leaving.push([s.partUntil, s.part]);
    leaving.sort((a, b) => a[0] - b[0]);
    let freed = 0;
    let at = now + this.windowMs;
    for (const [t, c] of leaving) {
      at = t;
      if ((freed += c) >= need) break;
    }
    return Math.max(1, Math.ceil(at - now));
  }
}

function bound(map: Map<string, unknown>): void {
  if (map.size <= MAX_IDENTITIES) return;
  const oldest = map.keys().next();
  if (!oldest.done) map.delete(oldest.value);
}
