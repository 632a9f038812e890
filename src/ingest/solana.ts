/**
 * A Solana JSON-RPC endpoint as a source (kind `solana`) of SPL token supplies for the bridge's proof of reserves.
 * JSON-RPC 2.0 over HTTP POST: `poll` calls `getSlot` (liveness); `tokenSupply(mint)` calls `getTokenSupply` (the
 * raw u64 `amount` as a string, `decimals`, and the `context.slot` it was read at) and then `getBlockTime` of that
 * slot. When the node cannot say when that slot was produced (-32004 "Block not available for slot N", a `null`
 * time) the read fails: a supply without its time is never given a guessed one.
 *
 * JSON-RPC error objects become `rpc_error` (`getTokenSupply: RPC error -32602: Invalid param: not a Token mint`,
 * with the code on the error's `code`); HTTP 429 from a public endpoint starts the back-off.
 */
import { JsonNumber, parseExactJson } from './exact-json.ts';
import { BackoffGate, preview, redact, SourceError } from './http.ts';
import { RpcError } from './node/rpc.ts';
import type { SourceSnapshot, TickerSource, TokenSupply, TokenSupplyReader } from './types.ts';

export interface SolanaConfig {
  /** Source id, e.g. `solana:mainnet`. */
  id: string;
  /**
   * The JSON-RPC endpoint, e.g. `https://api.mainnet-beta.solana.com`. A key in its query stays out of messages; one
   * in its path (some providers put it there) does not, since messages name the path.
   */
  url: string;
  /** Budget of each call, ms; default 10,000. */
  timeoutMs: number;
  /** Commitment of the reads; default `finalized` (a supply that cannot be rolled back). */
  commitment?: 'finalized' | 'confirmed';
}

/** Defaults of the optional fields of a Solana entry. */
export const SOLANA_DEFAULTS = {
  // Each call answers in well under a second on a healthy endpoint; 10 s covers a loaded public one.
  timeoutMs: 10_000,
  commitment: 'finalized',
} as const;

export interface SolanaSource extends TickerSource, TokenSupplyReader {}

const U64_MAX = 2n ** 64n - 1n;

const isObject = (v: unknown): v is Record<string, unknown> =>
  typeof v === 'object' && v !== null && !Array.isArray(v) && !(v instanceof JsonNumber);

/** A non-negative safe integer from an exact JSON number; undefined for anything else. */
function safeInt(v: unknown): number | undefined {
  if (!(v instanceof JsonNumber) || !/^(0|[1-9]\d*)$/.test(v.text)) return undefined;
  const n = Number(v.text);
  return Number.isSafeInteger(n) ? n : undefined;
}

let nextId = 1;

export function createSolanaSource(cfg: SolanaConfig, deps: { now?: () => number } = {}): SolanaSource {
  const now = deps.now ?? Date.now;
  const where = redact(cfg.url);
  const gate = new BackoffGate(cfg.id, now);
  const commitment = cfg.commitment ?? SOLANA_DEFAULTS.commitment;
  const background = new AbortController();
  const bad = (method: string, what: string) =>
    new SourceError('bad_response', `${where} ${method}: ${what}`);

  /** One JSON-RPC call; resolves to `result` with exact numbers ({@link JsonNumber}). */
  async function call(method: string, params: unknown[], signal: AbortSignal): Promise<unknown> {
    const id = nextId++;
    const res = await gate.request({
      url: cfg.url,
      method: 'POST',
      headers: { 'content-type': 'application/json', accept: 'application/json' },
      body: JSON.stringify({ jsonrpc: '2.0', id, method, params }),
      timeoutMs: cfg.timeoutMs,
      signal,
    });
    let body: unknown;
    try {
      body = parseExactJson(res.text);
    } catch {
      const reason = res.status >= 200 && res.status <= 299 ? 'not_json' : 'http_error';
      throw new SourceError(
        reason,
        `${where} ${method}: HTTP ${res.status}, not JSON-RPC: ${preview(res.text)}`,
      );
    }
    // Some providers send a JSON-RPC error with a 4xx/5xx status; its code and message say more than the status.
    const error = isObject(body) ? body['error'] : undefined;
    if (isObject(error)) {
      const code = error['code'] instanceof JsonNumber ? Number(error['code'].text) : NaN;
      throw new RpcError(code, typeof error['message'] === 'string' ? error['message'] : 'unknown', method);
    }
    if (res.status < 200 || res.status > 299)
      throw new SourceError(
        'http_error',
        `${where} ${method}: HTTP ${res.status}, expected 200: ${preview(res.text)}`,
      );
    if (!isObject(body) || !('result' in body))
      throw bad(method, 'expected a JSON-RPC 2.0 answer with "result" or "error"');
    const answerId = body['id'];
    if (!(answerId instanceof JsonNumber) || answerId.text !== String(id))
      throw bad(method, `expected the answer to request id ${id}`);
    return body['result'];
  }

  return {
    id: cfg.id,
    kind: 'solana',
    supplies: ['token-supply'],
    timeoutMs: cfg.timeoutMs,

    async poll(signal): Promise<SourceSnapshot> {
      const t = now();
      const slot = await call('getSlot', [{ commitment }], signal);
      if (safeInt(slot) === undefined) throw bad('getSlot', 'expected the slot, a non-negative integer');
      return { source: cfg.id, ts: t, tickers: [] };
    },

    async tokenSupply(mint): Promise<TokenSupply> {
      const signal = background.signal;
      const r = await call('getTokenSupply', [mint, { commitment }], signal);
      const value = isObject(r) ? r['value'] : undefined;
      const context = isObject(r) ? r['context'] : undefined;
      if (!isObject(value) || !isObject(context))
        throw bad('getTokenSupply', 'expected {"context":{"slot"},"value":{"amount","decimals"}}');
      const amount = value['amount'];
      if (typeof amount !== 'string' || !/^(0|[1-9]\d*)$/.test(amount) || BigInt(amount) > U64_MAX)
        throw bad(
          'getTokenSupply',
          `expected value.amount to be a u64 string, got ${JSON.stringify(amount ?? null)}`,
        );
      const decimals = safeInt(value['decimals']);
      if (decimals === undefined || decimals > 255)
        throw bad('getTokenSupply', 'expected value.decimals to be an integer from 0 to 255');
      const slot = safeInt(context['slot']);
      if (slot === undefined)
        throw bad('getTokenSupply', 'expected context.slot to be a non-negative integer');

      const time = await call('getBlockTime', [slot], signal);
      if (time === null) throw bad('getBlockTime', `the node has no time for slot ${slot}`);
      const seconds = safeInt(time);
      if (seconds === undefined || seconds === 0)
        throw bad('getBlockTime', `expected the time of slot ${slot} in UNIX seconds`);
      return { units: BigInt(amount), decimals, slot, blockTime: seconds * 1000 };
    },

    async close() {
      background.abort();
    },
  };
}
