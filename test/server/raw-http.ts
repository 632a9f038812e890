/**
 * Raw HTTP/1.1 over a TCP socket (`node:net`): bytes no HTTP client would send (a NUL in a header, both framings of a
 * body, no Host, an unknown method, CONNECT), written as latin1 (one byte a character), and the answer read as it
 * comes off the wire.
 */
import { connect } from 'node:net';

export interface RawAnswer {
  status: number;
  headers: Record<string, string>;
  body: string;
  /** Whether the server closed the connection after its answer. */
  closed: boolean;
}

/**
 * Sends `request` to `port` on 127.0.0.1 and reads one answer: until the server closes the connection, or until the
 * answer's `Content-Length` bytes are in without `Connection: close` (`closed` then false unless it closes within
 * 200 ms).
 */
export function rawRequest(port: number, request: string | Buffer): Promise<RawAnswer> {
  return new Promise((resolve, reject) => {
    const socket = connect({ port, host: '127.0.0.1' });
    let data = Buffer.alloc(0);
    let settled = false;
    const timer = setTimeout(
      () => finish(new Error(`no answer: ${JSON.stringify(data.toString())}`)),
      10_000,
    );
    const finish = (err: Error | null, closed = false): void => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      socket.destroy();
      const parsed = err ? null : parse(data);
      if (parsed) resolve({ status: parsed.status, headers: parsed.headers, body: parsed.body, closed });
      else reject(err ?? new Error(`no complete answer: ${JSON.stringify(data.toString())}`));
    };
    socket.on('data', (chunk: Buffer) => {
      data = Buffer.concat([data, chunk]);
      const p = parse(data);
      // A complete answer that does not say `Connection: close`: wait a moment for a close that would follow it
      // (one that says it waits for the close itself, however busy the server).
      if (p && p.complete && p.headers['connection'] !== 'close')
        setTimeout(() => finish(null, socket.readableEnded), 200);
    });
    socket.on('end', () => finish(null, true));
    socket.on('close', () => finish(null, true));
    socket.on('error', (err: NodeJS.ErrnoException) => {
      // A server that answers then resets (it closed with our unread bytes pending) has still answered.
      if (err.code === 'ECONNRESET' && parse(data)) finish(null, true);
      else finish(err);
    });
    socket.write(typeof request === 'string' ? Buffer.from(request, 'latin1') : request);
  });
}

function parse(data: Buffer): (Omit<RawAnswer, 'closed'> & { complete: boolean }) | null {
  const text = data.toString('latin1');
  const end = text.indexOf('\r\n\r\n');
  if (end < 0) return null;
  const [statusLine, ...lines] = text.slice(0, end).split('\r\n');
  const m = /^HTTP\/1\.[01] (\d{3})/.exec(statusLine ?? '');
  if (!m) return null;
  const headers: Record<string, string> = {};
  for (const l of lines) {
    const i = l.indexOf(':');
    headers[l.slice(0, i).trim().toLowerCase()] = l.slice(i + 1).trim();
  }
  const body = data.subarray(end + 4);
  const length = headers['content-length'] === undefined ? null : Number(headers['content-length']);
  return {
    status: Number(m[1]),
    headers,
    body: body.toString('utf8'),
    complete: length !== null && body.length >= length,
  };
}
