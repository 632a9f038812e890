/**
 * Stack traces of the compiled product that name the TypeScript file and line, with a source map read only when a
 * stack is formatted. Node's own source-map support (`process.setSourceMapsEnabled`) reads and parses the map of every
 * module as it loads (5 MB of maps, about a tenth of a second of each start) whether or not a stack is ever shown;
 * here a frame whose file has a map beside it (`<file>.map`, as the build writes them) is mapped when it is printed,
 * each map read once into a `LineMap` (`source-map-lines.ts`: 8 MB kept for the largest chunk, where `node:module`'s
 * `SourceMap` kept 61 MB for the life of the process). Frames elsewhere (Node's, node_modules') print as V8 prints
 * them.
 */
import { readFileSync } from 'node:fs';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { LineMap } from './source-map-lines.ts';
import type { SourceMapPayload } from './source-map-lines.ts';

/** A module's source map and where it lies (its sources are relative to it). */
interface Mapped {
  map: LineMap;
  url: string;
}
const maps = new Map<string, Mapped | null>();

/** The source map of a module (its `file://` URL or path), or null when it has none. */
function mapOf(file: string): Mapped | null {
  let mapped = maps.get(file);
  if (mapped === undefined) {
    try {
      const path = `${file.startsWith('file:') ? fileURLToPath(file) : file}.map`;
      const payload = JSON.parse(readFileSync(path, 'utf8')) as SourceMapPayload;
      mapped = { map: LineMap.from(payload), url: pathToFileURL(path).href };
    } catch {
      mapped = null;
    }
    maps.set(file, mapped);
  }
  return mapped;
}

/** One frame as V8 prints it, its generated position replaced by the original one when a map knows it. */
function frameText(frame: NodeJS.CallSite): string {
  const text = String(frame);
  const file = frame.getFileName();
  const line = frame.getLineNumber();
  const column = frame.getColumnNumber();
  const mapped = file && line !== null && column !== null ? mapOf(file) : null;
  const entry = mapped?.map.find((line as number) - 1, (column as number) - 1);
  if (!mapped || !entry) return text;
  const source = new URL(entry.source, mapped.url).href;
  return text.replace(`${file}:${line}:${column}`, `${source}:${entry.line + 1}:${entry.column + 1}`);
}

/** Maps every stack trace formatted from now on (`Error.prepareStackTrace`). */
export function mapStackTraces(): void {
  Error.prepareStackTrace = (err: Error, frames: NodeJS.CallSite[]) =>
    `${Error.prototype.toString.call(err)}${frames.map((f) => `\n    at ${frameText(f)}`).join('')}`;
}
