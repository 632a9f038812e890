/**
 * The sources file (`SOURCES_FILE`, src/ingest/sources.ts): a complete file builds every type of source with its
 * defaults, resolves relative paths against the file's directory, collects the FX windows and maps the bridge's
 * chains to the very source objects; URLs lose a trailing slash; an unreadable file is named. The mistakes (every
 * one a `SourcesFileError`) are in `sources-file-mistakes.test.ts`.
 */
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  BRIDGE_DEFAULT_EVERY_MS,
  createSourcesFromFile,
  loadSourcesFile,
  SourcesFileError,
} from '../../src/ingest/sources.ts';
import type { ConfiguredSources } from '../../src/ingest/sources.ts';
import type { BalanceReader, TickerSource } from '../../src/ingest/types.ts';
import { startRecordedServer } from '../support/recorded-http.ts';
import type { RecordedServer } from '../support/recorded-http.ts';
import { COMPLETE, FIXTURES, P } from './support/sources-file.ts';

describe('a complete sources file (test/fixtures/sources/complete.json)', () => {
  let c: ConfiguredSources;
  const byId = (id: string): TickerSource => {
    const s = c.sources.find((x) => x.id === id);
    if (!s) throw new Error(`no source ${id}`);
    return s;
  };
  beforeAll(() => {
    c = loadSourcesFile(COMPLETE);
  });
  afterAll(async () => {
    for (const s of c.sources) await s.close?.();
  });

  it('builds one source per entry, in file order, with the default ids where none is given', () => {
    expect(c.sources.map((s) => [s.id, s.kind])).toEqual([
      ['ccxt:test', 'ccxt'], // the ccxt config file's own id
      ['replay:demo', 'replay'],
      ['dex:pools', 'dex'],
      ['node:ltc', 'node'],
      ['node:doge-wallet', 'node'],
      ['blockbook:lky', 'explorer'],
      ['cryptoid:dgb', 'explorer'],
      ['blockchair:ltc', 'explorer'],
      ['ecb', 'fx'],
      ['fx:er', 'fx'],
      ['solana', 'solana'],
    ]);
  });

  it('says what each source supplies', () => {
    expect(Object.fromEntries(c.sources.map((s) => [s.id, s.supplies ?? null]))).toEqual({
      'ccxt:test': ['tickers'],
      'replay:demo': null,
      'dex:pools': null,
      'node:ltc': ['supply', 'mining', 'balances'],
      'node:doge-wallet': ['supply', 'mining', 'balances'],
      'blockbook:lky': ['balances'],
      'cryptoid:dgb': ['supply'],
      'blockchair:ltc': ['supply'],
      ecb: ['fx'],
      'fx:er': ['fx'],
      solana: ['token-supply'],
    });
  });

  it('applies the default timeouts and keeps the given ones', () => {
    expect(Object.fromEntries(c.sources.map((s) => [s.id, s.timeoutMs ?? null]))).toEqual({
      'ccxt:test': null, // per venue, inside the ccxt source
      'replay:demo': null, // the pipeline's SOURCE_TIMEOUT_MS
      'dex:pools': null,
      'node:ltc': 10_000,
      'node:doge-wallet': 2_500,
      'blockbook:lky': 10_000,
      'cryptoid:dgb': 10_000,
      'blockchair:ltc': 10_000,
      ecb: 10_000,
      'fx:er': 5_000,
      solana: 10_000,
    });
  });

  it("collects each FX source's maxAgeMs by source id (default for ECB: 5.5 days)", () => {
    expect(c.fxMaxAgeMs).toEqual(
      new Map([
        ['ecb', 132 * 3_600_000],
        ['fx:er', 86_400_000],
      ]),
    );
  });

  it('maps the bridge chains to the configured source objects themselves', () => {
    const bridge = c.bridge;
    expect(bridge).not.toBeNull();
    expect(bridge?.everyMs).toBe(BRIDGE_DEFAULT_EVERY_MS);
    expect(BRIDGE_DEFAULT_EVERY_MS).toBe(600_000);
    expect(Object.keys(bridge?.balances ?? {})).toEqual(['luckycoin-testnet', 'dogecoin-testnet']);
    expect(bridge?.balances['luckycoin-testnet']).toBe(byId('blockbook:lky'));
    expect(bridge?.balances['dogecoin-testnet']).toBe(byId('node:doge-wallet'));
    expect(Object.keys(bridge?.tokenSupply ?? {})).toEqual(['solana-devnet']);
    expect(bridge?.tokenSupply['solana-devnet']).toBe(byId('solana'));
  });

  describe('relative paths are resolved against the directory of the file, not the working directory', () => {
    it('(the working directory holds none of the files)', () => {
      expect(process.cwd()).not.toBe(FIXTURES);
      expect(existsSync('ccxt.json') || existsSync('demo.jsonl')).toBe(false);
    });

    it('replay: the recording beside the file is replayed', async () => {
      const snap = await byId('replay:demo').poll(new AbortController().signal);
      expect(snap).toEqual({
        source: 'replay:demo',
        ts: 1749556800000,
        tickers: [],
        fx: [{ currency: 'eur', usdPerUnit: 1.08, ts: 1749556800000, source: 'replay:demo' }],
      });
    });

    it('dex: ../dex/pools.jsonl is the shared recording', async () => {
      const snap = await byId('dex:pools').poll(new AbortController().signal);
      expect(snap?.ts).toBe(1749556800000);
      expect(snap?.tickers.map((t) => (t as { base: string }).base)).toEqual(['pepecoin', 'dingocoin']);
    });

    it('node: the cookie file is looked for beside the sources file', async () => {
      const node = byId('node:ltc') as TickerSource & BalanceReader;
      await expect(node.balances(['ltc1qexample'])).rejects.toThrow(
        `cannot read the cookie file ${join(FIXTURES, 'cookies', 'ltc.cookie')} (ENOENT)`,
      );
    });

    it('ccxt: a config path that does not exist is named as resolved', () => {
      const text = JSON.stringify({ sources: [{ type: 'ccxt', config: 'nested/ccxt.json' }] });
      expect(() => createSourcesFromFile(text, COMPLETE)).toThrow(
        `${join(FIXTURES, 'nested', 'ccxt.json')}: cannot read (ENOENT`,
      );
    });
  });
});

describe('URLs', () => {
  let server: RecordedServer;
  beforeAll(async () => {
    server = await startRecordedServer(() => ({ status: 404, body: '{"context":{"code":404}}' }));
  });
  afterAll(() => server.close());

  it('a trailing slash is dropped, so a path built on the URL has no double slash', async () => {
    const c = createSourcesFromFile(
      JSON.stringify({
        sources: [{ type: 'blockchair', coin: 'LTC', url: `${server.url}/api///`, chain: 'litecoin' }],
      }),
      P,
    );
    await expect(c.sources[0]?.poll(new AbortController().signal)).rejects.toThrow('HTTP 404');
    expect(server.requests.map((r) => r.url.pathname)).toEqual(['/api/litecoin/stats']);
  });
});

describe('loadSourcesFile', () => {
  it('names a file it cannot read', () => {
    const missing = join(FIXTURES, 'no-such-sources.json');
    expect(() => loadSourcesFile(missing)).toThrow(SourcesFileError);
    expect(() => loadSourcesFile(missing)).toThrow(
      `${missing}: cannot read (ENOENT: no such file or directory, open '${missing}')`,
    );
  });
});
