/** A deadline that passed. */
export class TimeoutError extends Error {
  constructor(
    readonly ms: number,
    what?: string,
  ) {
    super(what ? `${what} did not answer within ${ms} ms` : `timed out after ${ms} ms`);
    this.name = 'TimeoutError';
  }
}

/**
 * The result of `work`, or a rejection once `ms` have passed (a {@link TimeoutError}, its message naming `what` when
 * given) or once `signal` aborts (its reason), whichever comes first. Given as a function, `work` receives a signal
 * that aborts at that moment, so it can stop; otherwise it runs on and its late result or failure is ignored.
 */
export async function withTimeout<T>(
  work: Promise<T> | ((signal: AbortSignal) => Promise<T>),
  ms: number,
  opts: { what?: string; signal?: AbortSignal } = {},
): Promise<T> {
  const ac = new AbortController();
  const timer = setTimeout(() => ac.abort(new TimeoutError(ms, opts.what)), ms);
  const outer = opts.signal;
  const onOuterAbort = (): void =>
    ac.abort(outer?.reason instanceof Error ? outer.reason : new Error('aborted'));
  if (outer?.aborted) onOuterAbort();
  else outer?.addEventListener('abort', onOuterAbort, { once: true });
  const stopped = new Promise<never>((_, reject) => {
    const fire = (): void => reject(ac.signal.reason as Error);
    if (ac.signal.aborted) fire();
    else ac.signal.addEventListener('abort', fire, { once: true });
  });
  try {
    return await Promise.race([typeof work === 'function' ? work(ac.signal) : work, stopped]);
  } finally {
    clearTimeout(timer);
    outer?.removeEventListener('abort', onOuterAbort);
  }
}
