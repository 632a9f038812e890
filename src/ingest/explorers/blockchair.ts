/**
 * Blockchair as a supply source (kind `explorer`): `GET {url}/{chain}/stats` answers
 * `{"data":{…,"circulation":6545179573347135,…},"context":{"code":200,…}}` where `circulation` is an integer of
 * base units (satoshi-like, 8 decimals on every chain we use). Dogecoin's exceeds 2^53, so the answer is parsed
 * with exact numbers and divided as a decimal. Chains: `litecoin`, `dogecoin` (DigiByte is not served).
 *
 * Without a key the API allows 1440 requests a day and 30 a minute (non-commercial use); over a limit it answers
 * 402, 429 or 435, and 430/434 when it blocks an address: all start the back-off. The key travels as `?key=` and
 * never appears in a message.
 *
 * Trap: a circulation written as a float (`1.45e+19`) is not an exact count and is refused (`bad_response`), not
 * rounded; no such answer has been seen, but an int64 overflow on the service's side would look like that.
 */
import { JsonNumber, parseExactJson, toUnits } from '../exact-json.ts';
import { BackoffGate, redact, SourceError } from '../http.ts';
import type { TickerSource } from '../types.ts';
import { createSupplySource, isOk, safePreview, unitsToDecimal } from './common.ts';
import type { ExplorerSupplyConfig } from './common.ts';

export interface BlockchairConfig extends ExplorerSupplyConfig {
  /** Source id, e.g. `blockchair:ltc`. */
  id: string;
  /** The coin's kit ticker, e.g. `LTC`. */
  coin: string;
  /** API base, no trailing slash; normally `https://api.blockchair.com`. */
  url: string;
  /** Blockchair's chain name, e.g. `litecoin`, `dogecoin`. */
  chain: string;
  /** API key, sent as `?key=`; optional under 1440 requests a day (non-commercial use). */
  key?: string;
  /** Budget of one poll, ms; default 10,000. */
  timeoutMs: number;
  /** Fetch at most this often, ms; default 3,600,000. */
  everyMs: number;
}

/** Defaults of the optional fields of a Blockchair entry. */
export const BLOCKCHAIR_DEFAULTS = {
  // The stats answer is ~2 kB and computed in well under a second (`context.time` ≈ 0.5 s).
  timeoutMs: 10_000,
  // 24 requests a day per chain: far inside the keyless 1440/day, and supply moves slowly.
  everyMs: 3_600_000,
} as const;

/** Base-unit places of `circulation` (satoshi, litoshi, koinu). */
const DECIMALS = 8;

const isObject = (v: unknown): v is Record<string, unknown> =>
  typeof v === 'object' && v !== null && !Array.isArray(v) && !(v instanceof JsonNumber);

/** `context.error` of a Blockchair answer, when it has one. */
function contextError(text: string): string | undefined {
  try {
    const body = JSON.parse(text) as unknown;
    const context = isObject(body) ? body['context'] : undefined;
    const error = isObject(context) ? context['error'] : undefined;
    return typeof error === 'string' ? error : undefined;
  } catch {
    return undefined;
  }
}

export function createBlockchairSource(
  cfg: BlockchairConfig,
  deps: { now?: () => number } = {},
): TickerSource {
  const now = deps.now ?? Date.now;
  const gate = new BackoffGate(cfg.id, now);
  // `bitcoin/testnet` is one chain name of two segments.
  const chain = cfg.chain.split('/').map(encodeURIComponent).join('/');
  const url = `${cfg.url}/${chain}/stats${cfg.key ? `?key=${encodeURIComponent(cfg.key)}` : ''}`;
  const where = redact(url);
  const bad = (what: string) => new SourceError('bad_response', `${where}: ${what}`);

  return createSupplySource(
    cfg,
    async (signal) => {
      const res = await gate.request({
        url,
        headers: { accept: 'application/json' },
        timeoutMs: cfg.timeoutMs,
        signal,
      });
      if (!isOk(res)) {
        const error = contextError(res.text);
        throw new SourceError(
          'http_error',
          `${where}: HTTP ${res.status}, expected 200: ${error !== undefined ? safePreview(error, cfg.key) : safePreview(res.text, cfg.key)}`,
        );
      }
      let body: unknown;
      try {
        body = parseExactJson(res.text);
      } catch {
        throw new SourceError(
          'not_json',
          `${where}: HTTP ${res.status}, not JSON: ${safePreview(res.text, cfg.key)}`,
        );
      }
      if (!isObject(body) || !isObject(body['data']) || !isObject(body['context']))
        throw bad('expected an object with "data" and "context"');
      const code = body['context']['code'];
      if (!(code instanceof JsonNumber) || code.text !== '200') {
        const error = body['context']['error'];
        throw bad(
          `expected context.code 200, got ${code instanceof JsonNumber ? code.text : JSON.stringify(code ?? null)}${typeof error === 'string' ? `: ${safePreview(error, cfg.key)}` : ''}`,
        );
      }
      const circulation = body['data']['circulation'];
      const units = circulation instanceof JsonNumber ? toUnits(circulation, 0) : null;
      if (units === null)
        throw bad(
          `expected data.circulation to be an integer of base units, got ${circulation instanceof JsonNumber ? circulation.text : JSON.stringify(circulation ?? null)}`,
        );
      return unitsToDecimal(units, DECIMALS);
    },
    now,
  );
}
