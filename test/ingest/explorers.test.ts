/**
 * The block-explorer sources (chainz.cryptoid.info, Blockchair, Blockbook) against a real `node:http` server on
 * 127.0.0.1 that replays recorded answers (`test/fixtures/explorers/`, see its README, with each answer's status
 * and content type in `responses.json`): exact figures, the key in the query and never in a message, the schedule
 * (`everyMs`), rate-limit back-off, Blockbook's one-block balance read, and answers that cannot be used.
 */
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { BLOCKBOOK_DEFAULTS, createBlockbookSource } from '../../src/ingest/explorers/blockbook.ts';
import { BLOCKCHAIR_DEFAULTS, createBlockchairSource } from '../../src/ingest/explorers/blockchair.ts';
import type { BlockchairConfig } from '../../src/ingest/explorers/blockchair.ts';
import { createCryptoidSource, CRYPTOID_DEFAULTS } from '../../src/ingest/explorers/cryptoid.ts';
import type { CryptoidConfig } from '../../src/ingest/explorers/cryptoid.ts';
import type { SourceError } from '../../src/ingest/http.ts';
import type { SourceSnapshot, SupplyRecord, TickerSource } from '../../src/ingest/types.ts';
import {
  send,
  stalled,
  failure,
  recordedFixtures,
  startRecordedServer,
  truncated,
} from '../support/recorded-http.ts';
import type { Recorded, RecordedRequest, RecordedServer } from '../support/recorded-http.ts';

/** A recorded answer: its body, status and content type. */
const fixture = recordedFixtures(new URL('../fixtures/explorers/', import.meta.url));
const LTC_CIRCULATING = fixture('cryptoid-ltc-circulating-2020-07-13.txt');
const DGB_CIRCULATING = fixture('cryptoid-dgb-circulating-2020-08-03.txt');
const LTC_STATS = fixture('blockchair-litecoin-stats-2020-07-13.json');
const STATUS = fixture('blockbook-status-btc1-2024-09-10.json');
const ADDRESS_TXIDS = fixture('blockbook-address-txids-btc1.json');
const ADDRESS_BASIC = fixture('blockbook-address-basic-btc1-derived.json');
const BLOCK = fixture('blockbook-block-doge-2648059.json');
const INVALID_ADDRESS = fixture('blockbook-error-invalid-address.json');
const UNAVAILABLE = fixture('blockbook-error-service-unavailable.json');

/** What the server answers: one answer, no answer at all, or an answer chosen by the request. */
type Reply = Recorded | 'hang' | ((req: RecordedRequest) => Recorded);
const replay = (f: { body: string; status: number; contentType: string }, body = f.body): Recorded =>
  send(f.status, body, f.contentType);
const HTML = send(200, '<!DOCTYPE html><html><body><h1>502 Bad Gateway</h1></body></html>', 'text/html');
const tooMany = (retryAfter: string) =>
  send(429, '{"error":"too many requests"}', 'application/json', { 'retry-after': retryAfter });

let reply: Reply = 'hang';
let server: RecordedServer;
let base: string;
/** The path and query of every request, in arrival order. */
const requests = () => server.requests.map((r) => r.url.pathname + r.url.search);

beforeAll(async () => {
  server = await startRecordedServer((req) => (typeof reply === 'function' ? reply(req) : reply));
  base = server.url;
});
afterAll(() => server.close());

const T0 = Date.UTC(2020, 6, 13, 15, 12);
let clock = T0;
const now = () => clock;
const signal = new AbortController().signal;
beforeEach(() => {
  server.requests.length = 0;
  reply = 'hang';
  clock = T0;
});

const poll = async (s: TickerSource) =>
  (await s.poll(signal)) as SourceSnapshot & { supply?: SupplyRecord[] };
/** The error a promise rejects with (fails the test when it resolves). */
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
      reply = send(503, 'down for maintenance', 'text/plain');
      expect((await failure<SourceError>(s.poll(signal))).reason).toBe('http_error');
      reply = good();
      expect((await poll(s)).supply).toHaveLength(1);
      expect(requests()).toHaveLength(2);
      clock += everyMs - 1;
      expect(await poll(s)).toEqual({ source: s.id, ts: clock, tickers: [] });
      expect(requests()).toHaveLength(2);
      clock += 1;
      expect((await poll(s)).supply?.[0]?.ts).toBe(clock);
      expect(requests()).toHaveLength(3);
    });

    it('backs off on 429 with Retry-After: no request reaches the server until it has passed', async () => {
      const s = make();
      reply = tooMany('120');
      const limited = await failure<SourceError>(s.poll(signal));
      expect(limited.reason).toBe('rate_limited');
      reply = good();
      clock += 119_000;
      expect((await failure<SourceError>(s.poll(signal))).reason).toBe('backing_off');
      expect(requests()).toHaveLength(1);
      clock += 1_000;
      expect((await poll(s)).supply).toHaveLength(1);
      expect(requests()).toHaveLength(2);
    });

    it('an HTML page, a truncated body and a hang are errors', async () => {
      reply = HTML;
      expect(['bad_response', 'not_json']).toContain(
        (await failure<SourceError>(make().poll(signal))).reason,
      );
      reply = truncated('65451157.99675740 and then some more bytes', 10);
      expect((await failure<SourceError>(make().poll(signal))).reason).toBe('unreachable');
      reply = stalled('text/plain');
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
    reply = replay(LTC_CIRCULATING);
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
    reply = replay(DGB_CIRCULATING);
    const snap = await poll(cryptoid({ id: 'cryptoid:dgb', coin: 'DGB', ticker: 'dgb' }));
    expect(snap.supply).toEqual([expect.objectContaining({ asset: 'digibyte', value: 13410292892.108618 })]);
    expect(requests()).toEqual(['/dgb/api.dws?q=circulating']);
  });

  it('sends the key in the query and keeps it out of messages, even when the service echoes it', async () => {
    reply = replay(LTC_CIRCULATING);
    await poll(cryptoid({ key: 'k3y/with&chars' }));
    expect(requests()).toEqual(['/ltc/api.dws?q=circulating&key=k3y%2Fwith%26chars']);
    reply = send(403, 'forbidden: key k3y/with&chars is not valid', 'text/plain');
    const err = await failure<SourceError>(cryptoid({ key: 'k3y/with&chars' }).poll(signal));
    expect(err.reason).toBe('http_error');
    expect(err.message).toContain('HTTP 403');
    expect(err.message).not.toContain('k3y');
  });

  it('accepts surrounding blanks and trailing zeros, refuses anything but a bare non-negative decimal', async () => {
    for (const body of ['65451157.99675740\n', ' 65451157.9967574 ']) {
      reply = send(200, body, 'text/plain');
      expect((await poll(cryptoid())).supply?.[0]?.value).toBe(65451157.9967574);
    }
    for (const body of ['-5', '+5', '6.5e7', '0x10', '1,000.5', '.5', '007', 'NaN', '', '{"supply":1}']) {
      reply = send(200, body, 'text/plain');
      const err = await failure<SourceError>(cryptoid().poll(signal));
      expect(err.reason, body).toBe('bad_response');
      expect(err.message).toContain('expected a bare non-negative decimal of coins');
    }
  });

  it('passes an absurd figure through unchanged for validation to judge', async () => {
    reply = send(200, '1000000000000000000000000000000', 'text/plain');
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
    reply = replay(LTC_STATS);
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
    reply = replay(
      LTC_STATS,
      LTC_STATS.body.replace('"circulation": 6545179573347135', `"circulation": ${koinu}`),
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
    reply = replay(LTC_STATS);
    await poll(blockchair({ key: 'B1ockKey' }));
    expect(requests()).toEqual(['/litecoin/stats?key=B1ockKey']);
    reply = send(
      400,
      '{"data":null,"context":{"code":400,"error":"Invalid API key B1ockKey"}}',
      'application/json',
    );
    const err = await failure<SourceError>(blockchair({ key: 'B1ockKey' }).poll(signal));
    expect(err.reason).toBe('http_error');
    expect(err.message).toContain('Invalid API key');
    expect(err.message).not.toContain('B1ockKey');
  });

  it("treats Blockchair's other limit statuses (402, 430, 434, 435) as rate limits", async () => {
    for (const status of [402, 430, 434, 435]) {
      reply = send(status, '{"data":null,"context":{"code":' + status + '}}', 'application/json');
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
      reply = replay(LTC_STATS, body);
      const err = await failure<SourceError>(blockchair().poll(signal));
      expect(err.reason, to).toBe('bad_response');
      expect(err.message).toMatch(
        /expected (context\.code 200|data\.circulation to be an integer of base units)/,
      );
    }
    reply = send(200, '[]', 'application/json');
    expect((await failure<SourceError>(blockchair().poll(signal))).message).toContain(
      'expected an object with "data"',
    );
  });

  it('an HTML page is not JSON', async () => {
    reply = HTML;
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

describe('Blockbook', () => {
  const HEIGHT = 2648059;
  const A1 = 'bc1q0wd209cv5k9pd9mhk7nspacywcj038xxdhnt5u';
  const A2 = 'D6ravJL6Fgxtgp8k2XZZt1QfUmwwGuLwQJ';
  /** Above 2^53: a double would change its last digits. */
  const BIG = '12345678901234567891';
  const statusAt = (height: number, inSync = true) =>
    replay(
      STATUS,
      STATUS.body
        .replace('"bestHeight": 860730', `"bestHeight": ${height}`)
        .replace('"inSync": true', `"inSync": ${inSync}`),
    );
  const blockbook = (timeoutMs: number = BLOCKBOOK_DEFAULTS.timeoutMs) =>
    createBlockbookSource({ id: 'blockbook:doge', coin: 'DOGE', url: base, timeoutMs }, { now });

  /** A Blockbook whose best height is read from `heights` in turn (the last one repeats). */
  function chain(heights: number[], over: Partial<Record<'address' | 'block', Recorded>> = {}): Reply {
    let i = 0;
    return (req) => {
      const url = req.url.pathname + req.url.search;
      if (url === '/api/v2') return statusAt(heights[Math.min(i++, heights.length - 1)] as number);
      if (url.startsWith('/api/v2/address/')) {
        if (over.address) return over.address;
        if (url.startsWith(`/api/v2/address/${A2}`))
          return replay(
            ADDRESS_TXIDS,
            ADDRESS_TXIDS.body.replace('"balance": "4225100"', `"balance": "${BIG}"`),
          );
        return replay(ADDRESS_BASIC);
      }
      const block = /^\/api\/v2\/block\/(\d+)\?pageSize=1$/.exec(url);
      if (block) {
        if (over.block) return over.block;
        return replay(BLOCK, BLOCK.body.replace(`"height": ${HEIGHT}`, `"height": ${block[1]}`));
      }
      return send(404, '{"error":"not served by the test"}', 'application/json');
    };
  }

  it('polls the status as a liveness check: no supply (Blockbook has none), no tickers', async () => {
    reply = replay(STATUS);
    const s = blockbook();
    expect(s).toMatchObject({
      id: 'blockbook:doge',
      kind: 'explorer',
      supplies: ['balances'],
      timeoutMs: BLOCKBOOK_DEFAULTS.timeoutMs,
    });
    expect(await poll(s)).toEqual({ source: 'blockbook:doge', ts: T0, tickers: [] });
    expect(requests()).toEqual(['/api/v2']);
  });

  it('refuses a Blockbook that is still syncing and an answer that is not a Blockbook status', async () => {
    reply = statusAt(860730, false);
    const syncing = await failure<SourceError>(blockbook().poll(signal));
    expect(syncing.reason).toBe('bad_response');
    expect(syncing.message).toContain('still syncing');
    reply = replay(LTC_STATS);
    const other = await failure<SourceError>(blockbook().poll(signal));
    expect(other.reason).toBe('bad_response');
    expect(other.message).toContain('expected a Blockbook status');
    reply = replay(STATUS, STATUS.body.replace('"bestHeight": 860730', '"bestHeight": "860730"'));
    expect((await failure<SourceError>(blockbook().poll(signal))).reason).toBe('bad_response');
  });

  it("says Blockbook's own error text: 500 Service unavailable (first sync) is an http_error", async () => {
    reply = replay(UNAVAILABLE);
    const err = await failure<SourceError>(blockbook().poll(signal));
    expect(err.reason).toBe('http_error');
    expect(err.message).toContain('HTTP 500, Blockbook error: Service unavailable');
  });

  it('reads confirmed balances exactly, all at one block, with the block header time', async () => {
    reply = chain([HEIGHT]);
    const balances = await blockbook().balances([A1, A2]);
    expect(balances).toEqual([
      { address: A1, units: 4225100n, height: HEIGHT, blockTime: 1553096617_000 },
      { address: A2, units: 12345678901234567891n, height: HEIGHT, blockTime: 1553096617_000 },
    ]);
    // Not the status's lastBlockTime (Blockbook's indexing wall clock).
    expect(balances[0]?.blockTime).not.toBe(Date.parse('2024-09-10T08:19:04.471017534Z'));
    expect(requests()).toEqual([
      '/api/v2',
      `/api/v2/address/${A1}?details=basic`,
      `/api/v2/address/${A2}?details=basic`,
      '/api/v2',
      `/api/v2/block/${HEIGHT}?pageSize=1`,
    ]);
  });

  it('encodes the address into the path', async () => {
    reply = chain([HEIGHT]);
    await blockbook().balances(['a/b?c']);
    expect(requests()[1]).toBe('/api/v2/address/a%2Fb%3Fc?details=basic');
  });

  it('reads the whole set again when the chain moved during the read', async () => {
    reply = chain([HEIGHT, HEIGHT + 1]);
    const balances = await blockbook().balances([A1, A2]);
    expect(balances.map((b) => b.height)).toEqual([HEIGHT + 1, HEIGHT + 1]);
    expect(requests().filter((u) => u === '/api/v2')).toHaveLength(4);
    expect(requests().filter((u) => u.startsWith('/api/v2/address/'))).toHaveLength(4);
    expect(requests().at(-1)).toBe(`/api/v2/block/${HEIGHT + 1}?pageSize=1`);
  });

  it('gives up after three reads when the chain keeps moving', async () => {
    reply = chain([HEIGHT, HEIGHT + 1, HEIGHT + 2, HEIGHT + 3, HEIGHT + 4, HEIGHT + 5]);
    const err = await failure<SourceError>(blockbook().balances([A1]));
    expect(err.reason).toBe('bad_response');
    expect(err.message).toContain('the chain moved during each of 3 balance reads');
    expect(requests().filter((u) => u === '/api/v2')).toHaveLength(6);
  });

  it("a refused address is a bad_response carrying Blockbook's error text", async () => {
    reply = chain([HEIGHT], { address: replay(INVALID_ADDRESS) });
    const err = await failure<SourceError>(blockbook().balances(['not-an-address']));
    expect(err.reason).toBe('bad_response');
    expect(err.message).toContain(
      'HTTP 400, Blockbook error: Invalid address, decoded address is of unknown format',
    );
  });

  it('refuses a balance that is not a string of base units, and a block that is not the one asked for', async () => {
    for (const balance of ['42251.00', '-1', '']) {
      reply = chain([HEIGHT], {
        address: replay(ADDRESS_BASIC, ADDRESS_BASIC.body.replace('"4225100"', JSON.stringify(balance))),
      });
      expect((await failure<SourceError>(blockbook().balances([A1]))).message).toContain(
        'expected "balance" to be a string',
      );
    }
    reply = chain([HEIGHT], {
      address: replay(ADDRESS_BASIC, ADDRESS_BASIC.body.replace('"4225100"', '4225100')),
    });
    expect((await failure<SourceError>(blockbook().balances([A1]))).reason).toBe('bad_response');
    // The recorded block is 2648059 whatever height is asked for.
    reply = chain([HEIGHT + 7], { block: replay(BLOCK) });
    const wrongBlock = await failure<SourceError>(blockbook().balances([A1]));
    expect(wrongBlock.reason).toBe('bad_response');
    expect(wrongBlock.message).toContain(`expected block ${HEIGHT + 7}`);
  });

  it('backs off on 429 with Retry-After: no request reaches the server until it has passed', async () => {
    const s = blockbook();
    reply = tooMany('30');
    expect((await failure<SourceError>(s.poll(signal))).reason).toBe('rate_limited');
    reply = chain([HEIGHT]);
    clock += 29_000;
    expect((await failure<SourceError>(s.poll(signal))).reason).toBe('backing_off');
    expect((await failure<SourceError>(s.balances([A1]))).reason).toBe('backing_off');
    expect(requests()).toHaveLength(1);
    clock += 1_000;
    await poll(s);
    expect(requests()).toHaveLength(2);
  });

  it('an HTML page, a truncated body and a hang are errors', async () => {
    reply = HTML;
    expect((await failure<SourceError>(blockbook().poll(signal))).reason).toBe('not_json');
    reply = truncated(STATUS.body, 10);
    expect((await failure<SourceError>(blockbook().poll(signal))).reason).toBe('unreachable');
    reply = stalled('text/plain');
    expect((await failure<SourceError>(blockbook(150).poll(signal))).reason).toBe('timeout');
    expect((await failure<SourceError>(blockbook(150).balances([A1]))).reason).toBe('timeout');
  });
});
