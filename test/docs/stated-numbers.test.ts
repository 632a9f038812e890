/**
 * Numbers the README and the schema's descriptions state, held against the code that decides them (issue 14.1): a
 * constant that changes without its sentence fails here. Each claim is a pattern over the text (whitespace and
 * blockquote markers folded) whose numbers must equal the code's, in every place it appears; a claim that no longer
 * matches anything fails too, so a reworded sentence is brought back under the test. The configuration table's
 * defaults are checked against the configuration reader itself.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import {
  CONCURRENCY_LIMITS,
  CONCURRENCY_QUEUE,
  COST_BUDGETS,
  ENTERPRISE_MAX_PER_MINUTE,
  KEYLESS_PER_MINUTE,
  PLAN_LIMITS,
} from '../../src/access/plans.ts';
import { ASSETS, KIT_TICKERS } from '../../src/catalog/assets.ts';
import { DEFAULT_DEMO_SEED, loadConfig } from '../../src/config.ts';
import { DEMO_VENUES } from '../../src/demo/venues.ts';
import { DAY_MS, NINETY_FIVE_DAYS_MS, TWO_DAYS_MS } from '../../src/engine/history.ts';
import { DEFAULT_PRICE_RULES } from '../../src/engine/price.ts';
import { DEFAULT_SUPPLY_OPTIONS } from '../../src/engine/supply.ts';
import { MAX_DAYS } from '../../src/market/chart-params.ts';
import { DEFAULT_COST_LIMITS } from '../../router/plugins/query-cost.ts';

const ROOT = join(import.meta.dirname, '..', '..');
const read = (f: string): string =>
  readFileSync(join(ROOT, f), 'utf8')
    .replace(/\n>\s?/g, '\n')
    .replace(/\s+/g, ' ');
const num = (s: string): number => Number(s.replace(/,/g, ''));

const FIVE_MIN_DAYS = TWO_DAYS_MS / DAY_MS;
const HOURLY_DAYS = NINETY_FIVE_DAYS_MS / DAY_MS;
const cex = DEMO_VENUES.filter((v) => v.kind === 'cex').length;
const dex = DEMO_VENUES.filter((v) => v.kind === 'dex').length;
const demoDays = loadConfig({}).demoDays;

/** [file, what, pattern (global), the numbers each match must capture]. */
const CLAIMS: [string, string, RegExp, number[]][] = [
  [
    'schema/markets.graphql',
    'chart resolution by span',
    /5-minute up to ([\d,]+) days?, hourly up to ([\d,]+) days/g,
    [FIVE_MIN_DAYS, HOURLY_DAYS],
  ],
  ['schema/markets.graphql', 'days of a chart', /Days of history back from now, 1–([\d,]+)/g, [MAX_DAYS]],
  [
    'README.md',
    'chart resolution',
    /5-minute points for spans up to ([\d,]+) days, hourly up to ([\d,]+) days/g,
    [FIVE_MIN_DAYS, HOURLY_DAYS],
  ],
  [
    'README.md',
    'history kept',
    /OHLC bars at 5-minute \(([\d,]+) days\), hourly \(([\d,]+) days\)/g,
    [FIVE_MIN_DAYS, HOURLY_DAYS],
  ],
  [
    'README.md',
    'the demo dataset',
    /dataset: ([\d,]+) assets, ([\d,]+) invented venues \(([\d,]+) exchanges, ([\d,]+) DEXes\), ([\d,]+) days of history/g,
    [ASSETS.length, DEMO_VENUES.length, cex, dex, demoDays],
  ],
  ['README.md', 'the demo seed', /seed `(\d+)`/g, [DEFAULT_DEMO_SEED]],
  ['README.md', 'stale tickers', /older than ([\d,]+) min\)/g, [DEFAULT_PRICE_RULES.maxAgeMs / 60_000]],
  ['README.md', 'outliers', /beyond ([\d,]+) MAD/g, [DEFAULT_PRICE_RULES.madK]],
  [
    'README.md',
    'supply agreement',
    /two independent supply sources agree within ([\d,]+) %/g,
    [DEFAULT_SUPPLY_OPTIONS.tolerance * 100],
  ],
  [
    'README.md',
    'rate limits',
    /No key: ([\d,]+) requests\/minute per IP\..*?free ([\d,]+), pro ([\d,]+), enterprise up to ([\d,]+)/g,
    [KEYLESS_PER_MINUTE, PLAN_LIMITS.free, PLAN_LIMITS.pro, ENTERPRISE_MAX_PER_MINUTE],
  ],
  [
    'README.md',
    'keyless limit in examples',
    /keyless: ([\d,]+) requests\/min, cost ceiling ([\d,]+)/g,
    [KEYLESS_PER_MINUTE, DEFAULT_COST_LIMITS.keyless],
  ],
  [
    'README.md',
    'cost ceilings',
    /keyless=(\d+),free=(\d+),pro=(\d+),enterprise=(\d+)/g,
    [
      DEFAULT_COST_LIMITS.keyless,
      DEFAULT_COST_LIMITS.free,
      DEFAULT_COST_LIMITS.pro,
      DEFAULT_COST_LIMITS.enterprise,
    ],
  ],
  ['README.md', 'kit coins', /the complete kit and ([\d,]+) per-coin kits/g, [KIT_TICKERS.length]],
  [
    'docs/plans-and-limits.md',
    'cost budgets, requests in flight and waiting',
    /\| no key \| ([\d,]+) \| ([\d,]+) \| ([\d,]+) \| \| `free` \| ([\d,]+) \| ([\d,]+) \| ([\d,]+) \| \| `pro` \| ([\d,]+) \| ([\d,]+) \| ([\d,]+) \| \| `enterprise` \| ([\d,]+), or as agreed \| ([\d,]+) \| ([\d,]+) \|/g,
    (['keyless', 'free', 'pro', 'enterprise'] as const).flatMap((plan) => [
      COST_BUDGETS[plan],
      CONCURRENCY_LIMITS[plan],
      CONCURRENCY_QUEUE[plan],
    ]),
  ],
];

describe('numbers stated in the README and the schema', () => {
  it.each(CLAIMS)('%s: %s', (file, _what, pattern, want) => {
    const matches = [...read(file).matchAll(pattern)];
    expect(
      matches.length,
      `no sentence of ${file} matches ${pattern}: reworded? update the claim`,
    ).toBeGreaterThan(0);
    for (const m of matches) expect(m.slice(1).map(num), m[0]).toEqual(want);
  });

  it("the configuration tables' defaults are the configuration's", () => {
    const rows = [
      ...read('README.md').matchAll(
        /\| `([A-Z_]+)`(?: \/ `([A-Z_]+)`)? \| `([^`|]+)`(?: \/ `([^`|]+)`)? \|/g,
      ),
    ];
    expect(rows.length).toBeGreaterThanOrEqual(14);
    const base = loadConfig({});
    for (const r of rows) {
      const pairs: [string, string][] = [[r[1] as string, r[3] as string]];
      if (r[2] && r[4]) pairs.push([r[2], r[4]]);
      for (const [name, value] of pairs) {
        if (/^[A-Z_:]+$/.test(value)) continue; // a default described, not given (`HOST:PORT`)
        // Stating the documented default explicitly must change nothing.
        expect(loadConfig({ [name]: value }), `${name} = ${value}`).toEqual(base);
      }
    }
  });
});
