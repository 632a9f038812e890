/**
 * A request's client going away before its answer, on an HTTP/1.1 connection: its socket closing (an
 * `IncomingMessage`'s own `close` comes once its body is read, not when the peer leaves). What a request waiting for
 * its place in flight is handed (`OnGone`, `src/access/concurrency.ts`): the listener is added only when it waits, and
 * removed once it stops; a client already gone calls it at once.
 */
export function socketGone(socket: {
  readonly destroyed: boolean;
  once(event: 'close', listener: () => void): unknown;
  off(event: 'close', listener: () => void): unknown;
}): (listener: () => void) => () => void {
  return (listener) => {
    if (socket.destroyed) {
      listener();
      return () => {};
    }
    socket.once('close', listener);
    return () => void socket.off('close', listener);
  };
}
