/**
 * The live FX sources (ECB daily XML, open.er-api.com) against a real `node:http` server on 127.0.0.1 that replays
 * recorded answers (`test/fixtures/fx/`, see its README): parsed rates and times, the catalog filter, the schedule
 * (`everyMs`, `time_next_update_unix`), rate-limit back-off, and answers that cannot be used.
 */
import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { SourceError } from '../../src/ingest/http.ts';
import { createEcbSource, ECB_DEFAULTS, frankfurtSummerTime } from '../../src/ingest/fx/ecb.ts';
import type { FxSourceConfig } from '../../src/ingest/fx/ecb.ts';
import { createErApiSource, ER_API_DEFAULTS } from '../../src/ingest/fx/er-api.ts';
import type { FxRate, SourceSnapshot, TickerSource } from '../../src/ingest/types.ts';
import { FX_CURRENCIES, validateFx } from '../../src/ingest/validate.ts';
import { send, startRecordedServer, truncated } from '../support/recorded-http.ts';
import type { Recorded, RecordedServer } from '../support/recorded-http.ts';

const fixture = (name: string): string =>
  readFileSync(new URL(`../fixtures/fx/${name}`, import.meta.url), 'utf8');
const ECB_XML = fixture('ecb-eurofxref-daily-2024-06-28.xml');
const ER_JSON = fixture('er-api-latest-usd-2024-08-19.json');
const ER_ERROR = fixture('er-api-error-unsupported-code.json');
const ER = JSON.parse(ER_JSON) as {
  time_last_update_unix: number;
  time_next_update_unix: number;
  rates: Record<string, number>;
};

const xml = (body: string) => send(200, body, 'text/xml');
const json = (body: string) => send(200, body, 'application/json');
const HTML = send(200, '<!DOCTYPE html><html><body><h1>Service Unavailable</h1></body></html>', 'text/html');

let reply: Recorded | 'hang' = 'hang';
let server: RecordedServer;
let base: string;
const hits = () => server.requests.length;

beforeAll(async () => {
  server = await startRecordedServer(() => reply);
  base = server.url;
});
afterAll(() => server.close());
beforeEach(() => {
  server.requests.length = 0;
  reply = 'hang';
});

let clock = 0;
const now = () => clock;
const signal = new AbortController().signal;

const ecb = (over: Partial<FxSourceConfig> = {}): TickerSource =>
  createEcbSource(
    { id: 'ecb', url: `${base}/stats/eurofxref/eurofxref-daily.xml`, ...ECB_DEFAULTS, ...over },
    { now },
  );
const erApi = (over: Partial<FxSourceConfig> = {}): TickerSource =>
  createErApiSource(
    { id: 'open-er-api', url: `${base}/v6/latest/USD`, ...ER_API_DEFAULTS, ...over },
    { now },
  );

const poll = async (s: TickerSource) =>
  (await s.poll(signal)) as Omit<SourceSnapshot, 'fx'> & { fx?: FxRate[] };
const rateOf = (snap: { fx?: FxRate[] }, currency: string) =>
  snap.fx?.find((r) => r.currency === currency)?.usdPerUnit;
/** The failure reason a poll rejects with. */
const failure = (s: TickerSource) =>
  s.poll(signal).then(
    () => 'resolved',
    (err: SourceError) => err.reason,
  );

describe('ECB eurofxref-daily', () => {
  // 2024-06-28, 14:15 in Frankfurt, summer time (CEST) = 12:15 UTC.
  const TS = Date.UTC(2024, 5, 28, 12, 15);
  beforeEach(() => (clock = TS + 3 * 3_600_000));

  it('reads the recorded daily file: EUR and every catalog currency in USD, at 14:15 Frankfurt time of the day', async () => {
    reply = xml(ECB_XML);
    const s = ecb();
    expect(s).toMatchObject({ id: 'ecb', kind: 'fx', supplies: ['fx'], timeoutMs: ECB_DEFAULTS.timeoutMs });
    const snap = await poll(s);
    expect(snap).toMatchObject({ source: 'ecb', ts: clock, tickers: [] });
    expect(snap.rejects).toBeUndefined();
    expect(rateOf(snap, 'eur')).toBe(1.0705);
    expect(rateOf(snap, 'jpy')).toBe(1.0705 / 171.94);
    expect(rateOf(snap, 'gbp')).toBe(1.0705 / 0.84638);
    expect(rateOf(snap, 'zar')).toBe(1.0705 / 19.497);
    // The ECB's BGN is not a catalog currency (withdrawn in 2026); USD is the unit itself.
    expect(FX_CURRENCIES.has('bgn')).toBe(false);
    const cubes = [...ECB_XML.matchAll(/currency='([A-Z]{3})'/g)].map((m) => (m[1] as string).toLowerCase());
    expect(cubes).toHaveLength(30);
    const expected = ['eur', ...cubes.filter((c) => c !== 'usd' && FX_CURRENCIES.has(c))].sort();
    expect(snap.fx?.map((r) => r.currency).sort()).toEqual(expected);
    expect(expected).toHaveLength(29);
    for (const r of snap.fx ?? []) {
      expect(r).toMatchObject({ ts: TS, source: 'ecb' });
      expect(validateFx(r, clock)).toEqual({ ok: true, value: r });
    }
  });

  it('takes the newest day only, in either quote style, any attribute order and any whitespace', async () => {
    reply = xml(`<?xml version="1.0" encoding="UTF-8"?>
<gesmes:Envelope xmlns:gesmes="http://www.gesmes.org/xml/2002-08-01" xmlns="http://www.ecb.int/vocabulary/2002-08-01/eurofxref">
<!-- <Cube time='2030-01-01'><Cube currency='USD' rate='9'/></Cube> -->
<Cube>
  <Cube time="2024-06-28">
    <Cube rate="1.0705" currency="USD" />
    <Cube
        rate = '171.94'   currency = "JPY"/>
  </Cube>
  <Cube time='2024-06-27'><Cube currency='USD' rate='1.0713'/><Cube currency='GBP' rate='0.84755'/></Cube>
</Cube>
</gesmes:Envelope>`);
    const snap = await poll(ecb());
    expect(snap.fx).toEqual([
      { currency: 'eur', usdPerUnit: 1.0705, ts: TS, source: 'ecb' },
      { currency: 'jpy', usdPerUnit: 1.0705 / 171.94, ts: TS, source: 'ecb' },
    ]);
  });

  it('reports a malformed rate in rejects and passes the others; unknown codes are skipped silently', async () => {
    reply = xml(
      ECB_XML.replace("rate='171.94'", "rate='n/a'")
        .replace("rate='0.9634'", "rate='-0.9634'")
        .replace("rate='1.9558'", "rate='oops'")
        .replace("rate='148.90'", "rate='1e2'"),
    );
    const snap = await poll(ecb());
    expect(snap.rejects).toEqual([
      { reason: 'ecb.rate: must be a positive decimal', record: { currency: 'JPY', rate: 'n/a' } },
      { reason: 'ecb.rate: must be a positive decimal', record: { currency: 'CHF', rate: '-0.9634' } },
      { reason: 'ecb.rate: must be a positive decimal', record: { currency: 'ISK', rate: '1e2' } },
    ]);
    expect(snap.fx).toHaveLength(26);
    expect(rateOf(snap, 'jpy')).toBeUndefined();
    expect(rateOf(snap, 'gbp')).toBe(1.0705 / 0.84638);
  });

  it('refuses an answer without a USD rate, and one that is not the ECB file', async () => {
    reply = xml(ECB_XML.replace("<Cube currency='USD' rate='1.0705'/>", ''));
    await expect(ecb().poll(signal)).rejects.toMatchObject({ reason: 'bad_response', message: /USD rate/ });
    reply = HTML;
    await expect(ecb().poll(signal)).rejects.toMatchObject({
      reason: 'bad_response',
      message: /eurofxref XML/,
    });
    reply = send(500, 'Internal Server Error', 'text/plain');
    await expect(ecb().poll(signal)).rejects.toMatchObject({ reason: 'http_error', message: /HTTP 500/ });
  });

  it('fetches at most every everyMs after a success, and again at once after a failure', async () => {
    const s = ecb({ everyMs: 60_000 });
    reply = HTML;
    expect(await failure(s)).toBe('bad_response');
    reply = xml(ECB_XML);
    expect((await poll(s)).fx).toHaveLength(29);
    expect(hits()).toBe(2);
    const t0 = clock;
    clock = t0 + 59_999;
    expect(await poll(s)).toEqual({ source: 'ecb', ts: clock, tickers: [] });
    expect(hits()).toBe(2);
    clock = t0 + 60_000;
    expect((await poll(s)).fx).toHaveLength(29);
    expect(hits()).toBe(3);
  });

  it('backs off after 429 for Retry-After, without a request, then asks again', async () => {
    const s = ecb();
    reply = send(429, 'Too Many Requests', 'text/plain', { 'retry-after': '120' });
    expect(await failure(s)).toBe('rate_limited');
    expect(hits()).toBe(1);
    reply = xml(ECB_XML);
    clock += 119_000;
    expect(await failure(s)).toBe('backing_off');
    expect(hits()).toBe(1);
    clock += 1_000;
    expect((await poll(s)).fx).toHaveLength(29);
    expect(hits()).toBe(2);
  });

  it('fails a truncated body and a server that does not answer within timeoutMs', async () => {
    reply = truncated(ECB_XML, 100);
    expect(await failure(ecb())).toBe('unreachable');
    reply = 'hang';
    const started = performance.now();
    expect(await failure(ecb({ timeoutMs: 150 }))).toBe('timeout');
    expect(performance.now() - started).toBeLessThan(1_500);
  });
});

describe('open.er-api.com v6 latest', () => {
  const TS = ER.time_last_update_unix * 1000;
  const NEXT = ER.time_next_update_unix * 1000 + 60_000;
  beforeEach(() => (clock = TS + 3_600_000));

  it('reads the recorded answer: every catalog currency in USD, at time_last_update_unix', async () => {
    reply = json(ER_JSON);
    const s = erApi();
    expect(s).toMatchObject({ id: 'open-er-api', kind: 'fx', supplies: ['fx'], timeoutMs: 10_000 });
    const snap = await poll(s);
    expect(snap).toMatchObject({ source: 'open-er-api', ts: clock, tickers: [] });
    expect(snap.rejects).toBeUndefined();
    expect(rateOf(snap, 'eur')).toBe(1 / 0.907539);
    expect(rateOf(snap, 'jpy')).toBe(1 / 148.042596);
    expect(rateOf(snap, 'xdr')).toBe(1 / 0.748415);
    expect(rateOf(snap, 'usd')).toBeUndefined();
    const codes = Object.keys(ER.rates).map((c) => c.toLowerCase());
    expect(codes).toHaveLength(162);
    const expected = codes.filter((c) => c !== 'usd' && FX_CURRENCIES.has(c)).sort();
    expect(snap.fx?.map((r) => r.currency).sort()).toEqual(expected);
    // The answer has codes the catalog does not serve; they are left out, not rejected.
    for (const c of ['ang', 'bgn', 'fok', 'ggp', 'hrk', 'kid', 'sll', 'tvd', 'zwl']) {
      expect(codes).toContain(c);
      expect(rateOf(snap, c)).toBeUndefined();
    }
    for (const r of snap.fx ?? []) {
      expect(r).toMatchObject({ ts: TS, source: 'open-er-api' });
      expect(validateFx(r, clock)).toEqual({ ok: true, value: r });
    }
  });

  it('converts through rates.USD when the base is not USD, and refuses an answer without it', async () => {
    const body = { ...JSON.parse(ER_JSON), base_code: 'EUR', rates: { EUR: 1, USD: 1.1, JPY: 160, ANG: 2 } };
    reply = json(JSON.stringify(body));
    expect((await poll(erApi())).fx).toEqual([
      { currency: 'eur', usdPerUnit: 1.1, ts: TS, source: 'open-er-api' },
      { currency: 'jpy', usdPerUnit: 1.1 / 160, ts: TS, source: 'open-er-api' },
    ]);
    reply = json(JSON.stringify({ ...body, rates: { EUR: 1, JPY: 160 } }));
    await expect(erApi().poll(signal)).rejects.toMatchObject({
      reason: 'bad_response',
      message: /rates\.USD/,
    });
  });

  it('reports malformed rates in rejects and passes the others', async () => {
    reply = json(
      ER_JSON.replace('"JPY":148.042596', '"JPY":-5')
        .replace('"EUR":0.907539', '"EUR":"0.907539"')
        .replace('"GBP":0.773358', '"GBP":null')
        .replace('"ANG":1.79', '"ANG":0'),
    );
    const snap = await poll(erApi());
    const reason = 'er-api.rates: must be a positive number';
    expect(snap.rejects).toEqual([
      { reason, record: { currency: 'EUR', rate: '0.907539' } },
      { reason, record: { currency: 'GBP', rate: null } },
      { reason, record: { currency: 'JPY', rate: -5 } },
    ]);
    expect(rateOf(snap, 'chf')).toBe(1 / 0.867267);
    expect(rateOf(snap, 'jpy')).toBeUndefined();
  });

  it('refuses an error answer naming its error-type, and an answer that is not JSON', async () => {
    reply = json(ER_ERROR);
    await expect(erApi().poll(signal)).rejects.toMatchObject({
      reason: 'bad_response',
      message: /"unsupported-code"/,
    });
    reply = send(404, ER_ERROR, 'application/json');
    await expect(erApi().poll(signal)).rejects.toMatchObject({
      reason: 'http_error',
      message: /HTTP 404.*unsupported-code/,
    });
    reply = HTML;
    expect(await failure(erApi())).toBe('not_json');
  });

  it('does not ask again before time_next_update_unix + 60 s, even after everyMs', async () => {
    reply = json(ER_JSON);
    const s = erApi();
    await poll(s);
    expect(hits()).toBe(1);
    for (const t of [clock + ER_API_DEFAULTS.everyMs, clock + 6 * 3_600_000, NEXT - 1]) {
      clock = t;
      expect(await poll(s)).toEqual({ source: 'open-er-api', ts: t, tickers: [] });
    }
    expect(hits()).toBe(1);
    clock = NEXT;
    expect((await poll(s)).fx?.length).toBeGreaterThan(100);
    expect(hits()).toBe(2);
  });

  it('waits at least everyMs when time_next_update_unix has already passed', async () => {
    reply = json(ER_JSON);
    const s = erApi({ everyMs: 600_000 });
    clock = NEXT + 3_600_000;
    const t0 = clock;
    await poll(s);
    clock = t0 + 599_999;
    expect(await poll(s)).toEqual({ source: 'open-er-api', ts: clock, tickers: [] });
    expect(hits()).toBe(1);
    clock = t0 + 600_000;
    await poll(s);
    expect(hits()).toBe(2);
  });

  it('after 429 holds off for the provider’s 20 minutes even when Retry-After says less', async () => {
    const s = erApi();
    reply = send(429, '', 'text/plain', { 'retry-after': '30' });
    expect(await failure(s)).toBe('rate_limited');
    reply = json(ER_JSON);
    const t0 = clock;
    for (const t of [t0 + 31_000, t0 + 20 * 60_000 - 1]) {
      clock = t;
      expect(await failure(s)).toBe('backing_off');
    }
    expect(hits()).toBe(1);
    clock = t0 + 20 * 60_000;
    expect((await poll(s)).fx?.length).toBeGreaterThan(100);
    expect(hits()).toBe(2);
  });

  it('fails a truncated body and a server that does not answer within timeoutMs', async () => {
    reply = truncated(ER_JSON, 100);
    expect(await failure(erApi())).toBe('unreachable');
    reply = 'hang';
    expect(await failure(erApi({ timeoutMs: 150 }))).toBe('timeout');
  });
});

describe('ECB reference time', () => {
  it('is 14:15 in Frankfurt: 13:15 UTC in winter, 12:15 UTC in summer time, switching on the last Sundays', () => {
    const at = (iso: string) => frankfurtSummerTime(Date.parse(iso));
    expect(at('2026-01-15T13:15:00Z')).toBe(false);
    expect(at('2026-03-29T00:59:59Z')).toBe(false); // last Sunday of March 2026, before 01:00 UTC
    expect(at('2026-03-29T01:00:00Z')).toBe(true);
    expect(at('2026-07-01T13:15:00Z')).toBe(true);
    expect(at('2026-10-25T00:59:59Z')).toBe(true); // last Sunday of October 2026
    expect(at('2026-10-25T01:00:00Z')).toBe(false);
    expect(at('2026-11-24T13:15:00Z')).toBe(false);
  });
});
