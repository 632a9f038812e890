/**
 * chainz.cryptoid.info as a supply source (kind `explorer`): `GET {url}/{ticker}/api.dws?q=circulating` answers
 * `text/plain` with a bare decimal of whole coins, e.g. `65451157.99675740` for Litecoin (recorded 2020-07-13; see
 * test/fixtures/explorers/README.md). Verified tickers include `ltc` and `dgb`; Dogecoin is not known to be
 * served. No rate limit is documented, so we ask rarely (`everyMs`). The optional key travels as `&key=` (the
 * API's own parameter; supply queries work without one) and never appears in a message.
 */
import { BackoffGate, redact, SourceError } from '../http.ts';
import type { TickerSource } from '../types.ts';
import { createSupplySource, isOk, safePreview } from './common.ts';
import type { ExplorerSupplyConfig } from './common.ts';

export interface CryptoidConfig extends ExplorerSupplyConfig {
  /** Source id, e.g. `cryptoid:ltc`. */
  id: string;
  /** The coin's kit ticker, e.g. `LTC`. */
  coin: string;
  /** API base, no trailing slash; normally `https://chainz.cryptoid.info`. */
  url: string;
  /** The coin's path segment on cryptoid, lowercase, e.g. `ltc`, `dgb`. */
  ticker: string;
  /** API key, sent as `&key=`; optional (supply queries need none). */
  key?: string;
  /** Budget of one poll, ms; default 10,000. */
  timeoutMs: number;
  /** Fetch at most this often, ms; default 3,600,000. */
  everyMs: number;
}

/** Defaults of the optional fields of a cryptoid entry. */
export const CRYPTOID_DEFAULTS = {
  // The answer is ~20 bytes behind Cloudflare; 10 s is plenty and keeps a stuck poll from lingering.
  timeoutMs: 10_000,
  // Supply moves by a fraction of a percent a day and the service states no limit: once an hour is polite.
  everyMs: 3_600_000,
} as const;

/** A bare non-negative decimal: no sign, no exponent, no leading zeros, no separators. */
const DECIMAL = /^(0|[1-9]\d*)(\.\d+)?$/;

export function createCryptoidSource(cfg: CryptoidConfig, deps: { now?: () => number } = {}): TickerSource {
  const now = deps.now ?? Date.now;
  const gate = new BackoffGate(cfg.id, now);
  const key = cfg.key ? `&key=${encodeURIComponent(cfg.key)}` : '';
  const url = `${cfg.url}/${encodeURIComponent(cfg.ticker)}/api.dws?q=circulating${key}`;
  const where = `${redact(url)}?q=circulating`;

  return createSupplySource(
    cfg,
    async (signal) => {
      const res = await gate.request({
        url,
        headers: { accept: 'text/plain' },
        timeoutMs: cfg.timeoutMs,
        signal,
      });
      if (!isOk(res))
        throw new SourceError(
          'http_error',
          `${where}: HTTP ${res.status}, expected 200: ${safePreview(res.text, cfg.key)}`,
        );
      // The live answer has no trailing newline, but one (or surrounding blanks) would not change the figure.
      const text = res.text.trim();
      if (!DECIMAL.test(text))
        throw new SourceError(
          'bad_response',
          `${where}: expected a bare non-negative decimal of coins, got ${safePreview(res.text, cfg.key)}`,
        );
      return text;
    },
    now,
  );
}
