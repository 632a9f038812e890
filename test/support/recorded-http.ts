/**
 * A local HTTP server on 127.0.0.1 (port 0) that answers with recorded responses: each request goes to `route`,
 * which returns the status, headers and body to send, or `'hang'` (headers never sent: a timeout case). An answer
 * may also be cut short: `truncate` (a body that breaks off) or `stall` (headers, then silence). Every request is
 * logged, so tests can count what reached the "third party".
 */
import { readFileSync } from 'node:fs';
import { createServer } from 'node:http';
import type { IncomingHttpHeaders, Server } from 'node:http';

export interface RecordedRequest {
  method: string;
  url: URL;
  headers: IncomingHttpHeaders;
  body: string;
}

export interface Recorded {
  /** Default 200. */
  status?: number;
  /** Default `content-type: application/json`. */
  headers?: Record<string, string>;
  body: string;
  /** Declare the whole body's length, send only its first `truncate` bytes, then drop the connection. */
  truncate?: number;
  /** Send the status and headers, then nothing more: the exchange never completes. */
  stall?: true;
}

export type Route = (req: RecordedRequest) => Recorded | 'hang' | Promise<Recorded | 'hang'>;

export interface RecordedServer {
  /** `http://127.0.0.1:<port>` */
  url: string;
  /** Every request, in arrival order; tests may empty it (`requests.length = 0`). */
  requests: RecordedRequest[];
  close(): Promise<void>;
}

/** An answer with this status, body and content type (and any further headers). */
export const send = (
  status: number,
  body: string,
  type: string,
  headers: Record<string, string> = {},
): Recorded => ({ status, headers: { 'content-type': type, ...headers }, body });

/** A 200 that declares `body`'s whole length, sends its first `bytes` bytes, then drops the connection. */
export const truncated = (body: string, bytes: number): Recorded => ({ body, truncate: bytes });

/** A 200 with this content type and then nothing: the body never comes. */
export const stalled = (type: string): Recorded => ({ ...send(200, '', type), stall: true });

export async function startRecordedServer(route: Route): Promise<RecordedServer> {
  const requests: RecordedRequest[] = [];
  const server: Server = createServer((req, res) => {
    let body = '';
    req.on('data', (c: Buffer) => (body += c.toString()));
    req.on('end', () => {
      const r: RecordedRequest = {
        method: req.method ?? 'GET',
        url: new URL(req.url ?? '/', 'http://x'),
        headers: req.headers,
        body,
      };
      requests.push(r);
      void Promise.resolve(route(r)).then(
        (out) => {
          if (out === 'hang') return;
          const headers = { 'content-type': 'application/json', ...out.headers };
          if (out.stall) return void res.writeHead(out.status ?? 200, headers).flushHeaders();
          if (out.truncate === undefined) return void res.writeHead(out.status ?? 200, headers).end(out.body);
          const whole = Buffer.from(out.body);
          res.writeHead(out.status ?? 200, { ...headers, 'content-length': String(whole.length) });
          res.write(whole.subarray(0, out.truncate), () => res.socket?.destroy());
        },
        (err: unknown) => {
          res.writeHead(500, { 'content-type': 'text/plain' });
          res.end(String(err));
        },
      );
    });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const { port } = server.address() as { port: number };
  return {
    url: `http://127.0.0.1:${port}`,
    requests,
    close: () =>
      new Promise<void>((r) => {
        server.closeAllConnections();
        server.close(() => r());
      }),
  };
}

/** One recorded answer of a fixtures folder: its body, and status, content type and headers from `responses.json`. */
export interface RecordedFixture {
  body: string;
  status: number;
  contentType: string;
  headers?: Record<string, string>;
}

/**
 * The fixtures of a folder (`test/fixtures/<name>/`), each answer's status and content type listed in its
 * `responses.json`: `fixture(file)` reads one, and fails for a file the manifest does not list.
 */
export function recordedFixtures(dir: URL): (name: string) => RecordedFixture {
  const manifest = JSON.parse(readFileSync(new URL('responses.json', dir), 'utf8')) as Record<
    string,
    Omit<RecordedFixture, 'body'>
  >;
  return (name) => {
    const meta = manifest[name];
    if (!meta) throw new Error(`${name} is not in responses.json`);
    return { body: readFileSync(new URL(name, dir), 'utf8'), ...meta };
  };
}

/** The error a promise rejects with; fails the test when it resolves. */
export function failure<E = Error>(p: Promise<unknown>): Promise<E> {
  return p.then(
    () => {
      throw new Error('expected a failure');
    },
    (err: E) => err,
  );
}
