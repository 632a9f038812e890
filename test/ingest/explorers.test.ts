/**
 * The supply explorers (chainz.cryptoid.info, Blockchair) against a real `node:http` server on 127.0.0.1 that replays
 * recorded answers (`support/explorers.ts`): exact figures, the key in the query and never in a message, the schedule
 * (`everyMs`), rate-limit back-off, and answers that cannot be used. Blockbook is in `explorers-blockbook.test.ts`.
 */
import { describe, expect, it } from 'vitest';
import { BLOCKCHAIR_DEFAULTS, createBlockchairSource } from '../../src/ingest/explorers/blockchair.ts';
import type { BlockchairConfig } from '../../src/ingest/explorers/blockchair.ts';
import { createCryptoidSource, CRYPTOID_DEFAULTS } from '../../src/ingest/explorers/cryptoid.ts';
import type { CryptoidConfig } from '../../src/ingest/explorers/cryptoid.ts';
import type { SourceError } from '../../src/ingest/http.ts';
import type { TickerSource } from '../../src/ingest/types.ts';
import { send, stalled, failure, truncated } from '../support/recorded-http.ts';
import {
  advanceClock,
  base,
  clock,
  DGB_CIRCULATING,
  HTML,
  LTC_CIRCULATING,
  LTC_STATS,
  now,
  poll,
  replay,
  requests,
  setReply,
  signal,
  T0,
  tooMany,
  useExplorerServer,
} from './support/explorers.ts';
import type { Reply } from './support/explorers.ts';

useExplorerServer();

/** Behaviour both supply explorers share, run against each. */
function supplySourceContract(
  name: string,
  make: (over?: { key?: string; timeoutMs?: number }) => TickerSource,
  good: () => Reply,
  everyMs: number,
) {
  describe(`${name}: schedule, back-off and broken answers`, () => {
    it('asks at most once per everyMs; a failed fetch does not move the schedule', async () => {
      const s = make();
      setReply(send(503, 'down for maintenance', 'text/plain'));
      expect((await failure<SourceError>(s.poll(signal))).reason).toBe('http_error');
      setReply(good());
      expect((await poll(s)).supply).toHaveLength(1);
      expect(requests()).toHaveLength(2);
      advanceClock(everyMs - 1);
      expect(await poll(s)).toEqual({ source: s.id, ts: clock, tickers: [] });
      expect(requests()).toHaveLength(2);
      advanceClock(1);
      expect((await poll(s)).supply?.[0]?.ts).toBe(clock);
      expect(requests()).toHaveLength(3);
    });

    it('backs off on 429 with Retry-After: no request reaches the server until it has passed', async () => {
      const s = make();
      setReply(tooMany('120'));
      const limited = await failure<SourceError>(s.poll(signal));
      expect(limited.reason).toBe('rate_limited');
      setReply(good());
      advanceClock(119_000);
      expect((await failure<SourceError>(s.poll(signal))).reason).toBe('backing_off');
      expect(requests()).toHaveLength(1);
      advanceClock(1_000);
      expect((await poll(s)).supply).toHaveLength(1);
      expect(requests()).toHaveLength(2);
    });

    it('an HTML page, a truncated body and a hang are errors', async () => {
      setReply(HTML);
      expect(['bad_response', 'not_json']).toContain(
        (await failure<SourceError>(make().poll(signal))).reason,
      );
      setReply(truncated('65451157.99675740 and then some more bytes', 10));
      expect((await failure<SourceError>(make().poll(signal))).reason).toBe('unreachable');
      setReply(stalled('text/plain'));
      const started = Date.now();
      const err = await failure<SourceError>(make({ key: 'hush-1234', timeoutMs: 150 }).poll(signal));
      expect(err.reason).toBe('timeout');
      expect(err.message).toContain('150 ms');
      expect(err.message).not.toContain('hush-1234');
      expect(Date.now() - started).toBeLessThan(2_000);
    });
  });
}

describe('chainz.cryptoid.info', () => {
  const cryptoid = (over: Partial<CryptoidConfig> = {}) =>
    createCryptoidSource(
      { id: 'cryptoid:ltc', coin: 'LTC', url: base, ticker: 'ltc', ...CRYPTOID_DEFAULTS, ...over },
      { now },
    );

  it('reads the recorded Litecoin circulating supply as one explorer record', async () => {
    setReply(replay(LTC_CIRCULATING));
    const s = cryptoid();
    expect(s).toMatchObject({
      id: 'cryptoid:ltc',
      kind: 'explorer',
      supplies: ['supply'],
      timeoutMs: CRYPTOID_DEFAULTS.timeoutMs,
    });
    expect(await poll(s)).toEqual({
      source: 'cryptoid:ltc',
      ts: T0,
      tickers: [],
      supply: [
        {
          asset: 'litecoin',
          kind: 'circulating',
          value: 65451157.9967574,
          source: 'cryptoid:ltc',
          sourceKind: 'explorer',
          ts: T0,
        },
      ],
    });
    expect(requests()).toEqual(['/ltc/api.dws?q=circulating']);
  });

  it('maps the ticker to its path and the coin to its catalog asset (DigiByte)', async () => {
    setReply(replay(DGB_CIRCULATING));
    const snap = await poll(cryptoid({ id: 'cryptoid:dgb', coin: 'DGB', ticker: 'dgb' }));
    expect(snap.supply).toEqual([expect.objectContaining({ asset: 'digibyte', value: 13410292892.108618 })]);
    expect(requests()).toEqual(['/dgb/api.dws?q=circulating']);
  });

  it('sends the key in the query and keeps it out of messages, even when the service echoes it', async () => {
    setReply(replay(LTC_CIRCULATING));
    await poll(cryptoid({ key: 'k3y/with&chars' }));
    expect(requests()).toEqual(['/ltc/api.dws?q=circulating&key=k3y%2Fwith%26chars']);
    setReply(send(403, 'forbidden: key k3y/with&chars is not valid', 'text/plain'));
    const err = await failure<SourceError>(cryptoid({ key: 'k3y/with&chars' }).poll(signal));
    expect(err.reason).toBe('http_error');
    expect(err.message).toContain('HTTP 403');
    expect(err.message).not.toContain('k3y');
  });

  it('accepts surrounding blanks and trailing zeros, refuses anything but a bare non-negative decimal', async () => {
    for (const body of ['65451157.99675740\n', ' 65451157.9967574 ']) {
      setReply(send(200, body, 'text/plain'));
      expect((await poll(cryptoid())).supply?.[0]?.value).toBe(65451157.9967574);
    }
    for (const body of ['-5', '+5', '6.5e7', '0x10', '1,000.5', '.5', '007', 'NaN', '', '{"supply":1}']) {
      setReply(send(200, body, 'text/plain'));
      const err = await failure<SourceError>(cryptoid().poll(signal));
      expect(err.reason, body).toBe('bad_response');
      expect(err.message).toContain('expected a bare non-negative decimal of coins');
    }
  });

  it('passes an absurd figure through unchanged for validation to judge', async () => {
    setReply(send(200, '1000000000000000000000000000000', 'text/plain'));
    expect((await poll(cryptoid())).supply?.[0]?.value).toBe(1e30);
  });

  supplySourceContract(
    'cryptoid',
    (over = {}) => cryptoid(over),
    () => replay(LTC_CIRCULATING),
    CRYPTOID_DEFAULTS.everyMs,
  );
});

describe('Blockchair', () => {
  const blockchair = (over: Partial<BlockchairConfig> = {}) =>
    createBlockchairSource(
      { id: 'blockchair:ltc', coin: 'LTC', url: base, chain: 'litecoin', ...BLOCKCHAIR_DEFAULTS, ...over },
      { now },
    );

  it('reads the recorded Litecoin stats: circulation in litoshi, exactly, as coins', async () => {
    setReply(replay(LTC_STATS));
    const s = blockchair();
    expect(s).toMatchObject({
      kind: 'explorer',
      supplies: ['supply'],
      timeoutMs: BLOCKCHAIR_DEFAULTS.timeoutMs,
    });
    expect((await poll(s)).supply).toEqual([
      {
        asset: 'litecoin',
        kind: 'circulating',
        value: 65451795.73347135,
        source: 'blockchair:ltc',
        sourceKind: 'explorer',
        ts: T0,
      },
    ]);
    expect(requests()).toEqual(['/litecoin/stats']);
  });

  it('converts a Dogecoin-sized circulation above 2^53 as a decimal, with one rounding', async () => {
    const koinu = '14512345678912345671';
    setReply(
      replay(LTC_STATS, LTC_STATS.body.replace('"circulation": 6545179573347135', `"circulation": ${koinu}`)),
    );
    const snap = await poll(blockchair({ id: 'blockchair:doge', coin: 'DOGE', chain: 'dogecoin' }));
    expect(requests()).toEqual(['/dogecoin/stats']);
    const value = snap.supply?.[0]?.value;
    expect(snap.supply?.[0]?.asset).toBe('dogecoin');
    expect(value).toBe(Number('145123456789.12345671'));
    // What JSON.parse and a float division would have said instead.
    expect(value).not.toBe(Number(koinu) / 1e8);
  });

  it('sends the key as ?key= and keeps it out of messages, even when context.error echoes it', async () => {
    setReply(replay(LTC_STATS));
    await poll(blockchair({ key: 'B1ockKey' }));
    expect(requests()).toEqual(['/litecoin/stats?key=B1ockKey']);
    setReply(
      send(
        400,
        '{"data":null,"context":{"code":400,"error":"Invalid API key B1ockKey"}}',
        'application/json',
      ),
    );
    const err = await failure<SourceError>(blockchair({ key: 'B1ockKey' }).poll(signal));
    expect(err.reason).toBe('http_error');
    expect(err.message).toContain('Invalid API key');
    expect(err.message).not.toContain('B1ockKey');
  });

  it("treats Blockchair's other limit statuses (402, 430, 434, 435) as rate limits", async () => {
    for (const status of [402, 430, 434, 435]) {
      setReply(send(status, '{"data":null,"context":{"code":' + status + '}}', 'application/json'));
      expect((await failure<SourceError>(blockchair().poll(signal))).reason, String(status)).toBe(
        'rate_limited',
      );
    }
  });

  it('refuses a context.code other than 200 and a missing or ill-typed circulation', async () => {
    const cases: [string, string][] = [
      ['"code": 200', '"code": 404'],
      ['"circulation": 6545179573347135,', ''],
      ['"circulation": 6545179573347135', '"circulation": "6545179573347135"'],
      ['"circulation": 6545179573347135', '"circulation": 65451795.73347135'],
      ['"circulation": 6545179573347135', '"circulation": 1.4512345678912346e+19'],
      ['"circulation": 6545179573347135', '"circulation": -6545179573347135'],
      ['"circulation": 6545179573347135', '"circulation": null'],
    ];
    for (const [from, to] of cases) {
      const body = LTC_STATS.body.replace(from, to);
      expect(body).not.toBe(LTC_STATS.body);
      setReply(replay(LTC_STATS, body));
      const err = await failure<SourceError>(blockchair().poll(signal));
      expect(err.reason, to).toBe('bad_response');
      expect(err.message).toMatch(
        /expected (context\.code 200|data\.circulation to be an integer of base units)/,
      );
    }
    setReply(send(200, '[]', 'application/json'));
    expect((await failure<SourceError>(blockchair().poll(signal))).message).toContain(
      'expected an object with "data"',
    );
  });

  it('an HTML page is not JSON', async () => {
    setReply(HTML);
    const err = await failure<SourceError>(blockchair().poll(signal));
    expect(err.reason).toBe('not_json');
    expect(err.message).toContain('502 Bad Gateway');
  });

  supplySourceContract(
    'Blockchair',
    (over = {}) => blockchair(over),
    () => replay(LTC_STATS),
    BLOCKCHAIR_DEFAULTS.everyMs,
  );
});
