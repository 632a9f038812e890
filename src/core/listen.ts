/**
 * Why a listener could not start, in the operator's words: the address, the variable that set it, and what to do.
 * Every process of the product exits non-zero with this message (a supervisor then restarts or alerts), never keeps
 * running without its port.
 */
const REASONS: Record<string, string> = {
  EADDRINUSE: 'the port is in use by another process',
  EACCES: 'permission denied (a port below 1024 needs privileges)',
  EADDRNOTAVAIL: 'the address is not one of this machine',
};

/** A listener that could not start; `message` names the address and the variable (`PORT`, `METRICS_PORT`…). */
export class ListenError extends Error {}

/** `err` from `listen` as a {@link ListenError} naming `host:port` and `variable`; other errors unchanged. */
export function listenError(err: unknown, host: string, port: number, variable: string): unknown {
  const code = (err as NodeJS.ErrnoException | null)?.code;
  if (typeof code !== 'string' || (!(code in REASONS) && !code.startsWith('E'))) return err;
  const reason = REASONS[code] ?? (err as Error).message;
  return new ListenError(`cannot listen on ${host}:${port} (${variable}): ${reason}`);
}
