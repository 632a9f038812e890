/**
 * A request whose client went away while its body was being read (it aborted the upload, or its connection
 * dropped): Node's `aborted` error (ECONNRESET) from the body stream. Nobody is left to answer, and nothing went
 * wrong on our side — the transports log it at debug (below every `LOG_LEVEL`) and send nothing, never a 500.
 */
export function clientAborted(
  err: unknown,
  raw: { readonly aborted?: boolean; readonly destroyed?: boolean },
): boolean {
  const code = (err as { code?: unknown } | null)?.code;
  return raw.aborted === true || (code === 'ECONNRESET' && raw.destroyed === true);
}
