/**
 * The sources files shown in docs/sources.md are valid: each JSON block that has a `sources` list parses with the
 * product's own reader (no request is made: sources connect only when polled), and the 19-coin example covers
 * every kit coin with a node and verifies the coins it says it does.
 */
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { KIT_TICKERS } from '../../src/catalog/assets.ts';
import { createSourcesFromFile } from '../../src/ingest/sources.ts';

const DOC = readFileSync(join(import.meta.dirname, '..', '..', 'docs', 'sources.md'), 'utf8');
const blocks = [...DOC.matchAll(/```json\n([\s\S]*?)\n```/g)]
  .map((m) => m[1] as string)
  .filter((b) => /"sources"\s*:/.test(b));
const dir = mkdtempSync(join(tmpdir(), 'cw-sources-doc-'));
writeFileSync(
  join(dir, 'ccxt.json'),
  JSON.stringify({ venues: [{ id: 'kraken', symbols: { 'LTC/USD': 'litecoin' } }] }),
);
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('docs/sources.md', () => {
  it('shows at least the short example, the bridge example and the 19-coin example', () => {
    expect(blocks.length).toBeGreaterThanOrEqual(3);
  });

  it.each(blocks.map((b, i) => [i, b] as const))('sources file #%i parses', (_i, text) => {
    const c = createSourcesFromFile(text, join(dir, 'sources.json'));
    expect(c.sources.length).toBeGreaterThan(0);
  });

  it('the production example has a node for each of the 19 coins, two supply sources where it says so', () => {
    const text = blocks.find((b) => b.includes('"$comment"')) as string;
    const c = createSourcesFromFile(text, join(dir, 'sources.json'));
    const ids = c.sources.map((s) => s.id);
    for (const t of KIT_TICKERS) expect(ids, t).toContain(`node:${t.toLowerCase()}`);
    const supply = (t: string) =>
      c.sources.filter((s) => s.id.endsWith(`:${t}`) && (s.supplies ?? []).includes('supply')).length;
    expect(['ltc', 'doge', 'dgb', 'nyc'].map(supply)).toEqual([3, 2, 2, 2]);
    expect(c.fxMaxAgeMs).toEqual(
      new Map([
        ['ecb', 132 * 3_600_000],
        ['open-er-api', 48 * 3_600_000],
      ]),
    );
    expect(Object.keys(c.bridge?.balances ?? {})).toEqual(['luckycoin']);
    expect(c.bridge?.tokenSupply['solana']?.id).toBe('solana');
  });
});
