import { build } from 'esbuild';
import { SourceMap } from 'node:module';
import type { SourceMapPayload as NodePayload } from 'node:module';
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { beforeAll, describe, expect, it } from 'vitest';
import { mulberry32 } from '../../src/demo/random.ts';
import { LineMap } from '../../src/core/source-map-lines.ts';
import type { SourceMapPayload } from '../../src/core/source-map-lines.ts';

/**
 * The stack traces' source maps (`src/core/source-map-lines.ts`): the same answers as `node:module`'s `SourceMap`
 * (a differential test over a map as the build writes them: esbuild's bundle of graphql-js and a file of ours), in a
 * fraction of its memory — `SourceMap` kept 61 MB for the build's largest chunk, for the life of the process after
 * the first stack trace through it (issue 32).
 */
let text = '';
let payload: NodePayload;

beforeAll(async () => {
  const out = await build({
    stdin: {
      contents: "export * from 'graphql';\nexport * from './src/core/stack-traces.ts';",
      resolveDir: process.cwd(),
      sourcefile: 'entry.ts',
      loader: 'ts',
    },
    bundle: true,
    platform: 'node',
    format: 'esm',
    sourcemap: 'external',
    outdir: 'out',
    write: false,
    logLevel: 'silent',
  });
  text = out.outputFiles.find((f) => f.path.endsWith('.map'))?.text ?? '';
  payload = JSON.parse(text) as NodePayload;
}, 60_000);

/** `SourceMap.findEntry`'s answer in `LineMap.find`'s terms. */
function nodeAnswer(map: SourceMap, line: number, column: number) {
  const e = map.findEntry(line, column);
  return 'originalSource' in e && e.originalSource !== undefined
    ? { source: e.originalSource, line: e.originalLine, column: e.originalColumn }
    : null;
}

describe('LineMap', () => {
  it('answers as node:module’s SourceMap at every segment, around it and at random positions', () => {
    const ours = LineMap.from(payload);
    const theirs = new SourceMap(payload);
    expect(ours.lineCount).toBeGreaterThan(10_000);
    const asked: [number, number][] = [
      [0, 0],
      [-1, 0],
      [ours.lineCount + 5, 0],
    ];
    // The generated position of every segment (the first field of each, running within its line), and beside it.
    payload.mappings.split(';').forEach((segments, line) => {
      let col = 0;
      for (const seg of segments ? segments.split(',') : []) {
        col += firstVlq(seg);
        asked.push([line, col], [line, col + 1], [line, Math.max(0, col - 1)]);
      }
      asked.push([line, 100_000]);
    });
    const random = mulberry32(32);
    for (let i = 0; i < 20_000; i++)
      asked.push([Math.floor(random() * ours.lineCount), Math.floor(random() * 200)]);
    let mapped = 0;
    for (const [line, column] of asked) {
      const want = nodeAnswer(theirs, line, column);
      expect(ours.find(line, column), `at ${line}:${column}`).toEqual(want);
      if (want) mapped++;
    }
    expect(mapped).toBeGreaterThan(asked.length / 2);
  });

  it('holds a small part of what SourceMap holds for the same map', () => {
    setFlagsFromString('--expose-gc');
    const gc = runInNewContext('gc') as () => void;
    const heldBy = (make: () => unknown): number => {
      gc();
      const used = () => process.memoryUsage().heapUsed + process.memoryUsage().arrayBuffers;
      const before = used();
      const kept = make();
      gc();
      const held = used() - before;
      expect(kept).toBeTruthy();
      return held;
    };
    // Each made from a text parsed afresh, so that what it keeps of the payload is counted.
    const ours = heldBy(() => LineMap.from(JSON.parse(text) as SourceMapPayload));
    const theirs = heldBy(() => new SourceMap(JSON.parse(text) as NodePayload));
    // The mappings text itself (one byte a character) and 16 bytes a generated line.
    expect(ours).toBeLessThan(
      payload.mappings.length + 16 * payload.mappings.split(';').length + 1024 * 1024,
    );
    expect(theirs).toBeGreaterThan(ours * 5);
  });

  it('refuses a map whose mappings are not base64 VLQ', () => {
    expect(() => LineMap.from({ mappings: 'AAAA;!!', sources: ['a.ts'] })).toThrow(/base64/);
  });
});

/** The first field of a segment (its generated column, relative to the segment before it on its line). */
function firstVlq(segment: string): number {
  const B64 = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/';
  let value = 0;
  let shift = 0;
  for (const c of segment) {
    const d = B64.indexOf(c);
    value += (d & 31) * 2 ** shift;
    shift += 5;
    if (!(d & 32)) break;
  }
  return value % 2 ? -(value - 1) / 2 : value / 2;
}
