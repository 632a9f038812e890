/**
 * What grew between two V8 heap snapshots: self sizes and counts grouped by constructor (objects), function name
 * (closures) or node type (strings, arrays, code, …), the groups that grew most first.
 * Run: `node bin/run-ts.js bench/soak/heap-diff.ts before.heapsnapshot after.heapsnapshot [rows]`.
 *
 * A snapshot is JSON, but one of a server can pass the longest string V8 will make, so the `nodes` array is read
 * number by number from the file's bytes and only the `strings` array is parsed as JSON.
 */
import { readFileSync } from 'node:fs';

interface Group {
  count: number;
  size: number;
}

/** The index of `needle` in `buf` from `from`, or throws. */
function find(buf: Buffer, needle: string, from = 0): number {
  const i = buf.indexOf(needle, from, 'latin1');
  if (i < 0) throw new Error(`no ${needle} in the snapshot`);
  return i;
}

/** Self size and count of each group of one snapshot. */
export function groups(file: string): Map<string, Group> {
  const buf = readFileSync(file);
  const metaStart = find(buf, '"meta":');
  // `"meta":{…},"node_count":…`: the object up to the comma before `"node_count"`.
  const meta = JSON.parse(
    buf.toString('utf8', metaStart + 7, buf.lastIndexOf(',', find(buf, '"node_count"'))),
  ) as { node_fields: string[]; node_types: [string[], ...unknown[]] };
  const width = meta.node_fields.length;
  const fType = meta.node_fields.indexOf('type');
  const fName = meta.node_fields.indexOf('name');
  const fSize = meta.node_fields.indexOf('self_size');
  const types = meta.node_types[0];

  // The strings: from `"strings":[` to the array's end (the last `]` of the file).
  const sStart = find(buf, '"strings":') + 10;
  const strings = JSON.parse(buf.toString('utf8', sStart, buf.lastIndexOf(']') + 1)) as string[];

  const out = new Map<string, Group>();
  let field = 0;
  let num = 0;
  let inNum = false;
  const row: number[] = new Array<number>(width).fill(0);
  const end = find(buf, ']', find(buf, '"nodes":['));
  for (let i = find(buf, '"nodes":[') + 9; i <= end; i++) {
    const c = buf[i] as number;
    if (c >= 48 && c <= 57) {
      num = num * 10 + (c - 48);
      inNum = true;
      continue;
    }
    if (!inNum) continue;
    row[field] = num;
    num = 0;
    inNum = false;
    if (++field < width) continue;
    field = 0;
    const type = types[row[fType] as number] ?? '?';
    const name = strings[row[fName] as number] ?? '?';
    const key =
      type === 'object' || type === 'closure' || type === 'native'
        ? `${type} ${name.length > 60 ? `${name.slice(0, 60)}…` : name}`
        : `(${type})`;
    const g = out.get(key) ?? { count: 0, size: 0 };
    g.count++;
    g.size += row[fSize] as number;
    out.set(key, g);
  }
  return out;
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const [a, b, rows = '30'] = process.argv.slice(2);
  if (!a || !b) {
    console.error('usage: heap-diff.ts before.heapsnapshot after.heapsnapshot [rows]');
    process.exit(2);
  }
  const before = groups(a);
  const after = groups(b);
  const total = (m: Map<string, Group>) => [...m.values()].reduce((s, g) => s + g.size, 0);
  const keys = new Set([...before.keys(), ...after.keys()]);
  const diff = [...keys]
    .map((k) => {
      const x = before.get(k) ?? { count: 0, size: 0 };
      const y = after.get(k) ?? { count: 0, size: 0 };
      return { k, x, y, d: y.size - x.size };
    })
    .sort((p, q) => q.d - p.d);
  const mb = (n: number) => (n / 2 ** 20).toFixed(2);
  console.log(`total self size: ${mb(total(before))} MB → ${mb(total(after))} MB`);
  console.log('   Δ MB   before MB (count)        after MB (count)       group');
  for (const { k, x, y, d } of diff.slice(0, Number(rows)))
    console.log(
      `${mb(d).padStart(7)}  ${`${mb(x.size)} (${x.count})`.padEnd(22)} ${`${mb(y.size)} (${y.count})`.padEnd(22)} ${k}`,
    );
  console.log('largest groups after:');
  for (const [k, g] of [...after.entries()].sort((p, q) => q[1].size - p[1].size).slice(0, 15))
    console.log(`${mb(g.size).padStart(8)} MB ${String(g.count).padStart(9)}  ${k}`);
}
