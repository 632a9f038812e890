/**
 * Shared by the block-explorer source tests (`test/ingest/explorers*.test.ts`): the recorded answers
 * (`test/fixtures/explorers/`, see its README, with each answer's status and content type in `responses.json`), one
 * real `node:http` server on 127.0.0.1 per test file that replays whatever `setReply` chose, and a fake clock.
 * Importers see `clock` and `base` live; they change the reply and the clock with the setters.
 */
import { afterAll, beforeAll, beforeEach } from 'vitest';
import type { SourceSnapshot, SupplyRecord, TickerSource } from '../../../src/ingest/types.ts';
import { recordedFixtures, send, startRecordedServer } from '../../support/recorded-http.ts';
import type { Recorded, RecordedRequest, RecordedServer } from '../../support/recorded-http.ts';

/** A recorded answer: its body, status and content type. */
const fixture = recordedFixtures(new URL('../../fixtures/explorers/', import.meta.url));
export const LTC_CIRCULATING = fixture('cryptoid-ltc-circulating-2020-07-13.txt');
export const DGB_CIRCULATING = fixture('cryptoid-dgb-circulating-2020-08-03.txt');
export const LTC_STATS = fixture('blockchair-litecoin-stats-2020-07-13.json');
export const STATUS = fixture('blockbook-status-btc1-2024-09-10.json');
export const ADDRESS_TXIDS = fixture('blockbook-address-txids-btc1.json');
export const ADDRESS_BASIC = fixture('blockbook-address-basic-btc1-derived.json');
export const BLOCK = fixture('blockbook-block-doge-2648059.json');
export const INVALID_ADDRESS = fixture('blockbook-error-invalid-address.json');
export const UNAVAILABLE = fixture('blockbook-error-service-unavailable.json');

/** What the server answers: one answer, no answer at all, or an answer chosen by the request. */
export type Reply = Recorded | 'hang' | ((req: RecordedRequest) => Recorded);
export const replay = (f: { body: string; status: number; contentType: string }, body = f.body): Recorded =>
  send(f.status, body, f.contentType);
export const HTML = send(
  200,
  '<!DOCTYPE html><html><body><h1>502 Bad Gateway</h1></body></html>',
  'text/html',
);
export const tooMany = (retryAfter: string) =>
  send(429, '{"error":"too many requests"}', 'application/json', { 'retry-after': retryAfter });

let reply: Reply = 'hang';
/** What the server answers from now on (`'hang'` again before each test). */
export const setReply = (r: Reply): void => {
  reply = r;
};
let server: RecordedServer;
export let base: string;
/** The path and query of every request, in arrival order. */
export const requests = () => server.requests.map((r) => r.url.pathname + r.url.search);

export const T0 = Date.UTC(2020, 6, 13, 15, 12);
export let clock = T0;
/** Moves the clock on by `ms` (back to T0 before each test). */
export const advanceClock = (ms: number): void => {
  clock += ms;
};
export const now = () => clock;
export const signal = new AbortController().signal;

/** A test file's hooks: the server for the whole file, the request log, reply and clock reset before each test. */
export function useExplorerServer(): void {
  beforeAll(async () => {
    server = await startRecordedServer((req) => (typeof reply === 'function' ? reply(req) : reply));
    base = server.url;
  });
  afterAll(() => server.close());

  beforeEach(() => {
    server.requests.length = 0;
    reply = 'hang';
    clock = T0;
  });
}

export const poll = async (s: TickerSource) =>
  (await s.poll(signal)) as SourceSnapshot & { supply?: SupplyRecord[] };
