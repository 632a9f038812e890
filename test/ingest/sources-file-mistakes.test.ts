/**
 * Mistakes in the sources file (`SOURCES_FILE`, src/ingest/sources.ts): every one is a `SourcesFileError` of the form
 * `<file>: <field>: <rule>`, asserted word for word (operators read these messages), in the sources and in the
 * bridge section; and the mistakes these tests found, fixed.
 */
import { describe, expect, it } from 'vitest';
import { KIT_TICKERS } from '../../src/catalog/assets.ts';
import { createSourcesFromFile, SourcesFileError } from '../../src/ingest/sources.ts';
import { COMPLETE, P } from './support/sources-file.ts';

/** The `SourcesFileError` that `file` (an object, serialised, or raw text) is refused with. */
function errorOf(file: unknown): SourcesFileError {
  try {
    createSourcesFromFile(typeof file === 'string' ? file : JSON.stringify(file), P);
  } catch (err) {
    if (err instanceof SourcesFileError) return err;
    throw err;
  }
  throw new Error('the file was accepted');
}
const messageOf = (file: unknown): string => errorOf(file).message;
const one = (entry: Record<string, unknown>): unknown => ({ sources: [entry] });

const NODE = { type: 'node', coin: 'LTC', url: 'http://127.0.0.1:9332', user: 'rpc', password: 'secret' };
const ECB = { type: 'ecb', url: 'https://www.ecb.europa.eu/stats/eurofxref/eurofxref-daily.xml' };
const NODE_FIELDS =
  'type, coin, user, password, algorithm, id, url, timeoutMs, supplyEveryMs, supplyTimeoutMs, blockTimeWindow, balances, balancesTimeoutMs';
const KIT_RULE = `must be a kit coin ticker (${KIT_TICKERS.join(', ')})`;

describe('mistakes: a SourcesFileError naming the file, the field and the rule', () => {
  it.each<[string, unknown, string]>([
    ['not JSON', '{"sources": [', `${P}: not valid JSON`],
    ['an empty file', '', `${P}: not valid JSON`],
    ['no sources array', {}, `${P}: expected {"sources": [...], "bridge"?: {...}}`],
    ['sources not an array', { sources: {} }, `${P}: expected {"sources": [...], "bridge"?: {...}}`],
    ['a bare array', [ECB], `${P}: expected {"sources": [...], "bridge"?: {...}}`],
    [
      'an unknown top-level field',
      { sources: [], source: [] },
      `${P}: unknown field "source" (allowed: sources, bridge)`,
    ],
    ['an entry that is not an object', { sources: [ECB, 'ecb'] }, `${P}: sources[1]: must be an object`],
    [
      'an unknown type',
      one({ type: 'kraken' }),
      `${P}: sources[0].type: must be one of ccxt, replay, dex, node, blockbook, cryptoid, blockchair, ecb, open-er-api, solana`,
    ],
    [
      'no type',
      one({ url: 'http://127.0.0.1:1' }),
      `${P}: sources[0].type: must be one of ccxt, replay, dex, node, blockbook, cryptoid, blockchair, ecb, open-er-api, solana`,
    ],
    [
      'a typo in a field name (timeout for timeoutMs)',
      one({ ...NODE, timeout: 5000 }),
      `${P}: sources[0].timeout: unknown field (allowed: ${NODE_FIELDS})`,
    ],
    [
      'a field of another type (maxAgeMs on a node)',
      { sources: [ECB, { ...NODE, maxAgeMs: 60_000 }] },
      `${P}: sources[1].maxAgeMs: unknown field (allowed: ${NODE_FIELDS})`,
    ],
    [
      'both cookieFile and user',
      one({ ...NODE, cookieFile: '/var/lib/litecoin/.cookie', password: undefined }),
      `${P}: sources[0].user: unknown field (allowed: type, coin, cookieFile, algorithm, id, url, timeoutMs, supplyEveryMs, supplyTimeoutMs, blockTimeWindow, balances, balancesTimeoutMs)`,
    ],
    ['an ftp URL', one({ ...NODE, url: 'ftp://127.0.0.1/' }), `${P}: sources[0].url: must be an http(s) URL`],
    [
      'a URL with a space',
      one({ ...ECB, url: 'https://ecb.example/ x' }),
      `${P}: sources[0].url: must be an http(s) URL`,
    ],
    ['a URL that is not a string', one({ ...ECB, url: 80 }), `${P}: sources[0].url: must be an http(s) URL`],
    ['no URL', one({ type: 'solana' }), `${P}: sources[0].url: must be an http(s) URL`],
    ['a coin that is not a kit ticker', one({ ...NODE, coin: 'BTC' }), `${P}: sources[0].coin: ${KIT_RULE}`],
    ['a lowercase ticker', one({ ...NODE, coin: 'ltc' }), `${P}: sources[0].coin: ${KIT_RULE}`],
    [
      'a blockbook without a coin',
      one({ type: 'blockbook', url: 'https://lky1.example.org' }),
      `${P}: sources[0].coin: ${KIT_RULE}`,
    ],
    [
      'two nodes for LTC without ids',
      { sources: [NODE, ECB, { ...NODE, url: 'http://127.0.0.1:19332' }] },
      `${P}: sources[2].id: "node:ltc" is already the id of another source: give one of them its own "id"`,
    ],
    [
      'two ECB entries',
      { sources: [ECB, ECB] },
      `${P}: sources[1].id: "ecb" is already the id of another source: give one of them its own "id"`,
    ],
    [
      'an id that is not lowercase',
      one({ ...ECB, id: 'ECB' }),
      `${P}: sources[0].id: must be a lowercase id of [a-z0-9._:-]`,
    ],
    [
      'a timeout of 0',
      one({ ...NODE, timeoutMs: 0 }),
      `${P}: sources[0].timeoutMs: must be an integer from 100 to 86400000 (ms)`,
    ],
    [
      'a timeout as a string',
      one({ ...ECB, timeoutMs: '5000' }),
      `${P}: sources[0].timeoutMs: must be an integer from 100 to 86400000 (ms)`,
    ],
    [
      'a timeout above a day',
      one({ type: 'solana', url: 'https://api.devnet.solana.com', timeoutMs: 86_400_001 }),
      `${P}: sources[0].timeoutMs: must be an integer from 100 to 86400000 (ms)`,
    ],
    [
      'a fractional timeout',
      one({ ...ECB, timeoutMs: 1500.5 }),
      `${P}: sources[0].timeoutMs: must be an integer from 100 to 86400000 (ms)`,
    ],
    [
      'everyMs under a second',
      one({ ...ECB, everyMs: 999 }),
      `${P}: sources[0].everyMs: must be an integer from 1000 to 86400000 (ms)`,
    ],
    [
      'an FX maxAgeMs under a minute',
      one({ ...ECB, maxAgeMs: 59_999 }),
      `${P}: sources[0].maxAgeMs: must be an integer from 60000 to 2592000000 (ms)`,
    ],
    [
      'a node without cookieFile and without user/password',
      one({ type: 'node', coin: 'LTC', url: 'http://127.0.0.1:9332' }),
      `${P}: sources[0].user: must be the rpcuser (or give "cookieFile")`,
    ],
    [
      'a node with a user but no password',
      one({ ...NODE, password: undefined }),
      `${P}: sources[0].password: must be the rpcpassword (or give "cookieFile")`,
    ],
    [
      'an unknown balances method',
      one({ ...NODE, balances: 'listunspent' }),
      `${P}: sources[0].balances: must be auto, scantxoutset or wallet`,
    ],
    [
      'a Solana commitment that can roll back',
      one({ type: 'solana', url: 'https://api.devnet.solana.com', commitment: 'processed' }),
      `${P}: sources[0].commitment: must be finalized or confirmed`,
    ],
    [
      'a blockchair entry without a chain',
      one({ type: 'blockchair', coin: 'LTC', url: 'https://api.blockchair.com' }),
      `${P}: sources[0].chain: must be a Blockchair chain name such as litecoin`,
    ],
    ['a replay without a path', one({ type: 'replay' }), `${P}: sources[0].path: must be a file path`],
  ])('%s', (_name, file, message) => {
    const err = errorOf(file);
    expect(err).toBeInstanceOf(SourcesFileError);
    expect(err.message).toBe(message);
  });

  describe('the bridge section', () => {
    const SOURCES = [ECB, NODE, { type: 'solana', url: 'https://api.devnet.solana.com' }];
    const withBridge = (bridge: unknown): unknown => ({ sources: SOURCES, bridge });

    it('accepts node and solana sources and an everyMs', () => {
      const c = createSourcesFromFile(
        JSON.stringify(
          withBridge({
            everyMs: 60_000,
            balances: { 'luckycoin-testnet': 'node:ltc' },
            tokenSupply: { 'solana-devnet': 'solana' },
          }),
        ),
        P,
      );
      expect(c.bridge?.everyMs).toBe(60_000);
      expect(c.bridge?.balances['luckycoin-testnet']).toBe(c.sources[1]);
      expect(c.bridge?.tokenSupply['solana-devnet']).toBe(c.sources[2]);
    });

    it('is null without a bridge section, and empty maps when it names nothing', () => {
      expect(createSourcesFromFile(JSON.stringify({ sources: SOURCES }), P).bridge).toBeNull();
      expect(createSourcesFromFile(JSON.stringify(withBridge({})), P).bridge).toEqual({
        everyMs: 600_000,
        balances: {},
        tokenSupply: {},
      });
    });

    it.each<[string, unknown, string]>([
      [
        'an unknown source id',
        { balances: { 'luckycoin-testnet': 'node:lky' } },
        `${P}: bridge.balances.luckycoin-testnet: must be the id of a configured node or blockbook source`,
      ],
      [
        'an ECB source as a balance reader',
        { balances: { 'luckycoin-testnet': 'ecb' } },
        `${P}: bridge.balances.luckycoin-testnet: must be the id of a configured node or blockbook source`,
      ],
      [
        'a node as a token-supply reader',
        { tokenSupply: { 'solana-devnet': 'node:ltc' } },
        `${P}: bridge.tokenSupply.solana-devnet: must be the id of a configured solana source`,
      ],
      [
        'a source id that is not a string',
        { tokenSupply: { 'solana-devnet': 1 } },
        `${P}: bridge.tokenSupply.solana-devnet: must be the id of a configured solana source`,
      ],
      ['balances as a list', { balances: ['node:ltc'] }, `${P}: bridge.balances: must be an object`],
      [
        'everyMs under a second',
        { everyMs: 500 },
        `${P}: bridge.everyMs: must be an integer from 1000 to 86400000 (ms)`,
      ],
      [
        'everyMs as a duration string',
        { everyMs: '10m' },
        `${P}: bridge.everyMs: must be an integer from 1000 to 86400000 (ms)`,
      ],
      [
        'a typo in a field name',
        { balance: { 'luckycoin-testnet': 'node:ltc' } },
        `${P}: bridge.balance: unknown field (allowed: everyMs, balances, tokenSupply)`,
      ],
      ['a bridge section that is null', null, `${P}: bridge: must be an object`],
    ])('%s', (_name, bridge, message) => {
      expect(messageOf(withBridge(bridge))).toBe(message);
    });

    it('only sees sources defined in the file (an id of a default source is not enough)', () => {
      expect(messageOf({ sources: [ECB], bridge: { tokenSupply: { 'solana-devnet': 'solana' } } })).toBe(
        `${P}: bridge.tokenSupply.solana-devnet: must be the id of a configured solana source`,
      );
    });
  });

  it('two nodes for one coin are fine with their own ids', () => {
    const c = createSourcesFromFile(
      JSON.stringify({
        sources: [
          { ...NODE, id: 'node:ltc-a' },
          { ...NODE, id: 'node:ltc-b', url: 'http://127.0.0.1:19332' },
        ],
      }),
      P,
    );
    expect(c.sources.map((s) => s.id)).toEqual(['node:ltc-a', 'node:ltc-b']);
  });
});

describe('mistakes found by these tests, fixed', () => {
  it('a multi-algorithm coin (DigiByte) must say which algorithm its figures are for', () => {
    expect(messageOf(one({ ...NODE, coin: 'DGB' }))).toBe(
      `${P}: sources[0].algorithm: DGB mines several algorithms: must name the one the figures are for (scrypt, sha256d, skein, qubit, odo)`,
    );
    const dgb = createSourcesFromFile(JSON.stringify(one({ ...NODE, coin: 'DGB', algorithm: 'scrypt' })), P);
    expect(dgb.sources[0]?.id).toBe('node:dgb');
  });

  it('blockTimeWindow (a block count) is not described in milliseconds', () => {
    expect(messageOf(one({ ...NODE, blockTimeWindow: 0 }))).toBe(
      `${P}: sources[0].blockTimeWindow: must be an integer from 1 to 100000`,
    );
  });

  it('the allowed fields of a replay entry include id', () => {
    expect(messageOf(one({ type: 'replay', path: 'demo.jsonl', Id: 'replay:demo' }))).toBe(
      `${P}: sources[0].Id: unknown field (allowed: type, path, id)`,
    );
  });

  it('a ccxt entry may set its own id', () => {
    const text = JSON.stringify({
      sources: [{ type: 'ccxt', config: 'ccxt.json', id: 'ccxt:second' }],
    });
    expect(createSourcesFromFile(text, COMPLETE).sources[0]?.id).toBe('ccxt:second');
  });

  it('a URL without a host is refused', () => {
    expect(messageOf(one({ ...ECB, url: 'http:///' }))).toBe(`${P}: sources[0].url: must be an http(s) URL`);
  });

  it('a null timeout is a mistake like a null algorithm', () => {
    expect(messageOf(one({ ...NODE, timeoutMs: null }))).toBe(
      `${P}: sources[0].timeoutMs: must be an integer from 100 to 86400000 (ms)`,
    );
  });
});
