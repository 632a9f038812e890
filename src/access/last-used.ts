/**
 * Batches "key last used at" writes: `touch` only records in memory; one statement writes every touched key at most
 * once per interval, so a busy key never costs a write per request. Best effort: a failed write is retried with the
 * next batch, and times from the last interval are lost if the process dies.
 */
export class LastUsedBatcher {
  private pending = new Map<string, number>();
  private timer: NodeJS.Timeout | null = null;
  private inFlight: Promise<void> = Promise.resolve();

  constructor(
    private readonly write: (uses: ReadonlyMap<string, number>) => Promise<void>,
    private readonly intervalMs: number,
  ) {}

  touch(id: string, at: number): void {
    this.pending.set(id, at);
    this.schedule();
  }

  /** Writes what is pending now (also on shutdown). */
  flush(): Promise<void> {
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
    const batch = this.pending;
    this.pending = new Map();
    this.inFlight = this.inFlight.then(async () => {
      if (batch.size === 0) return;
      try {
        await this.write(batch);
      } catch {
        // Keep the newer of the two times and try again with the next batch.
        for (const [id, at] of batch) if ((this.pending.get(id) ?? 0) < at) this.pending.set(id, at);
        this.schedule();
      }
    });
    return this.inFlight;
  }

  private schedule(): void {
    if (this.timer || this.pending.size === 0) return;
    this.timer = setTimeout(() => void this.flush(), this.intervalMs);
    this.timer.unref();
  }
}
