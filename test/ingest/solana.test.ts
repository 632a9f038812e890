/**
 * The Solana JSON-RPC source against a real `node:http` server on 127.0.0.1 that replays the documented answers
 * (`test/fixtures/solana/`, see its README; each answer's status and content type in `responses.json`), answering
 * with the request's id: `getSlot` as liveness, `getTokenSupply` + `getBlockTime` read exactly, JSON-RPC errors with
 * their codes, no guessed block time, rate-limit back-off, and answers that cannot be used.
 */
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { SourceError } from '../../src/ingest/http.ts';
import type { RpcError } from '../../src/ingest/node/rpc.ts';
import { createSolanaSource, SOLANA_DEFAULTS } from '../../src/ingest/solana.ts';
import type { SolanaConfig } from '../../src/ingest/solana.ts';
import {
  send,
  stalled,
  failure,
  recordedFixtures,
  startRecordedServer,
  truncated,
} from '../support/recorded-http.ts';
import type { Recorded, RecordedServer } from '../support/recorded-http.ts';

/** A recorded answer: its body, status and content type. */
const fixture = recordedFixtures(new URL('../fixtures/solana/', import.meta.url));
const SLOT = fixture('getSlot-docs.json');
const SUPPLY = fixture('getTokenSupply-docs.json');
const NOT_A_MINT = fixture('getTokenSupply-error-not-a-mint.json');
const BLOCK_TIME = fixture('getBlockTime-docs.json');
const NO_BLOCK = fixture('getBlockTime-unavailable-docs.json');

/** USDC's mint on mainnet; any base-58 text would do for the server. */
const MINT = 'EPjFWdd5AufqSSqeM2qJxyxfWHGkWHZfxkKRj8NQT1v';

interface Call {
  method: string;
  params: unknown;
}
/** An answer to one JSON-RPC call: a fixed one, or one made for the request's id. */
type Answer = Recorded | ((id: number) => Recorded);
/** A recorded answer, its `"id": 1` replaced by the request's id; `edit` adjusts the body further. */
const replay =
  (f: { body: string; status: number; contentType: string }, edit: (b: string) => string = (b) => b) =>
  (id: number): Recorded =>
    send(f.status, edit(f.body).replace(/"id": ?1\b/, `"id": ${id}`), f.contentType);
const HTML = send(503, '<html><body><h1>503 Service Temporarily Unavailable</h1></body></html>', 'text/html');

let answers: Record<string, Answer> = {};
let calls: Call[] = [];
let server: RecordedServer;
let base: string;
const hits = () => server.requests.length;

beforeAll(async () => {
  server = await startRecordedServer((req) => {
    const body = JSON.parse(req.body) as { jsonrpc: string; id: number; method: string; params: unknown };
    expect(body.jsonrpc).toBe('2.0');
    expect(req.method).toBe('POST');
    expect(req.headers['content-type']).toBe('application/json');
    calls.push({ method: body.method, params: body.params });
    const answer = answers[body.method] ?? answers['*'] ?? send(404, 'no answer in this test', 'text/plain');
    return typeof answer === 'function' ? answer(body.id) : answer;
  });
  base = server.url;
});
afterAll(() => server.close());

let clock = Date.UTC(2024, 0, 1);
const now = () => clock;
const signal = new AbortController().signal;
beforeEach(() => {
  answers = { getSlot: replay(SLOT), getTokenSupply: replay(SUPPLY), getBlockTime: replay(BLOCK_TIME) };
  calls = [];
  server.requests.length = 0;
});

const solana = (over: Partial<SolanaConfig> = {}) =>
  createSolanaSource(
    { id: 'solana:mainnet', url: `${base}/`, timeoutMs: SOLANA_DEFAULTS.timeoutMs, ...over },
    { now },
  );
describe('Solana JSON-RPC', () => {
  it('polls getSlot as a liveness check, at the configured commitment', async () => {
    const s = solana();
    expect(s).toMatchObject({
      id: 'solana:mainnet',
      kind: 'solana',
      supplies: ['token-supply'],
      timeoutMs: SOLANA_DEFAULTS.timeoutMs,
    });
    expect(await s.poll(signal)).toEqual({ source: 'solana:mainnet', ts: clock, tickers: [] });
    expect(calls).toEqual([{ method: 'getSlot', params: [{ commitment: 'finalized' }] }]);
    answers['getSlot'] = replay(SLOT, (b) => b.replace('1234', '"1234"'));
    expect((await failure<SourceError>(s.poll(signal))).reason).toBe('bad_response');
  });

  it('reads a token supply exactly, at its slot, with that slot’s block time', async () => {
    expect(await solana().tokenSupply(MINT)).toEqual({
      units: 100000n,
      decimals: 2,
      slot: 1114,
      blockTime: 1574721591_000,
    });
    expect(calls).toEqual([
      { method: 'getTokenSupply', params: [MINT, { commitment: 'finalized' }] },
      { method: 'getBlockTime', params: [1114] },
    ]);
    calls = [];
    await solana({ commitment: 'confirmed' }).tokenSupply(MINT);
    expect(calls[0]?.params).toEqual([MINT, { commitment: 'confirmed' }]);
  });

  it('keeps a u64 amount above 2^53 exact', async () => {
    answers['getTokenSupply'] = replay(SUPPLY, (b) =>
      b.replace('"amount": "100000"', '"amount": "18446744073709551615"'),
    );
    expect((await solana().tokenSupply(MINT)).units).toBe(18446744073709551615n);
  });

  it('turns a JSON-RPC error into rpc_error with its code', async () => {
    answers['getTokenSupply'] = replay(NOT_A_MINT);
    const err = (await failure<SourceError>(solana().tokenSupply(MINT))) as RpcError;
    expect(err.reason).toBe('rpc_error');
    expect(err.code).toBe(-32602);
    expect(err.message).toBe('getTokenSupply: RPC error -32602: Invalid param: not a Token mint');
    expect(calls.map((c) => c.method)).toEqual(['getTokenSupply']);
  });

  it('fails, and guesses no time, when the block time of the slot is not available', async () => {
    answers['getBlockTime'] = replay(NO_BLOCK);
    const err = (await failure<SourceError>(solana().tokenSupply(MINT))) as RpcError;
    expect(err.reason).toBe('rpc_error');
    expect(err.code).toBe(-32004);
    expect(err.message).toContain('Block not available for slot');
    answers['getBlockTime'] = replay(BLOCK_TIME, (b) => b.replace('1574721591', 'null'));
    const none = await failure<SourceError>(solana().tokenSupply(MINT));
    expect(none.reason).toBe('bad_response');
    expect(none.message).toContain('no time for slot 1114');
  });

  it('refuses a supply answer of the wrong shape', async () => {
    const edits: [string, string][] = [
      ['"amount": "100000"', '"amount": 100000'],
      ['"amount": "100000"', '"amount": "1000.00"'],
      ['"amount": "100000"', '"amount": "18446744073709551616"'],
      ['"decimals": 2', '"decimals": "2"'],
      ['"slot": 1114', '"slot": -1'],
      ['"value": {', '"value": null, "x": {'],
    ];
    for (const [from, to] of edits) {
      answers['getTokenSupply'] = replay(SUPPLY, (b) => b.replace(from, to));
      const err = await failure<SourceError>(solana().tokenSupply(MINT));
      expect(err.reason, to).toBe('bad_response');
      expect(err.message).toMatch(/getTokenSupply: expected/);
    }
  });

  it('refuses an answer to another request id and an answer with neither result nor error', async () => {
    answers['getSlot'] = (id) => replay(SLOT)(id + 1);
    expect((await failure<SourceError>(solana().poll(signal))).message).toContain(
      'expected the answer to request id',
    );
    answers['getSlot'] = send(200, '{"jsonrpc":"2.0","id":1}', 'application/json');
    expect((await failure<SourceError>(solana().poll(signal))).message).toContain('"result" or "error"');
  });

  it('backs off on 429 with Retry-After: no request reaches the server until it has passed', async () => {
    const s = solana();
    answers['getSlot'] = send(429, 'Too many requests for a specific RPC call', 'text/plain', {
      'retry-after': '10',
    });
    expect((await failure<SourceError>(s.poll(signal))).reason).toBe('rate_limited');
    answers['getSlot'] = replay(SLOT);
    clock += 9_000;
    expect((await failure<SourceError>(s.poll(signal))).reason).toBe('backing_off');
    expect((await failure<SourceError>(s.tokenSupply(MINT))).reason).toBe('backing_off');
    expect(hits()).toBe(1);
    clock += 1_000;
    await s.poll(signal);
    expect(hits()).toBe(2);
  });

  it('an HTML page, a truncated body and a hang are errors; a key in the query stays out of messages', async () => {
    answers['*'] = HTML;
    delete answers['getSlot'];
    const html = await failure<SourceError>(solana().poll(signal));
    expect(html.reason).toBe('http_error');
    expect(html.message).toContain('503 Service Temporarily Unavailable');
    answers['getSlot'] = truncated('{"jsonrpc":"2.0","result":1234,"id":1}', 21);
    expect((await failure<SourceError>(solana().poll(signal))).reason).toBe('unreachable');
    answers['getSlot'] = stalled('application/json');
    const slow = await failure<SourceError>(
      solana({ url: `${base}/?api-key=sol-s3cret`, timeoutMs: 150 }).poll(signal),
    );
    expect(slow.reason).toBe('timeout');
    expect(slow.message).not.toContain('sol-s3cret');
    answers['getSlot'] = send(200, '<html>maintenance</html>', 'text/html');
    expect((await failure<SourceError>(solana().poll(signal))).reason).toBe('not_json');
  });
});
