/**
 * A local HTTP server on 127.0.0.1 (port 0) that answers with recorded responses: each request goes to `route`,
 * which returns the status, headers and body to send, or `'hang'` (headers never sent: a timeout case). Every
 * request is logged, so tests can count what reached the "third party".
 */
import { createServer } from 'node:http';
import type { Server } from 'node:http';

export interface RecordedRequest {
  method: string;
  url: URL;
  body: string;
}

export interface Recorded {
  status?: number;
  headers?: Record<string, string>;
  body: string;
}

export type Route = (req: RecordedRequest) => Recorded | 'hang' | Promise<Recorded | 'hang'>;

export interface RecordedServer {
  /** `http://127.0.0.1:<port>` */
  url: string;
  requests: RecordedRequest[];
  close(): Promise<void>;
}

export async function startRecordedServer(route: Route): Promise<RecordedServer> {
  const requests: RecordedRequest[] = [];
  const server: Server = createServer((req, res) => {
    let body = '';
    req.on('data', (c: Buffer) => (body += c.toString()));
    req.on('end', () => {
      const r: RecordedRequest = {
        method: req.method ?? 'GET',
        url: new URL(req.url ?? '/', 'http://x'),
        body,
      };
      requests.push(r);
      void Promise.resolve(route(r)).then(
        (out) => {
          if (out === 'hang') return;
          res.writeHead(out.status ?? 200, { 'content-type': 'application/json', ...out.headers });
          res.end(out.body);
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
