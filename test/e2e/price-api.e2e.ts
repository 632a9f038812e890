import { execFile } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import Coingecko from '@coingecko/coingecko-typescript';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ServeProcess } from '../support/process.ts';
import { startServe, waitForStatus } from '../support/process.ts';

const run = promisify(execFile);
const ROOT = join(import.meta.dirname, '..', '..');
const dataDir = mkdtempSync(join(tmpdir(), 'cw-price-e2e-'));
const env = { DATA_DIR: dataDir, DEMO_DAYS: '10', LOG_LEVEL: 'warn' };
let server: ServeProcess;
let base: string;

/** Runs the real CLI against the running server (operator endpoints, admin token from DATA_DIR). */
async function cli(...args: string[]): Promise<Record<string, unknown>> {
  const { stdout } = await run(
    process.execPath,
    [join(ROOT, 'bin', 'coinwallet.js'), ...args, '--url', server.url],
    {
      env: { ...process.env, ...env },
    },
  );
  return JSON.parse(stdout) as Record<string, unknown>;
}

beforeAll(async () => {
  server = await startServe(env, 60_000);
  await waitForStatus(`${server.url}/healthz`, 200, 180_000);
  base = `${server.url}/v1/agg`;
});
afterAll(async () => {
  await server?.stop('SIGTERM');
  rmSync(dataDir, { recursive: true, force: true });
});

describe('the price API in the real product', () => {
  it('keys made with the CLI while the server runs: pending 401, approved 200 with plan headers, revoked 401 at once', async () => {
    const created = await cli('keys', 'create', '--plan', 'free', '--description', 'e2e');
    const key = created.key as string;
    expect(created.status).toBe('pending');
    const ask = () =>
      fetch(`${base}/simple/price?ids=litecoin&vs_currencies=usd`, { headers: { 'x-sp-api-key': key } });
    let r = await ask();
    expect(r.status).toBe(401);
    expect(((await r.json()) as { error: { code: string } }).error.code).toBe('API_KEY_PENDING');
    await cli('keys', 'approve', created.id as string);
    r = await ask();
    expect(r.status).toBe(200);
    expect(r.headers.get('x-ratelimit-limit')).toBe('600');
    expect(r.headers.get('x-api-plan')).toBe('free');
    expect(Number(r.headers.get('x-ratelimit-remaining'))).toBe(599); // the 401 above consumed nothing
    const body = (await r.json()) as { litecoin: { usd: number } };
    expect(body.litecoin.usd).toBeGreaterThan(0);
    await cli('keys', 'revoke', created.id as string);
    r = await ask();
    expect(r.status).toBe(401);
    expect(((await r.json()) as { error: { code: string } }).error.code).toBe('API_KEY_REVOKED');
    const unknown = await fetch(`${base}/ping?x_sp_api_key=cw_live_nope`);
    expect(unknown.status).toBe(401);
  });

  it('a CoinGecko SDK works by changing only its base URL (our key as its pro key)', async () => {
    const created = await cli('keys', 'create', '--plan', 'pro', '--approve');
    const cg = new Coingecko({ baseURL: base, proAPIKey: created.key as string, maxRetries: 0 });
    const ping = await cg.ping.get();
    expect(ping.gecko_says).toMatch(/Moon/);
    const price = await cg.simple.price.get({
      ids: 'litecoin,dogecoin',
      vs_currencies: 'usd,eur',
      include_market_cap: true,
    });
    expect(Object.keys(price).sort()).toEqual(['dogecoin', 'litecoin']);
    const markets = await cg.coins.markets.get({ vs_currency: 'usd', per_page: 5, order: 'volume_desc' });
    expect(markets).toHaveLength(5);
    const coin = await cg.coins.getID('litecoin', { tickers: false });
    expect(coin.public_notice).toMatch(/demo/i);
    const chart = await cg.coins.marketChart.get('litecoin', { vs_currency: 'usd', days: '1' });
    expect(chart.prices?.length).toBeGreaterThan(200);
    const ohlc = await cg.coins.ohlc.get('litecoin', { vs_currency: 'usd', days: '7' });
    expect(ohlc.length).toBeGreaterThanOrEqual(7);
    const global = await cg.global.get();
    expect(global.data?.total_market_cap?.usd).toBeGreaterThan(0);
    const err = await cg.coins.getID('no-such-coin').catch((e: unknown) => e);
    expect(err).toBeInstanceOf(Coingecko.NotFoundError);
  });

  it("the SDK's method for every endpoint beyond the first twelve works against us, typed answers of our figures", async () => {
    const cg = new Coingecko({ baseURL: base, maxRetries: 0, defaultHeaders: { 'x-cg-pro-api-key': null } });
    const DAY = 86_400_000;
    const ymd = (ms: number) => new Date(ms).toISOString().slice(0, 10);
    const [d, m, y] = [...ymd(Date.now() - DAY).split('-')].reverse();
    // CoinGecko's dd-mm-yyyy, and the yyyy-mm-dd the SDK's docs give: the same day, the same answer.
    const history = await cg.coins.history.get('litecoin', { date: `${d}-${m}-${y}` });
    expect(history.market_data.current_price?.['usd']).toBeGreaterThan(0);
    expect(await cg.coins.history.get('litecoin', { date: ymd(Date.now() - DAY) })).toEqual(history);
    const tickers = await cg.coins.tickers.get('litecoin', { order: 'volume_desc' });
    expect(tickers.name).toBe('Litecoin');
    expect(tickers.tickers.length).toBeGreaterThan(1);
    expect(tickers.tickers.every((t) => typeof t.is_stale === 'boolean')).toBe(true);
    expect(tickers.tickers.some((t) => t.trust_score === 'green' && t.is_anomaly === false)).toBe(true);
    const exchanges = await cg.exchanges.get({ per_page: 5 });
    expect(exchanges).toHaveLength(5);
    expect(exchanges[0]?.trust_score_rank).toBe(1);
    const list = await cg.exchanges.getList();
    expect(list.map((e) => e.id)).toContain('demo-cex-alpha');
    const alpha = await cg.exchanges.getID('demo-cex-alpha');
    expect(alpha.name).toBe('Demo CEX Alpha');
    expect(alpha.tickers.length).toBeGreaterThan(5);
    const alphaLtc = await cg.exchanges.tickers.get('demo-cex-alpha', { coin_ids: 'litecoin' });
    expect(alphaLtc.tickers.every((t) => t.coin_id === 'litecoin')).toBe(true);
    const rates = await cg.exchangeRates.get();
    expect(rates.rates['btc']?.value).toBe(1);
    expect(rates.rates['usd']?.value).toBeGreaterThan(1000);
    const candles = await cg.coins.ohlc.getRange('litecoin', {
      vs_currency: 'usd',
      from: ymd(Date.now() - 3 * DAY),
      to: ymd(Date.now()),
      interval: 'daily',
    });
    expect(candles.length).toBeGreaterThanOrEqual(3);
    expect(candles.every((c) => c.length === 5)).toBe(true);
    const movers = await cg.coins.topGainersLosers.get({ vs_currency: 'usd', top_coins: 'all' });
    expect(movers.top_gainers.length + movers.top_losers.length).toBeGreaterThan(0);
    expect(movers.top_gainers.every((g) => (g.usd_24h_change ?? 0) > 0)).toBe(true);
    const fresh = await cg.coins.list.getNew();
    expect(fresh.length).toBeGreaterThan(10);
    expect(fresh[0]?.activated_at).toBeLessThanOrEqual(Date.now() / 1000);
    const chart = await cg.global.marketCapChart.get({ days: '1' });
    expect(chart.market_cap_chart.market_cap.length).toBeGreaterThan(100);
    expect(chart.market_cap_chart.volume.length).toBe(chart.market_cap_chart.market_cap.length);
    const err = await cg.exchanges.getID('no-such-venue').catch((e: unknown) => e);
    expect(err).toBeInstanceOf(Coingecko.NotFoundError);
  });

  it('the CoinGecko SDK works keyless with its key header omitted (README), and sees null where we cannot verify', async () => {
    // Without the omitted header the SDK refuses to send anything ("Could not resolve authentication method").
    const refused = await (async () => new Coingecko({ baseURL: base, maxRetries: 0 }).ping.get())().catch(
      (e: unknown) => e,
    );
    expect(String(refused)).toMatch(/authentication/);
    const cg = new Coingecko({ baseURL: base, maxRetries: 0, defaultHeaders: { 'x-cg-pro-api-key': null } });
    expect((await cg.ping.get()).gecko_says).toMatch(/Moon/);
    // Fields its types call numbers that we serve as null (README, "Null where the SDK's types say a number").
    const global = await cg.global.get();
    expect(global.data?.volume_change_percentage_24h_usd).toBeNull();
    const trending = await cg.search.trending.get();
    const ranks = (trending.coins ?? []).map((c) => c.item?.market_cap_rank);
    expect(ranks.length).toBeGreaterThan(0);
    expect(ranks.every((r) => r === null || typeof r === 'number')).toBe(true);
  });

  it('keyless clients get 240 per minute per IP, then 429 with Retry-After', async () => {
    const statuses: number[] = [];
    let last: Response | undefined;
    for (let i = 0; i < 245; i++) {
      last = await fetch(`${base}/simple/supported_vs_currencies`);
      statuses.push(last.status);
      if (last.status === 429) break;
    }
    // Earlier keyless requests in this file (the unknown key is not counted: 401s do not consume) may have used a few.
    expect(statuses.filter((s) => s === 200).length).toBeLessThanOrEqual(240);
    expect(last?.status).toBe(429);
    expect(Number(last?.headers.get('retry-after'))).toBeGreaterThanOrEqual(1);
    expect(last?.headers.get('x-api-plan')).toBe('keyless');
    expect(((await last?.json()) as { error: { code: string } }).error.code).toBe('RATE_LIMITED');
  });
});
