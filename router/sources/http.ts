/**
 * The scale-out mode's source: POSTs to the subgraph's URL over a keep-alive `node:http`/`node:https` agent,
 * forwarding `authorization`. (Not `fetch`: per call it cost 2.6× the client CPU — bench/README.md.) An identical
 * query fetch (same body, same forwarded headers) while one is in flight shares its answer (`router/inflight.ts`).
 */
import type { Logger } from '../../src/core/log.ts';
import { Agent as HttpAgent, request as httpRequest } from 'node:http';
import type { IncomingMessage } from 'node:http';
import { Agent as HttpsAgent, request as httpsRequest } from 'node:https';
import { injectTraceContext } from '../../src/core/trace.ts';
import type { SubgraphName } from '../../subgraphs/shared/subgraph.ts';
import { createInflight } from '../inflight.ts';
import { remoteError, timedOut, unavailable } from './source.ts';
import type { SourceContext, SubgraphAnswer, SubgraphFetch, SubgraphSource } from './source.ts';

/** Headers the router forwards to a subgraph over HTTP. */
const FORWARDED = ['authorization'] as const;

/** The most a subgraph's answer may hold; a larger one is refused (SUBGRAPH_UNAVAILABLE). */
const MAX_RESPONSE_BYTES = 64 * 1024 * 1024;

class SubgraphTimeout extends Error {
  override readonly name = 'TimeoutError';
}

/** Codes of a kept-alive connection the server closed just as it was reused: the request never reached it. */
const STALE_CONNECTION = new Set(['ECONNRESET', 'EPIPE']);

export class HttpSource implements SubgraphSource {
  private readonly target: URL;
  private readonly agent: HttpAgent;
  private readonly send: typeof httpRequest;
  /** Identical query fetches in flight (`router/inflight.ts`): one request to the subgraph, its answer to each. */
  private readonly inflight = createInflight<{ status: number; text: string }>({ defer: false });

  constructor(
    private readonly name: SubgraphName,
    url: string,
    private readonly timeoutMs: number,
    private readonly log: Pick<Logger, 'warn'>,
    private readonly dedupe = true,
  ) {
    this.target = new URL(url);
    const https = this.target.protocol === 'https:';
    this.agent = https ? new HttpsAgent({ keepAlive: true }) : new HttpAgent({ keepAlive: true });
    this.send = https ? httpsRequest : httpRequest;
  }

  /** One POST with the whole body in one write; resolves with the status and the body text. */
  private post(
    headers: Record<string, string>,
    body: string,
    retryStale: boolean,
  ): Promise<{ status: number; text: string }> {
    return new Promise((resolve, reject) => {
      let done = false;
      let timedOut = false;
      const finish = (err: Error | null, value?: { status: number; text: string }): void => {
        if (done) return;
        done = true;
        clearTimeout(timer);
        // Whatever the destroyed request reports first (an error, a cut-off answer), the cause is the timeout.
        if (timedOut) reject(new SubgraphTimeout());
        else if (err) reject(err);
        else resolve(value as { status: number; text: string });
      };
      const req = this.send(
        this.target,
        {
          method: 'POST',
          agent: this.agent,
          headers: { ...headers, 'content-length': String(Buffer.byteLength(body)) },
        },
        (res: IncomingMessage) => {
          const chunks: Buffer[] = [];
          let size = 0;
          res.on('data', (c: Buffer) => {
            size += c.length;
            if (size > MAX_RESPONSE_BYTES) {
              req.destroy(new Error(`the answer exceeds ${MAX_RESPONSE_BYTES} bytes`));
              return;
            }
            chunks.push(c);
          });
          res.on('end', () =>
            finish(null, { status: res.statusCode ?? 0, text: Buffer.concat(chunks).toString('utf8') }),
          );
          res.on('error', (e) => finish(e));
          res.on('close', () => {
            if (!res.complete) finish(new Error('the answer was cut off'));
          });
        },
      );
      const timer = setTimeout(() => {
        timedOut = true;
        req.destroy(new SubgraphTimeout());
      }, this.timeoutMs);
      req.on('error', (e: NodeJS.ErrnoException) => {
        if (!done && retryStale && req.reusedSocket && e.code !== undefined && STALE_CONNECTION.has(e.code)) {
          done = true;
          clearTimeout(timer);
          this.post(headers, body, false).then(resolve, reject);
          return;
        }
        finish(e);
      });
      req.end(body);
    });
  }

  async process(fetch: SubgraphFetch, ctx: Partial<SourceContext>): Promise<SubgraphAnswer> {
    const headers: Record<string, string> = {
      'content-type': 'application/json',
      accept: 'application/json',
    };
    for (const h of FORWARDED) {
      const v = ctx.headers?.[h];
      if (v !== undefined) headers[h] = v;
    }
    const { query } = fetch;
    // A query is safe to send again on a fresh connection, and to share with an identical one in flight; a mutation
    // is neither.
    const isQuery = !/^\s*mutation\b/.test(query);
    const payload = JSON.stringify({
      query,
      variables: fetch.variables,
      ...(fetch.operationName ? { operationName: fetch.operationName } : {}),
    });
    // The key: the body and the forwarded headers, all that the subgraph answers by. The request id and the trace
    // context join the logs and traces only: a fetch shared by identical requests in flight carries those of the one
    // that started it.
    const key = this.dedupe && isQuery ? `${JSON.stringify(headers)}\n${payload}` : null;
    const requestId = ctx.headers?.['x-request-id'];
    if (requestId !== undefined) headers['x-request-id'] = requestId;
    injectTraceContext(headers);
    try {
      const { result: res } = await this.inflight.run(key, () => this.post(headers, payload, isQuery));
      let body: SubgraphAnswer;
      try {
        body = JSON.parse(res.text) as SubgraphAnswer;
      } catch {
        this.log.warn('subgraph answered without JSON', { subgraph: this.name, status: res.status });
        return { errors: [unavailable(this.name)] };
      }
      if (!body || typeof body !== 'object' || (!('data' in body) && !('errors' in body))) {
        this.log.warn('subgraph answered without a GraphQL body', {
          subgraph: this.name,
          status: res.status,
        });
        return { errors: [unavailable(this.name)] };
      }
      const errors = (body as { errors?: unknown }).errors;
      if (errors === undefined) return body;
      return {
        ...body,
        errors: Array.isArray(errors)
          ? errors.map((e) => remoteError(e, this.name, this.log))
          : [unavailable(this.name)],
      };
    } catch (e) {
      const timeout = e instanceof SubgraphTimeout;
      this.log.warn('subgraph request failed', {
        subgraph: this.name,
        error: e instanceof Error ? e.message : String(e),
      });
      return { errors: [timeout ? timedOut(this.name, this.timeoutMs) : unavailable(this.name)] };
    }
  }

  /** Closes the kept-alive connections (the router's `stop`). */
  close(): void {
    this.agent.destroy();
  }
}
