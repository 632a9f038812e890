/**
 * A JSON-RPC client for Bitcoin-Core-family nodes (Litecoin Core, Dogecoin Core, DigiByte Core and the forks among
 * our coins): HTTP POST of `{"jsonrpc":"1.0","id","method","params"}` with Basic auth from a cookie file (re-read on
 * every call, so a restarted node's new cookie is picked up) or a user and password. Results keep their numbers
 * exact ({@link JsonNumber}), since amounts are written as 8-decimal JSON numbers. Every failure is a `SourceError`.
 */
import { readFile } from 'node:fs/promises';
import { parseExactJson } from '../exact-json.ts';
import { httpRequest, preview, redact, SourceError } from '../http.ts';

export interface NodeRpcOptions {
  /** `http://host:port/` of the node's RPC server (a `/wallet/<name>` path for wallet calls on a multi-wallet node). */
  url: string;
  /** The node's `.cookie` file (`<datadir>/.cookie`, or the network's subdirectory): used when set. */
  cookieFile?: string;
  /** `rpcuser` / `rpcpassword` (or an `rpcauth` pair) when no cookie file is given. */
  user?: string;
  password?: string;
}

/** The node answered with a JSON-RPC error (`code` as in Core's `protocol.h`: -28 warming up, -32601 no method…). */
export class RpcError extends SourceError {
  constructor(
    readonly code: number,
    readonly rpcMessage: string,
    method: string,
  ) {
    super('rpc_error', `${method}: RPC error ${code}: ${rpcMessage}`);
  }
}

/** Core's "Method not found": the node's version has no such call. */
export const RPC_METHOD_NOT_FOUND = -32601;

let nextId = 1;

export class NodeRpc {
  readonly where: string;

  constructor(private readonly opts: NodeRpcOptions) {
    this.where = redact(opts.url);
  }

  /** Calls `method` with positional `params`; resolves to `result` (numbers as `JsonNumber`). */
  async call(
    method: string,
    params: unknown[],
    limits: { timeoutMs: number; signal?: AbortSignal },
  ): Promise<unknown> {
    const id = nextId++;
    const res = await httpRequest({
      url: this.opts.url,
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: await this.authorization() },
      body: JSON.stringify({ jsonrpc: '1.0', id, method, params }),
      timeoutMs: limits.timeoutMs,
      ...(limits.signal ? { signal: limits.signal } : {}),
    });
    if (res.status === 401)
      throw new SourceError('auth_failed', `${this.where}: HTTP 401, the RPC credentials are wrong`);
    if (res.status === 403)
      throw new SourceError('auth_failed', `${this.where}: HTTP 403, ${method} is not allowed`);
    let body: unknown;
    try {
      body = parseExactJson(res.text);
    } catch {
      const kind = res.status >= 400 ? 'http_error' : 'not_json';
      throw new SourceError(
        kind,
        `${this.where} ${method}: HTTP ${res.status}, not JSON-RPC: ${preview(res.text)}`,
      );
    }
    const o = (typeof body === 'object' && body !== null ? body : {}) as Record<string, unknown>;
    const err = o['error'];
    if (err !== null && err !== undefined) {
      const e = err as { code?: unknown; message?: unknown };
      throw new RpcError(
        Number(e.code ?? NaN),
        typeof e.message === 'string' ? e.message : 'unknown',
        method,
      );
    }
    if (!('result' in o)) {
      throw new SourceError(
        'bad_response',
        `${this.where} ${method}: HTTP ${res.status}, no result: ${preview(res.text)}`,
      );
    }
    return o['result'];
  }

  private async authorization(): Promise<string> {
    let pair: string;
    if (this.opts.cookieFile) {
      try {
        pair = (await readFile(this.opts.cookieFile, 'utf8')).trim();
      } catch (err) {
        // The node deletes its cookie when it stops: most often this means it is not running.
        throw new SourceError(
          'auth_failed',
          `${this.where}: cannot read the cookie file ${this.opts.cookieFile} (${(err as NodeJS.ErrnoException).code ?? err}); is the node running?`,
        );
      }
    } else pair = `${this.opts.user ?? ''}:${this.opts.password ?? ''}`;
    return `Basic ${Buffer.from(pair).toString('base64')}`;
  }
}
