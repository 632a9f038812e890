/**
 * The recorded FX feeds (`test/fixtures/fx`: the ECB's daily XML and open.er-api's latest USD rates) as a recorded
 * server answers them, their dates moved to now so that a source reads them as fresh.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Recorded } from './recorded-http.ts';

const FX = join(import.meta.dirname, '..', 'fixtures', 'fx');
const DAY = 86_400_000;

/** The feed's answer at `pathname` (`/ecb/eurofxref-daily.xml`, `/er-api/v6/latest/USD`); null for any other path. */
export function freshFxFeed(pathname: string): Recorded | null {
  if (pathname === '/ecb/eurofxref-daily.xml') {
    const yesterday = new Date(Date.now() - DAY).toISOString().slice(0, 10);
    return {
      headers: { 'content-type': 'text/xml' },
      body: readFileSync(join(FX, 'ecb-eurofxref-daily-2024-06-28.xml'), 'utf8').replace(
        "time='2024-06-28'",
        `time='${yesterday}'`,
      ),
    };
  }
  if (pathname === '/er-api/v6/latest/USD') {
    const now = Math.floor(Date.now() / 1000);
    return {
      body: readFileSync(join(FX, 'er-api-latest-usd-2024-08-19.json'), 'utf8')
        .replace(/"time_last_update_unix":\d+/, `"time_last_update_unix":${now - 3600}`)
        .replace(/"time_next_update_unix":\d+/, `"time_next_update_unix":${now + 23 * 3600}`),
    };
  }
  return null;
}
