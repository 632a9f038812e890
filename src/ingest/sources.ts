/**
 * The sources file (`SOURCES_FILE`): every live input the operator configures, read and checked once at start.
 * Each entry becomes a source the market engine polls (`TickerSource`); coin nodes and Blockbook explorers also read
 * reserve balances, a Solana endpoint reads wrapped-token supplies, and the optional `bridge` section says which of
 * them the proof of reserves uses for which chain. Every mistake stops start-up with `<file>: <field>: <rule>`;
 * unknown fields are mistakes too. Relative paths are relative to the file. Format: docs/sources.md.
 */
import { readFileSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { ASSET_BY_KIT_TICKER } from '../catalog/assets.ts';
import { createCcxtSource, loadCcxtConfig } from './ccxt.ts';
import { createRecordedDexSource } from './dex.ts';
import { BLOCKBOOK_DEFAULTS, createBlockbookSource } from './explorers/blockbook.ts';
import { BLOCKCHAIR_DEFAULTS, createBlockchairSource } from './explorers/blockchair.ts';
import { createCryptoidSource, CRYPTOID_DEFAULTS } from './explorers/cryptoid.ts';
import { createEcbSource, ECB_DEFAULTS } from './fx/ecb.ts';
import { createErApiSource, ER_API_DEFAULTS } from './fx/er-api.ts';
import { createNodeSource, NODE_DEFAULTS } from './node/source.ts';
import type { BalanceMethod } from './node/source.ts';
import { createReplaySource } from './replay.ts';
import { createSolanaSource, SOLANA_DEFAULTS } from './solana.ts';
import type { BalanceReader, TickerSource, TokenSupplyReader } from './types.ts';

export class SourcesFileError extends Error {}

/** Which configured sources the proof of reserves reads, per chain id of the bridge deployment. */
export interface BridgeSourcesConfig {
  /** Re-sign the report this often, ms; default 600,000 (10 minutes). */
  everyMs: number;
  /** UTXO chain id → id of a source with balances (a node or a Blockbook explorer). */
  balances: Record<string, BalanceReader>;
  /** Solana chain id → id of a Solana source. */
  tokenSupply: Record<string, TokenSupplyReader>;
}

/** Everything a sources file configures. */
export interface ConfiguredSources {
  /** Every source, polled by the market engine each tick (for records, or to report its freshness). */
  sources: TickerSource[];
  /** How long each FX source's rates may be used, by source id. */
  fxMaxAgeMs: Map<string, number>;
  /** The proof of reserves' chain sources; null without a `bridge` section. */
  bridge: BridgeSourcesConfig | null;
}

export const BRIDGE_DEFAULT_EVERY_MS = 600_000;

const KIT_TICKERS = new Set(ASSET_BY_KIT_TICKER.keys());
const TYPES = [
  'ccxt',
  'replay',
  'dex',
  'node',
  'blockbook',
  'cryptoid',
  'blockchair',
  'ecb',
  'open-er-api',
  'solana',
] as const;
type SourceType = (typeof TYPES)[number];

/** Reads one object of the file; every failure names the file, the field and the rule. */
class Entry {
  private readonly used = new Set<string>();
  constructor(
    private readonly o: Record<string, unknown>,
    readonly where: string,
    private readonly base: string,
  ) {}
  fail(key: string, rule: string): never {
    throw new SourcesFileError(`${this.where}.${key}: ${rule}`);
  }
  has(key: string): boolean {
    return this.o[key] !== undefined;
  }
  /** The value of `key`, marked as known. */
  raw(key: string): unknown {
    this.used.add(key);
    return this.o[key];
  }
  str(key: string, re: RegExp, rule: string): string;
  str(key: string, re: RegExp, rule: string, def: string | undefined): string | undefined;
  str(key: string, re: RegExp, rule: string, ...def: [string | undefined] | []): string | undefined {
    this.used.add(key);
    const v = this.o[key];
    if (v === undefined && def.length > 0) return def[0];
    return typeof v === 'string' && re.test(v) ? v : this.fail(key, rule);
  }
  url(key: string): string {
    const v = this.str(key, /^https?:\/\/[^\s]+$/, 'must be an http(s) URL');
    let host = '';
    try {
      host = new URL(v).host;
    } catch {
      // refused below
    }
    return host ? v.replace(/\/+$/, '') : this.fail(key, 'must be an http(s) URL');
  }
  path(key: string): string {
    return resolve(this.base, this.str(key, /\S/, 'must be a file path'));
  }
  ms(key: string, def: number, min = 100, max = 86_400_000): number {
    return this.int(key, def, min, max, ' (ms)');
  }
  int(key: string, def: number, min: number, max: number, unit = ''): number {
    this.used.add(key);
    const v = this.o[key] === undefined ? def : this.o[key];
    return typeof v === 'number' && Number.isInteger(v) && v >= min && v <= max
      ? v
      : this.fail(key, `must be an integer from ${min} to ${max}${unit}`);
  }
  /** Fails on a field no reader asked for (a typo would otherwise pass silently). */
  done(): void {
    const extra = Object.keys(this.o).find((k) => !this.used.has(k));
    if (extra !== undefined) this.fail(extra, `unknown field (allowed: ${[...this.used].join(', ')})`);
  }
}

const ID = /^[a-z0-9][a-z0-9._:-]{0,63}$/;
const isObject = (v: unknown): v is Record<string, unknown> =>
  typeof v === 'object' && v !== null && !Array.isArray(v);

function objectAt(v: unknown, where: string): Record<string, unknown> {
  if (!isObject(v)) throw new SourcesFileError(`${where}: must be an object`);
  return v;
}

/** Reads a sources file (`SOURCES_FILE`): `{ "sources": [ … ], "bridge"?: { … } }`. */
export function loadSourcesFile(path: string): ConfiguredSources {
  let text: string;
  try {
    text = readFileSync(path, 'utf8');
  } catch (err) {
    throw new SourcesFileError(`${path}: cannot read (${(err as Error).message})`);
  }
  return createSourcesFromFile(text, path);
}

/** Builds the configured sources from the text of a sources file (`path` names it and anchors relative paths). */
export function createSourcesFromFile(text: string, path: string): ConfiguredSources {
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    throw new SourcesFileError(`${path}: not valid JSON`);
  }
  if (!isObject(parsed) || !Array.isArray(parsed['sources']))
    throw new SourcesFileError(`${path}: expected {"sources": [...], "bridge"?: {...}}`);
  const extra = Object.keys(parsed).find((k) => k !== 'sources' && k !== 'bridge' && k !== '$comment');
  if (extra) throw new SourcesFileError(`${path}: unknown field "${extra}" (allowed: sources, bridge)`);
  const base = dirname(resolve(path));
  const sources: TickerSource[] = [];
  const fxMaxAgeMs = new Map<string, number>();
  parsed['sources'].forEach((raw, i) => {
    const e = new Entry(objectAt(raw, `${path}: sources[${i}]`), `${path}: sources[${i}]`, base);
    const type = e.str('type', new RegExp(`^(${TYPES.join('|')})$`), `must be one of ${TYPES.join(', ')}`);
    const src = createEntry(type as SourceType, e, fxMaxAgeMs);
    e.done();
    if (sources.some((s) => s.id === src.id))
      e.fail('id', `"${src.id}" is already the id of another source: give one of them its own "id"`);
    sources.push(src);
  });
  const bridge = parsed['bridge'] === undefined ? null : bridgeSection(parsed['bridge'], path, base, sources);
  return { sources, fxMaxAgeMs, bridge };
}

function createEntry(type: SourceType, e: Entry, fxMaxAgeMs: Map<string, number>): TickerSource {
  const coin = (): string => {
    const c = e.str('coin', /^[A-Z0-9]{1,8}$/, `must be a kit coin ticker (${[...KIT_TICKERS].join(', ')})`);
    return KIT_TICKERS.has(c)
      ? c
      : e.fail('coin', `must be a kit coin ticker (${[...KIT_TICKERS].join(', ')})`);
  };
  const ownId = (): string | undefined =>
    e.str('id', ID, 'must be a lowercase id of [a-z0-9._:-]', undefined);
  const id = (def: string): string => ownId() ?? def;
  switch (type) {
    case 'ccxt': {
      const config = loadCcxtConfig(e.path('config'));
      const own = ownId();
      return createCcxtSource(own ? { ...config, id: own } : config);
    }
    case 'replay':
    case 'dex': {
      const path = e.path('path');
      const own = ownId();
      const opts = own ? { path, id: own } : { path };
      return type === 'replay' ? createReplaySource(opts) : createRecordedDexSource(opts);
    }
    case 'node': {
      const c = coin();
      const auth = e.has('cookieFile')
        ? { cookieFile: e.path('cookieFile') }
        : {
            user: e.str('user', /^[^:\s]+$/, 'must be the rpcuser (or give "cookieFile")'),
            password: e.str('password', /^\S+$/, 'must be the rpcpassword (or give "cookieFile")'),
          };
      // A multi-algorithm chain (DigiByte) reports one difficulty per algorithm: the figures need to say which.
      const multi = ASSET_BY_KIT_TICKER.get(c)?.hashingAlgorithm === 'multi-algo';
      const algorithm = multi
        ? e.str(
            'algorithm',
            /^[a-z0-9-]{1,32}$/,
            `${c} mines several algorithms: must name the one the figures are for (scrypt, sha256d, skein, qubit, odo)`,
          )
        : e.str('algorithm', /^[a-z0-9-]{1,32}$/, 'must be a lowercase algorithm name', undefined);
      return createNodeSource({
        id: id(`node:${c.toLowerCase()}`),
        coin: c,
        url: e.url('url'),
        ...auth,
        timeoutMs: e.ms('timeoutMs', NODE_DEFAULTS.timeoutMs),
        supplyEveryMs: e.ms('supplyEveryMs', NODE_DEFAULTS.supplyEveryMs, 1_000),
        supplyTimeoutMs: e.ms('supplyTimeoutMs', NODE_DEFAULTS.supplyTimeoutMs),
        blockTimeWindow: e.int('blockTimeWindow', NODE_DEFAULTS.blockTimeWindow, 1, 100_000),
        balances: e.str(
          'balances',
          /^(auto|scantxoutset|wallet)$/,
          'must be auto, scantxoutset or wallet',
          NODE_DEFAULTS.balances,
        ) as BalanceMethod,
        balancesTimeoutMs: e.ms('balancesTimeoutMs', NODE_DEFAULTS.balancesTimeoutMs),
        ...(algorithm ? { algorithm } : {}),
      });
    }
    case 'blockbook': {
      const c = coin();
      return createBlockbookSource({
        id: id(`blockbook:${c.toLowerCase()}`),
        coin: c,
        url: e.url('url'),
        timeoutMs: e.ms('timeoutMs', BLOCKBOOK_DEFAULTS.timeoutMs),
      });
    }
    case 'cryptoid': {
      const c = coin();
      const key = e.str('key', /^\S+$/, 'must be the API key', undefined);
      return createCryptoidSource({
        id: id(`cryptoid:${c.toLowerCase()}`),
        coin: c,
        url: e.url('url'),
        ticker: e.str(
          'ticker',
          /^[a-z0-9]{1,16}$/,
          'must be the lowercase coin path segment',
          c.toLowerCase(),
        ) as string,
        ...(key ? { key } : {}),
        timeoutMs: e.ms('timeoutMs', CRYPTOID_DEFAULTS.timeoutMs),
        everyMs: e.ms('everyMs', CRYPTOID_DEFAULTS.everyMs, 1_000),
      });
    }
    case 'blockchair': {
      const c = coin();
      const key = e.str('key', /^\S+$/, 'must be the API key', undefined);
      return createBlockchairSource({
        id: id(`blockchair:${c.toLowerCase()}`),
        coin: c,
        url: e.url('url'),
        chain: e.str('chain', /^[a-z0-9/-]{1,40}$/, 'must be a Blockchair chain name such as litecoin'),
        ...(key ? { key } : {}),
        timeoutMs: e.ms('timeoutMs', BLOCKCHAIR_DEFAULTS.timeoutMs),
        everyMs: e.ms('everyMs', BLOCKCHAIR_DEFAULTS.everyMs, 1_000),
      });
    }
    case 'ecb':
    case 'open-er-api': {
      const d = type === 'ecb' ? ECB_DEFAULTS : ER_API_DEFAULTS;
      const cfg = {
        id: id(type),
        url: e.url('url'),
        timeoutMs: e.ms('timeoutMs', d.timeoutMs),
        everyMs: e.ms('everyMs', d.everyMs, 1_000),
        maxAgeMs: e.ms('maxAgeMs', d.maxAgeMs, 60_000, 30 * 86_400_000),
      };
      fxMaxAgeMs.set(cfg.id, cfg.maxAgeMs);
      return type === 'ecb' ? createEcbSource(cfg) : createErApiSource(cfg);
    }
    case 'solana': {
      const commitment = e.str(
        'commitment',
        /^(finalized|confirmed)$/,
        'must be finalized or confirmed',
        SOLANA_DEFAULTS.commitment,
      ) as 'finalized' | 'confirmed';
      return createSolanaSource({
        id: id('solana'),
        url: e.url('url'),
        timeoutMs: e.ms('timeoutMs', SOLANA_DEFAULTS.timeoutMs),
        commitment,
      });
    }
  }
}

function bridgeSection(
  raw: unknown,
  path: string,
  base: string,
  sources: readonly TickerSource[],
): BridgeSourcesConfig {
  const e = new Entry(objectAt(raw, `${path}: bridge`), `${path}: bridge`, base);
  const everyMs = e.ms('everyMs', BRIDGE_DEFAULT_EVERY_MS, 1_000);
  const pick = <T>(
    key: string,
    is: (s: TickerSource) => s is TickerSource & T,
    what: string,
  ): Record<string, T> => {
    const v = e.raw(key);
    const o = v === undefined ? {} : objectAt(v, `${path}: bridge.${key}`);
    const out: Record<string, T> = {};
    for (const [chain, id] of Object.entries(o)) {
      const src = sources.find((s) => s.id === id);
      if (!src || !is(src)) e.fail(`${key}.${chain}`, `must be the id of a configured ${what} source`);
      out[chain] = src as T;
    }
    return out;
  };
  const balances = pick<BalanceReader>(
    'balances',
    (s): s is TickerSource & BalanceReader => typeof (s as Partial<BalanceReader>).balances === 'function',
    'node or blockbook',
  );
  const tokenSupply = pick<TokenSupplyReader>(
    'tokenSupply',
    (s): s is TickerSource & TokenSupplyReader =>
      typeof (s as Partial<TokenSupplyReader>).tokenSupply === 'function',
    'solana',
  );
  e.done();
  return { everyMs, balances, tokenSupply };
}
