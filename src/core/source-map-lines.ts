/**
 * A source map that answers "where in the sources is this generated position" while holding little more than the
 * map's own `mappings` text and 16 bytes a generated line. `node:module`'s `SourceMap` decodes every segment into an
 * array of its own when it is made: for the build's largest chunk (3 MB of map, 135,000 lines) that is 61 MB of heap
 * and 0.46 s of the event loop, kept for the life of the process after the first stack trace through it (issue 32:
 * in the soak benchmark, 58 MB from a burst to the end of the run; bench/README.md). This one holds 8 MB for that
 * map and reads it in 0.13 s. One pass over the text records, for each generated line, where it starts and the
 * running source, line and column at its start (the fields a segment gives relative to the one before it); a lookup
 * decodes that one line.
 *
 * The answers are `SourceMap.findEntry`'s (the segment at or before the position, on its line or an earlier one;
 * none before the first segment, nor for a segment without a source); `test/core/source-map-lines.test.ts` holds
 * them equal on the build's own maps. Index maps (`sections`) are not read: the build writes none.
 */

/** An original position: the source as the map names it, line and column from 0 (as `findEntry`'s). */
export interface OriginalPosition {
  source: string;
  line: number;
  column: number;
}

/** What a map gives: the fields of the Source Map v3 format this reads. */
export interface SourceMapPayload {
  mappings: string;
  sources: readonly string[];
}

/** Base64 digit → value; -1 elsewhere. */
const DIGITS = new Int8Array(128).fill(-1);
'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/'
  .split('')
  .forEach((c, i) => (DIGITS[c.charCodeAt(0)] = i));
const COMMA = 44;
const SEMICOLON = 59;

/** Decodes the segments of a `mappings` text from one offset, keeping the running fields as it goes. */
class Reader {
  pos: number;
  /** The fields of the last segment read: generated column, source, original line and column (`source` -1: none). */
  col = 0;
  source = 0;
  line = 0;
  column = 0;
  /** Whether the last segment read has a source (a one-field segment has not). */
  mapped = false;

  constructor(
    private readonly text: string,
    at: number,
    source: number,
    line: number,
    column: number,
  ) {
    this.pos = at;
    this.source = source;
    this.line = line;
    this.column = column;
  }

  private vlq(): number {
    let value = 0;
    let shift = 0;
    for (;;) {
      const digit = DIGITS[this.text.charCodeAt(this.pos++)] ?? -1;
      if (digit < 0) throw new Error(`source map: not a base64 digit at ${this.pos - 1}`);
      value += (digit & 31) * 2 ** shift;
      shift += 5;
      if (!(digit & 32)) break;
    }
    return value % 2 ? -(value - 1) / 2 : value / 2;
  }

  private atFieldEnd(): boolean {
    const c = this.text.charCodeAt(this.pos);
    return c === COMMA || c === SEMICOLON || Number.isNaN(c);
  }

  /** Reads the next segment of the current line; false at the line's end (the reader then stands on its `;`). */
  next(): boolean {
    const c = this.text.charCodeAt(this.pos);
    if (c === COMMA) this.pos++;
    else if (c === SEMICOLON || Number.isNaN(c)) return false;
    this.col += this.vlq();
    this.mapped = !this.atFieldEnd();
    if (!this.mapped) return true;
    this.source += this.vlq();
    this.line += this.vlq();
    this.column += this.vlq();
    if (!this.atFieldEnd()) this.vlq(); // the name: not used
    return true;
  }
}

export class LineMap {
  private constructor(
    private readonly mappings: string,
    private readonly sources: readonly string[],
    /** Per generated line: the offset of its first segment, then its running source, line and column at that point. */
    private readonly lines: Int32Array,
  ) {}

  /** Reads `payload`'s mappings once; throws when they are not a valid Source Map v3 `mappings` text. */
  static from(payload: SourceMapPayload): LineMap {
    const text = payload.mappings;
    if (typeof text !== 'string' || !Array.isArray(payload.sources))
      throw new Error('source map: no mappings or sources');
    let count = 1;
    for (let i = 0; i < text.length; i++) if (text.charCodeAt(i) === SEMICOLON) count++;
    const lines = new Int32Array(count * 4);
    const r = new Reader(text, 0, 0, 0, 0);
    for (let l = 0; l < count; l++) {
      lines.set([r.pos, r.source, r.line, r.column], l * 4);
      while (r.next());
      r.pos++; // the `;`
      r.col = 0;
    }
    return new LineMap(text, [...payload.sources], lines);
  }

  /** Generated lines the map describes. */
  get lineCount(): number {
    return this.lines.length / 4;
  }

  /** The original position of generated `line` and `column` (from 0), or null where the map gives none. */
  find(line: number, column: number): OriginalPosition | null {
    if (line < 0) return null;
    let l = Math.min(line, this.lineCount - 1);
    // On the asked line, the last segment at or before the column; on an earlier one, its last segment.
    let limit = l === line ? column : Infinity;
    for (; l >= 0; l--, limit = Infinity) {
      const r = this.reader(l);
      let found: { mapped: boolean; source: number; line: number; column: number } | null = null;
      let best = -1;
      while (r.next()) {
        if (r.col > limit || r.col < best) continue;
        best = r.col;
        found = { mapped: r.mapped, source: r.source, line: r.line, column: r.column };
      }
      if (!found) continue;
      const source = found.mapped ? this.sources[found.source] : undefined;
      return source === undefined ? null : { source, line: found.line, column: found.column };
    }
    return null;
  }

  private reader(l: number): Reader {
    const at = l * 4;
    const v = (i: number) => this.lines[at + i] as number;
    return new Reader(this.mappings, v(0), v(1), v(2), v(3));
  }
}
