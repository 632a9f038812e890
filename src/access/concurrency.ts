/**
 * Requests in flight per identity (`key:<id>`, `ip:<addr>`) in this process: a caller at its limit is refused until
 * one of its requests ends, so that no caller holds every worker of the process.
 */
export class ConcurrencyGate {
  private readonly inFlight = new Map<string, number>();

  /**
   * Takes one of `identity`'s `limit` places; null when all are taken. The function returned gives the place back
   * (calling it again does nothing).
   */
  enter(identity: string, limit: number): (() => void) | null {
    const n = this.inFlight.get(identity) ?? 0;
    if (n >= limit) return null;
    this.inFlight.set(identity, n + 1);
    let held = true;
    return () => {
      if (!held) return;
      held = false;
      const left = (this.inFlight.get(identity) ?? 1) - 1;
      if (left > 0) this.inFlight.set(identity, left);
      else this.inFlight.delete(identity);
    };
  }

  /** Requests of `identity` in flight now. */
  count(identity: string): number {
    return this.inFlight.get(identity) ?? 0;
  }
}
