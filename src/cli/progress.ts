/**
 * Progress for long work: a redrawn bar on a TTY, plain lines (at most every 10 %) otherwise, so logs stay readable.
 */
export interface Progress {
  update(done: number): void;
  done(message?: string): void;
}

export function createProgress(
  label: string,
  total: number,
  stream: NodeJS.WriteStream = process.stderr,
): Progress {
  const tty = Boolean(stream.isTTY);
  const t0 = Date.now();
  let lastPct = -1;
  let lastDraw = 0;
  return {
    update(done) {
      const pct = total > 0 ? Math.min(100, Math.floor((done / total) * 100)) : 0;
      if (tty) {
        const now = Date.now();
        if (now - lastDraw < 100 && done < total) return;
        lastDraw = now;
        const width = 30;
        const fill = Math.round((pct / 100) * width);
        stream.write(`\r${label} [${'#'.repeat(fill)}${'-'.repeat(width - fill)}] ${pct}% ${done}/${total}`);
      } else if (Math.floor(pct / 10) > Math.floor(lastPct / 10) || (done >= total && pct !== lastPct)) {
        // One line per 10 % step (plain output: CI logs, pipes).
        lastPct = pct;
        stream.write(`${label}: ${pct}% (${done}/${total})\n`);
      }
    },
    done(message) {
      const secs = ((Date.now() - t0) / 1000).toFixed(1);
      stream.write(`${tty ? '\r\x1b[K' : ''}${label}: done in ${secs} s${message ? ` — ${message}` : ''}\n`);
    },
  };
}
