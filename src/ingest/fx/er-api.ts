/**
 * ExchangeRate-API's open endpoint (`https://open.er-api.com/v6/latest/USD`, no key) as an FX source. The answer:
 * `{"result":"success","base_code":"USD","time_last_update_unix":…,"time_next_update_unix":…,"rates":{"EUR":0.92,…}}`
 * where a rate is units of the currency per one unit of the base. The provider refreshes once a day and answers
 * HTTP 429 for 20 minutes to an IP that asks too often, so we ask again only after `time_next_update_unix`.
 */
import { jsonBody, SourceError } from '../http.ts';
import type { FxRate, TickerSource } from '../types.ts';
import { catalogCode, createFxSource } from './common.ts';
import type { FxDefaults, FxRead, FxReject, FxSourceConfig } from './common.ts';

export type { FxSourceConfig } from './common.ts';

/** Defaults of an `open-er-api` entry. */
export const ER_API_DEFAULTS: FxDefaults = {
  // A floor only: after a success the next fetch waits for `time_next_update_unix` (about a day later).
  everyMs: 3_600_000,
  // Rates are replaced about every 24 h; two days lets one missed refresh (a failed poll, a 429 ban) pass.
  maxAgeMs: 2 * 86_400_000,
  // The answer is about 3 kB.
  timeoutMs: 10_000,
};

/** Margin after the provider's announced next update before we ask. */
const NEXT_UPDATE_MARGIN_MS = 60_000;
/** A `time_next_update_unix` further than this past the poll is not believed (we would stop asking). */
const MAX_WAIT_MS = 2 * 86_400_000;
/** How long the provider refuses an IP after rate-limiting it. */
const RATE_LIMIT_PAUSE_MS = 20 * 60_000;

const isObject = (v: unknown): v is Record<string, unknown> =>
  typeof v === 'object' && v !== null && !Array.isArray(v);

const unixSeconds = (v: unknown): number | undefined =>
  typeof v === 'number' && Number.isSafeInteger(v) && v > 0 ? v : undefined;

function readErApi(body: unknown, where: string, source: string, t: number): FxRead {
  if (!isObject(body))
    throw new SourceError('bad_response', `${where}: expected an object with "result" and "rates"`);
  if (body['result'] !== 'success')
    throw new SourceError(
      'bad_response',
      `${where}: expected "result":"success", got ${JSON.stringify(body['result'])} (error-type ${JSON.stringify(body['error-type'] ?? null)})`,
    );
  const rates = body['rates'];
  if (!isObject(rates)) throw new SourceError('bad_response', `${where}: expected "rates" to be an object`);
  const updated = unixSeconds(body['time_last_update_unix']);
  if (updated === undefined)
    throw new SourceError('bad_response', `${where}: expected "time_last_update_unix" in UNIX seconds`);
  const usd = rates['USD'];
  if (typeof usd !== 'number' || !Number.isFinite(usd) || usd <= 0)
    throw new SourceError(
      'bad_response',
      `${where}: expected a positive "rates.USD" to convert the rates to USD`,
    );

  const ts = updated * 1000;
  const fx: FxRate[] = [];
  const rejects: FxReject[] = [];
  for (const [code, rate] of Object.entries(rates)) {
    const currency = catalogCode(code);
    if (currency === null) continue;
    // 1 base = usd USD = rate X, so 1 X = usd / rate USD (usd is 1 when the base is USD).
    if (typeof rate === 'number' && Number.isFinite(rate) && rate > 0)
      fx.push({ currency, usdPerUnit: usd / rate, ts, source });
    else
      rejects.push({ reason: 'er-api.rates: must be a positive number', record: { currency: code, rate } });
  }
  const next = unixSeconds(body['time_next_update_unix']);
  const read: FxRead = { fx, rejects };
  if (next !== undefined) read.notBefore = Math.min(next * 1000 + NEXT_UPDATE_MARGIN_MS, t + MAX_WAIT_MS);
  return read;
}

/** open.er-api.com as an FX source (kind `fx`): every catalog currency it quotes, in USD. */
export function createErApiSource(cfg: FxSourceConfig, deps: { now?: () => number } = {}): TickerSource {
  const now = deps.now ?? Date.now;
  return createFxSource(
    cfg,
    {
      accept: 'application/json',
      rateLimitPauseMs: RATE_LIMIT_PAUSE_MS,
      read: (res, where, source) => readErApi(jsonBody(res, where), where, source, now()),
    },
    now,
  );
}
