/**
 * A Blockbook v2 explorer (trezor/blockbook; e.g. `https://ltc1.trezor.io`) as a source of reserve balances for
 * the bridge (kind `explorer`, supplies `balances`). Blockbook exposes **no coin supply**: its API has no supply,
 * circulation or UTXO-total figure (nothing in its tree mentions supply), so supply comes from a node, cryptoid or
 * Blockchair instead.
 *
 * `poll` reads the status (`GET {url}/api/v2`, Blockbook's `/api/` index) as a liveness check: it must be a
 * Blockbook status and in sync. `balances` reads the status, each address's confirmed `balance` (`GET
 * {url}/api/v2/address/{a}?details=basic`: a string of base units), the status again, and repeats the whole read
 * (at most 3 times) when the best height moved, so every balance is of one block. Blockbook writes a block and
 * raises its height within milliseconds of each other, so a read that starts in that instant can still straddle it.
 *
 * The block time is the block's own header time (`GET {url}/api/v2/block/{height}`), not the status's
 * `lastBlockTime`: despite its name that is the wall-clock time Blockbook finished indexing (`LastSync` in
 * `common/internalstate.go`), nanoseconds and all.
 *
 * Errors: Blockbook answers `{"error":"…"}` with HTTP 400 for a request it refuses (an invalid address:
 * `bad_response` with its text) and 500 for its own failures (`http_error` with its text; among them `Service
 * unavailable` from `/api/v2` while the first sync runs, when only `/api/` answers).
 */
import { BackoffGate, jsonBody, preview, redact, SourceError } from '../http.ts';
import type { AddressBalance, BalanceReader, SourceSnapshot, TickerSource } from '../types.ts';
import { assetOfTicker } from '../../catalog/assets.ts';
import { isOk } from './common.ts';

export interface BlockbookConfig {
  /** Source id, e.g. `blockbook:ltc`. */
  id: string;
  /** The coin's kit ticker, e.g. `LTC` (the instance must index that coin). */
  coin: string;
  /** Base URL of the instance, no trailing slash, e.g. `https://ltc1.trezor.io`. */
  url: string;
  /** Budget of each request (the poll's one, and each of a balance read's), ms; default 10,000. */
  timeoutMs: number;
}

/** Defaults of the optional fields of a Blockbook entry. */
export const BLOCKBOOK_DEFAULTS = {
  // Status and `details=basic` answers are under 2 kB; a loaded public instance still answers in a few seconds.
  timeoutMs: 10_000,
} as const;

export interface BlockbookSource extends TickerSource, BalanceReader {}

/** Reads of the whole balance set before giving up on a chain that keeps moving. */
const MAX_ATTEMPTS = 3;

const isObject = (v: unknown): v is Record<string, unknown> =>
  typeof v === 'object' && v !== null && !Array.isArray(v);

const isHeight = (v: unknown): v is number => typeof v === 'number' && Number.isSafeInteger(v) && v >= 0;

export function createBlockbookSource(
  cfg: BlockbookConfig,
  deps: { now?: () => number } = {},
): BlockbookSource {
  const now = deps.now ?? Date.now;
  assetOfTicker(cfg.coin);
  const gate = new BackoffGate(cfg.id, now);
  const background = new AbortController();

  /** One GET of a JSON answer; Blockbook's `{"error":…}` answers become `SourceError`s carrying its text. */
  async function get(path: string, signal: AbortSignal): Promise<Record<string, unknown>> {
    const url = `${cfg.url}${path}`;
    const where = redact(url);
    const res = await gate.request({
      url,
      headers: { accept: 'application/json' },
      timeoutMs: cfg.timeoutMs,
      signal,
    });
    let body: unknown;
    try {
      body = jsonBody(res, where);
    } catch (err) {
      if (isOk(res)) throw err;
      throw new SourceError('http_error', `${where}: HTTP ${res.status}, expected 200: ${preview(res.text)}`);
    }
    const error = isObject(body) ? body['error'] : undefined;
    // `sendtx` nests it as {"error":{"message":…}}; the endpoints used here write a string, but read both.
    const text = isObject(error) && typeof error['message'] === 'string' ? error['message'] : error;
    if (typeof text === 'string') {
      const reason = res.status === 400 || isOk(res) ? 'bad_response' : 'http_error';
      throw new SourceError(reason, `${where}: HTTP ${res.status}, Blockbook error: ${text}`);
    }
    if (!isOk(res))
      throw new SourceError('http_error', `${where}: HTTP ${res.status}, expected 200: ${preview(res.text)}`);
    if (!isObject(body)) throw new SourceError('bad_response', `${where}: expected a JSON object`);
    return body;
  }

  /** The best height of an in-sync Blockbook status. */
  async function bestHeight(signal: AbortSignal): Promise<number> {
    const where = redact(`${cfg.url}/api/v2`);
    const status = await get('/api/v2', signal);
    const bb = status['blockbook'];
    if (!isObject(bb) || !isHeight(bb['bestHeight']) || !isObject(status['backend']))
      throw new SourceError(
        'bad_response',
        `${where}: expected a Blockbook status with "blockbook.bestHeight" (an integer) and "backend"`,
      );
    if (bb['inSync'] === false)
      throw new SourceError(
        'bad_response',
        `${where}: Blockbook is still syncing (inSync false at height ${bb['bestHeight']})`,
      );
    return bb['bestHeight'];
  }

  async function confirmedBalance(address: string, signal: AbortSignal): Promise<bigint> {
    const path = `/api/v2/address/${encodeURIComponent(address)}?details=basic`;
    const o = await get(path, signal);
    const balance = o['balance'];
    if (typeof balance !== 'string' || !/^(0|[1-9]\d*)$/.test(balance))
      throw new SourceError(
        'bad_response',
        `${redact(`${cfg.url}${path}`)}: expected "balance" to be a string of base units, got ${JSON.stringify(balance ?? null)}`,
      );
    return BigInt(balance);
  }

  /** The header time of the main-chain block at `height`, UNIX ms. */
  async function blockTime(height: number, signal: AbortSignal): Promise<number> {
    const path = `/api/v2/block/${height}?pageSize=1`;
    const block = await get(path, signal);
    const time = block['time'];
    if (block['height'] !== height || !isHeight(time) || time === 0)
      throw new SourceError(
        'bad_response',
        `${redact(`${cfg.url}${path}`)}: expected block ${height} with its "time" in UNIX seconds`,
      );
    return time * 1000;
  }

  return {
    id: cfg.id,
    kind: 'explorer',
    supplies: ['balances'],
    timeoutMs: cfg.timeoutMs,

    async poll(signal): Promise<SourceSnapshot> {
      const t = now();
      await bestHeight(signal);
      return { source: cfg.id, ts: t, tickers: [] };
    },

    async balances(addresses): Promise<AddressBalance[]> {
      if (addresses.length === 0) return [];
      const signal = background.signal;
      const heights: number[] = [];
      for (let attempt = 1; ; attempt++) {
        const before = await bestHeight(signal);
        const units: bigint[] = [];
        for (const a of addresses) units.push(await confirmedBalance(a, signal));
        const after = await bestHeight(signal);
        if (after === before) {
          const time = await blockTime(before, signal);
          return addresses.map((address, i) => ({
            address,
            units: units[i] as bigint,
            height: before,
            blockTime: time,
          }));
        }
        heights.push(before, after);
        if (attempt === MAX_ATTEMPTS)
          throw new SourceError(
            'bad_response',
            `${redact(cfg.url)}: the chain moved during each of ${MAX_ATTEMPTS} balance reads (heights ${heights.join(', ')})`,
          );
      }
    },

    async close() {
      background.abort();
    },
  };
}
