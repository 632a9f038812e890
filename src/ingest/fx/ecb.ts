/**
 * The ECB's euro foreign exchange reference rates (`eurofxref-daily.xml`) as an FX source. The file is a
 * `gesmes:Envelope` with three levels of `Cube`: a container, one per day (`time='YYYY-MM-DD'`, newest first in the
 * 90-day and history files) and one per currency (`currency='USD' rate='1.0705'`: 1 EUR = rate units). We read the
 * newest day only, with a small scan rather than an XML parser: the format is fixed and tiny.
 */
import { preview, SourceError } from '../http.ts';
import type { FxRate, TickerSource } from '../types.ts';
import { catalogCode, createFxSource } from './common.ts';
import type { FxDefaults, FxRead, FxReject, FxSourceConfig } from './common.ts';

export type { FxSourceConfig } from './common.ts';

/** Defaults of an `ecb` entry. */
export const ECB_DEFAULTS: FxDefaults = {
  // Published once per working day (around 16:00 CET): an hourly look picks it up within the hour.
  everyMs: 3_600_000,
  // 5.5 days: the longest gap between two publications (Easter, Thursday to Tuesday; Christmas on a Monday, Friday
  // to Wednesday) is 5 days, plus half a day for a late one. The engine's default window, for the same reason.
  maxAgeMs: 132 * 3_600_000,
  // The daily file is about 1.5 kB.
  timeoutMs: 10_000,
};

const NAMESPACE = 'http://www.ecb.int/vocabulary/2002-08-01/eurofxref';
const DECIMAL = /^\d+(?:\.\d+)?$/;

/** Attributes of one tag's attribute text, in either quote style and any order. */
function attributes(text: string): Map<string, string> {
  const out = new Map<string, string>();
  for (const m of text.matchAll(/([\w:.-]+)\s*=\s*(?:'([^']*)'|"([^"]*)")/g))
    out.set(m[1] as string, (m[2] ?? m[3] ?? '').trim());
  return out;
}

function readEcb(text: string, where: string, source: string): FxRead {
  const body = text.replace(/<!--[\s\S]*?-->/g, '');
  if (!/<(?:[\w-]+:)?Envelope\b/.test(body) || !body.includes(NAMESPACE))
    throw new SourceError(
      'bad_response',
      `${where}: expected the ECB eurofxref XML (a gesmes:Envelope in ${NAMESPACE}), got ${preview(text)}`,
    );
  let date: string | undefined;
  const rates = new Map<string, string>();
  // Every `<Cube …>` / `<Cube …/>` in document order: the first dated one opens the newest day, the next one ends it.
  for (const m of body.matchAll(/<Cube\b([^>]*?)\/?>/g)) {
    const a = attributes(m[1] as string);
    const time = a.get('time');
    if (time !== undefined) {
      if (date !== undefined) break;
      date = time;
      continue;
    }
    const currency = a.get('currency');
    const rate = a.get('rate');
    if (date !== undefined && currency !== undefined && rate !== undefined && !rates.has(currency))
      rates.set(currency, rate);
  }
  if (date === undefined)
    throw new SourceError(
      'bad_response',
      `${where}: expected a <Cube time='YYYY-MM-DD'> with the day's rates`,
    );
  // The rates are set at the daily concertation at 14:15 Frankfurt time: 13:15 UTC, or 12:15 UTC in summer time.
  const winter = Date.parse(`${date}T13:15:00Z`);
  const ts = winter - (frankfurtSummerTime(winter) ? 3_600_000 : 0);
  if (
    !/^\d{4}-\d{2}-\d{2}$/.test(date) ||
    Number.isNaN(ts) ||
    new Date(ts).toISOString().slice(0, 10) !== date
  )
    throw new SourceError(
      'bad_response',
      `${where}: Cube time ${JSON.stringify(date)} is not a YYYY-MM-DD date`,
    );

  const usdText = rates.get('USD');
  const usd = usdText !== undefined && DECIMAL.test(usdText) ? Number(usdText) : 0;
  if (!(usd > 0))
    throw new SourceError(
      'bad_response',
      `${where}: expected a USD rate (a positive decimal) among the rates of ${date}, got ${usdText ?? 'none'}`,
    );
  // EUR is the base: 1 EUR = `usd` USD, and 1 X = usd / rate(X) USD.
  const fx: FxRate[] = [{ currency: 'eur', usdPerUnit: usd, ts, source }];
  const rejects: FxReject[] = [];
  for (const [code, rate] of rates) {
    const currency = catalogCode(code);
    if (currency === null || currency === 'eur') continue;
    const n = DECIMAL.test(rate) ? Number(rate) : 0;
    if (n > 0) fx.push({ currency, usdPerUnit: usd / n, ts, source });
    else rejects.push({ reason: 'ecb.rate: must be a positive decimal', record: { currency: code, rate } });
  }
  return { fx, rejects };
}

/** The ECB reference rates as an FX source (kind `fx`): EUR and every catalog currency the ECB quotes, in USD. */
export function createEcbSource(cfg: FxSourceConfig, deps: { now?: () => number } = {}): TickerSource {
  return createFxSource(
    cfg,
    { accept: 'application/xml, text/xml', read: (res, where, source) => readEcb(res.text, where, source) },
    deps.now ?? Date.now,
  );
}

/**
 * Whether `t` falls in EU summer time (CEST): from 01:00 UTC on the last Sunday of March to 01:00 UTC on the last
 * Sunday of October.
 */
export function frankfurtSummerTime(t: number): boolean {
  const y = new Date(t).getUTCFullYear();
  const lastSunday = (month: number): number => {
    const end = Date.UTC(y, month + 1, 0, 1); // the month's last day, 01:00 UTC
    return end - new Date(end).getUTCDay() * 86_400_000;
  };
  return t >= lastSunday(2) && t < lastSunday(9);
}
