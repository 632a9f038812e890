import { dirname, resolve } from 'node:path';
import { createCcxtSource, loadCcxtConfig } from './ccxt.ts';
import { createRecordedDexSource } from './dex.ts';
import { createReplaySource } from './replay.ts';
import type { TickerSource } from './types.ts';

/** One entry of the `SOURCES_FILE` list. Relative paths are relative to the sources file. */
export type SourceSpec =
  | { type: 'ccxt'; config: string }
  | { type: 'replay'; path: string; id?: string }
  | { type: 'dex'; path: string };

export class SourcesFileError extends Error {}

/**
 * Builds the live sources from a sources file: `{ "sources": [ { "type": "ccxt", "config": "ccxt.json" },
 * { "type": "replay", "path": "rec.jsonl.gz" }, { "type": "dex", "path": "pools.jsonl" } ] }`.
 */
export function createSourcesFromFile(text: string, path: string): TickerSource[] {
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    throw new SourcesFileError(`${path}: not valid JSON`);
  }
  const list = (parsed as { sources?: unknown }).sources;
  if (!Array.isArray(list)) throw new SourcesFileError(`${path}: expected {"sources": [...]}`);
  const base = dirname(resolve(path));
  return list.map((raw, i) => {
    const s = raw as Partial<SourceSpec> & Record<string, unknown>;
    const where = `${path}: sources[${i}]`;
    if (s.type === 'ccxt' && typeof s.config === 'string')
      return createCcxtSource(loadCcxtConfig(resolve(base, s.config)));
    if (s.type === 'replay' && typeof s.path === 'string') {
      return createReplaySource(
        typeof s.id === 'string'
          ? { path: resolve(base, s.path), id: s.id }
          : { path: resolve(base, s.path) },
      );
    }
    if (s.type === 'dex' && typeof s.path === 'string')
      return createRecordedDexSource({ path: resolve(base, s.path) });
    throw new SourcesFileError(
      `${where}: expected {type: "ccxt", config} | {type: "replay", path} | {type: "dex", path}`,
    );
  });
}
