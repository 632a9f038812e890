/**
 * The Blockbook explorer source against a real `node:http` server on 127.0.0.1 that replays recorded answers
 * (`support/explorers.ts`): the status as a liveness check, the one-block balance read, rate-limit back-off, and
 * answers that cannot be used.
 */
import { describe, expect, it } from 'vitest';
import { BLOCKBOOK_DEFAULTS, createBlockbookSource } from '../../src/ingest/explorers/blockbook.ts';
import type { SourceError } from '../../src/ingest/http.ts';
import { send, stalled, failure, truncated } from '../support/recorded-http.ts';
import type { Recorded } from '../support/recorded-http.ts';
import {
  ADDRESS_BASIC,
  ADDRESS_TXIDS,
  advanceClock,
  base,
  BLOCK,
  HTML,
  INVALID_ADDRESS,
  LTC_STATS,
  now,
  poll,
  replay,
  requests,
  setReply,
  signal,
  STATUS,
  T0,
  tooMany,
  UNAVAILABLE,
  useExplorerServer,
} from './support/explorers.ts';
import type { Reply } from './support/explorers.ts';

useExplorerServer();

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
    setReply(replay(STATUS));
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
    setReply(statusAt(860730, false));
    const syncing = await failure<SourceError>(blockbook().poll(signal));
    expect(syncing.reason).toBe('bad_response');
    expect(syncing.message).toContain('still syncing');
    setReply(replay(LTC_STATS));
    const other = await failure<SourceError>(blockbook().poll(signal));
    expect(other.reason).toBe('bad_response');
    expect(other.message).toContain('expected a Blockbook status');
    setReply(replay(STATUS, STATUS.body.replace('"bestHeight": 860730', '"bestHeight": "860730"')));
    expect((await failure<SourceError>(blockbook().poll(signal))).reason).toBe('bad_response');
  });

  it("says Blockbook's own error text: 500 Service unavailable (first sync) is an http_error", async () => {
    setReply(replay(UNAVAILABLE));
    const err = await failure<SourceError>(blockbook().poll(signal));
    expect(err.reason).toBe('http_error');
    expect(err.message).toContain('HTTP 500, Blockbook error: Service unavailable');
  });

  it('reads confirmed balances exactly, all at one block, with the block header time', async () => {
    setReply(chain([HEIGHT]));
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
    setReply(chain([HEIGHT]));
    await blockbook().balances(['a/b?c']);
    expect(requests()[1]).toBe('/api/v2/address/a%2Fb%3Fc?details=basic');
  });

  it('reads the whole set again when the chain moved during the read', async () => {
    setReply(chain([HEIGHT, HEIGHT + 1]));
    const balances = await blockbook().balances([A1, A2]);
    expect(balances.map((b) => b.height)).toEqual([HEIGHT + 1, HEIGHT + 1]);
    expect(requests().filter((u) => u === '/api/v2')).toHaveLength(4);
    expect(requests().filter((u) => u.startsWith('/api/v2/address/'))).toHaveLength(4);
    expect(requests().at(-1)).toBe(`/api/v2/block/${HEIGHT + 1}?pageSize=1`);
  });

  it('gives up after three reads when the chain keeps moving', async () => {
    setReply(chain([HEIGHT, HEIGHT + 1, HEIGHT + 2, HEIGHT + 3, HEIGHT + 4, HEIGHT + 5]));
    const err = await failure<SourceError>(blockbook().balances([A1]));
    expect(err.reason).toBe('bad_response');
    expect(err.message).toContain('the chain moved during each of 3 balance reads');
    expect(requests().filter((u) => u === '/api/v2')).toHaveLength(6);
  });

  it("a refused address is a bad_response carrying Blockbook's error text", async () => {
    setReply(chain([HEIGHT], { address: replay(INVALID_ADDRESS) }));
    const err = await failure<SourceError>(blockbook().balances(['not-an-address']));
    expect(err.reason).toBe('bad_response');
    expect(err.message).toContain(
      'HTTP 400, Blockbook error: Invalid address, decoded address is of unknown format',
    );
  });

  it('refuses a balance that is not a string of base units, and a block that is not the one asked for', async () => {
    for (const balance of ['42251.00', '-1', '']) {
      setReply(
        chain([HEIGHT], {
          address: replay(ADDRESS_BASIC, ADDRESS_BASIC.body.replace('"4225100"', JSON.stringify(balance))),
        }),
      );
      expect((await failure<SourceError>(blockbook().balances([A1]))).message).toContain(
        'expected "balance" to be a string',
      );
    }
    setReply(
      chain([HEIGHT], {
        address: replay(ADDRESS_BASIC, ADDRESS_BASIC.body.replace('"4225100"', '4225100')),
      }),
    );
    expect((await failure<SourceError>(blockbook().balances([A1]))).reason).toBe('bad_response');
    // The recorded block is 2648059 whatever height is asked for.
    setReply(chain([HEIGHT + 7], { block: replay(BLOCK) }));
    const wrongBlock = await failure<SourceError>(blockbook().balances([A1]));
    expect(wrongBlock.reason).toBe('bad_response');
    expect(wrongBlock.message).toContain(`expected block ${HEIGHT + 7}`);
  });

  it('backs off on 429 with Retry-After: no request reaches the server until it has passed', async () => {
    const s = blockbook();
    setReply(tooMany('30'));
    expect((await failure<SourceError>(s.poll(signal))).reason).toBe('rate_limited');
    setReply(chain([HEIGHT]));
    advanceClock(29_000);
    expect((await failure<SourceError>(s.poll(signal))).reason).toBe('backing_off');
    expect((await failure<SourceError>(s.balances([A1]))).reason).toBe('backing_off');
    expect(requests()).toHaveLength(1);
    advanceClock(1_000);
    await poll(s);
    expect(requests()).toHaveLength(2);
  });

  it('an HTML page, a truncated body and a hang are errors', async () => {
    setReply(HTML);
    expect((await failure<SourceError>(blockbook().poll(signal))).reason).toBe('not_json');
    setReply(truncated(STATUS.body, 10));
    expect((await failure<SourceError>(blockbook().poll(signal))).reason).toBe('unreachable');
    setReply(stalled('text/plain'));
    expect((await failure<SourceError>(blockbook(150).poll(signal))).reason).toBe('timeout');
    expect((await failure<SourceError>(blockbook(150).balances([A1]))).reason).toBe('timeout');
  });
});
