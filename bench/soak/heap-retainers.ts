/**
 * What holds the memory of a V8 heap snapshot: the dominator tree (what each object alone keeps alive, its retained
 * size), printed from the root down to the objects that keep more than a threshold, each named by its constructor
 * (or function, or node type) and the edge it is reached by. Given two snapshots, it prints the retained size of the
 * same paths in both. `heap-diff.ts` tells which kinds of objects grew; this tells who keeps them.
 * Run: `node --max-old-space-size=8000 bin/run-ts.js bench/soak/heap-retainers.ts a.heapsnapshot [b.heapsnapshot …]
 * [--min=MB] [--depth=N]` (a soak's snapshot of 300 MB takes a minute and a few GB). Paths reached through no edge of
 * their dominator (` ~`: several retainers) and of one name are told apart by rank, which may differ between
 * snapshots: read those rows by their sizes.
 *
 * Weak edges do not retain (as in Chromium's DevTools); the dominators are Cooper, Harvey and Kennedy's iterative
 * algorithm over the graph's reverse postorder, in typed arrays (a server's snapshot has millions of nodes).
 */
import { readFileSync } from 'node:fs';

/** The graph of a snapshot, by node index: names, self sizes and the edges out of each node (strong or weak). */
interface Snapshot {
  label: (n: number) => string;
  self: Float64Array;
  firstEdge: Uint32Array;
  edgeTo: Uint32Array;
  edgeName: (e: number) => string;
  edgeWeak: Uint8Array;
  count: number;
}

/** Numbers of the JSON array that starts after `key` in `buf`, read byte by byte (the arrays hold tens of millions). */
function numbers(buf: Buffer, key: string, expected: number): Float64Array {
  const start = buf.indexOf(key, 0, 'latin1');
  if (start < 0) throw new Error(`no ${key} in the snapshot`);
  const out = new Float64Array(expected);
  let n = 0;
  let num = 0;
  let inNum = false;
  for (let i = start + key.length; n < expected; i++) {
    const c = buf[i] as number;
    if (c >= 48 && c <= 57) {
      num = num * 10 + (c - 48);
      inNum = true;
    } else if (inNum) {
      out[n++] = num;
      num = 0;
      inNum = false;
    }
  }
  return out;
}

function read(file: string): Snapshot {
  const buf = readFileSync(file);
  const head = JSON.parse(
    `${buf.toString('utf8', 0, buf.indexOf('"nodes":', 0, 'latin1')).replace(/,\s*$/, '')}}`,
  ) as {
    snapshot: {
      meta: {
        node_fields: string[];
        node_types: [string[]];
        edge_fields: string[];
        edge_types: [string[]];
      };
      node_count: number;
      edge_count: number;
    };
  };
  const { meta, node_count: count, edge_count: edges } = head.snapshot;
  const nw = meta.node_fields.length;
  const ew = meta.edge_fields.length;
  const nodes = numbers(buf, '"nodes":', count * nw);
  const edgeData = numbers(buf, '"edges":', edges * ew);
  const sStart = buf.indexOf('"strings":', 0, 'latin1') + 10;
  const names = JSON.parse(buf.toString('utf8', sStart, buf.lastIndexOf(']') + 1)) as string[];

  const fType = meta.node_fields.indexOf('type');
  const fName = meta.node_fields.indexOf('name');
  const fSize = meta.node_fields.indexOf('self_size');
  const fEdges = meta.node_fields.indexOf('edge_count');
  const eType = meta.edge_fields.indexOf('type');
  const eName = meta.edge_fields.indexOf('name_or_index');
  const eTo = meta.edge_fields.indexOf('to_node');
  const nodeTypes = meta.node_types[0];
  const edgeTypes = meta.edge_types[0];

  const self = new Float64Array(count);
  const firstEdge = new Uint32Array(count + 1);
  for (let n = 0, e = 0; n < count; n++) {
    self[n] = nodes[n * nw + fSize] as number;
    firstEdge[n] = e;
    e += nodes[n * nw + fEdges] as number;
    firstEdge[n + 1] = e;
  }
  const edgeTo = new Uint32Array(edges);
  const edgeWeak = new Uint8Array(edges);
  for (let e = 0; e < edges; e++) {
    edgeTo[e] = (edgeData[e * ew + eTo] as number) / nw;
    edgeWeak[e] = edgeTypes[edgeData[e * ew + eType] as number] === 'weak' ? 1 : 0;
  }
  const label = (n: number) => {
    const type = nodeTypes[nodes[n * nw + fType] as number] ?? '?';
    const name = names[nodes[n * nw + fName] as number] ?? '?';
    const short = name.length > 50 ? `${name.slice(0, 50)}…` : name;
    if (type !== 'object' && type !== 'closure' && type !== 'native') return `(${type})`;
    if (name !== 'Object') return short;
    // A plain object is told by its first properties (`Object{lookup,store,stats}`).
    const props: string[] = [];
    for (let e = firstEdge[n] as number; e < (firstEdge[n + 1] as number) && props.length < 3; e++)
      if (edgeTypes[edgeData[e * ew + eType] as number] === 'property')
        props.push(names[edgeData[e * ew + eName] as number] ?? '?');
    return `Object{${props.join(',')}}`;
  };
  const edgeName = (e: number) => {
    const type = edgeTypes[edgeData[e * ew + eType] as number];
    const v = edgeData[e * ew + eName] as number;
    return type === 'element' || type === 'hidden' ? `[${v}]` : `.${names[v] ?? '?'}`;
  };
  return { label, self, firstEdge, edgeTo, edgeName, edgeWeak, count };
}

/** Immediate dominators and retained sizes (node 0 is the root). */
function dominators(s: Snapshot): { idom: Int32Array; retained: Float64Array } {
  const { count, firstEdge, edgeTo, edgeWeak } = s;
  // Postorder by an iterative depth-first walk over the strong edges.
  const order = new Int32Array(count).fill(-1); // postorder number
  const post: number[] = [];
  const stack = new Int32Array(count);
  const next = new Uint32Array(count);
  const seen = new Uint8Array(count);
  let sp = 0;
  stack[sp++] = 0;
  seen[0] = 1;
  next[0] = firstEdge[0] as number;
  while (sp > 0) {
    const n = stack[sp - 1] as number;
    const e = next[n] as number;
    if (e < (firstEdge[n + 1] as number)) {
      next[n] = e + 1;
      const t = edgeTo[e] as number;
      if (!edgeWeak[e] && !seen[t]) {
        seen[t] = 1;
        next[t] = firstEdge[t] as number;
        stack[sp++] = t;
      }
    } else {
      order[n] = post.length;
      post.push(n);
      sp--;
    }
  }
  // Predecessors (strong edges between reachable nodes), compressed rows.
  const predCount = new Uint32Array(count + 1);
  for (let n = 0; n < count; n++) {
    if (!seen[n]) continue;
    for (let e = firstEdge[n] as number; e < (firstEdge[n + 1] as number); e++)
      if (!edgeWeak[e]) predCount[(edgeTo[e] as number) + 1]!++;
  }
  for (let n = 0; n < count; n++) predCount[n + 1]! += predCount[n] as number;
  const preds = new Uint32Array(predCount[count] as number);
  const fill = predCount.slice(0, count);
  for (let n = 0; n < count; n++) {
    if (!seen[n]) continue;
    for (let e = firstEdge[n] as number; e < (firstEdge[n + 1] as number); e++)
      if (!edgeWeak[e]) preds[fill[edgeTo[e] as number]!++] = n;
  }
  const idom = new Int32Array(count).fill(-1);
  idom[0] = 0;
  const intersect = (a: number, b: number) => {
    while (a !== b) {
      while ((order[a] as number) < (order[b] as number)) a = idom[a] as number;
      while ((order[b] as number) < (order[a] as number)) b = idom[b] as number;
    }
    return a;
  };
  for (let changed = true; changed;) {
    changed = false;
    for (let i = post.length - 2; i >= 0; i--) {
      const n = post[i] as number;
      let d = -1;
      for (let p = predCount[n] as number; p < (predCount[n + 1] as number); p++) {
        const q = preds[p] as number;
        if (idom[q] === -1) continue;
        d = d === -1 ? q : intersect(q, d);
      }
      if (d !== idom[n]) {
        idom[n] = d;
        changed = true;
      }
    }
  }
  const retained = new Float64Array(count);
  for (const n of post) {
    retained[n]! += s.self[n] as number;
    if (n !== 0) retained[idom[n] as number]! += retained[n] as number;
  }
  return { idom, retained };
}

interface Row {
  path: string;
  depth: number;
  retained: number;
}

/** The dominator tree from the root down to nodes retaining at least `min` bytes, as named paths. */
function tree(file: string, min: number, maxDepth: number): Row[] {
  const s = read(file);
  const { idom, retained } = dominators(s);
  // The dominator tree's children of each node, compressed rows.
  const first = new Uint32Array(s.count + 1);
  for (let n = 1; n < s.count; n++) if ((idom[n] as number) >= 0) first[(idom[n] as number) + 1]!++;
  for (let n = 0; n < s.count; n++) first[n + 1]! += first[n] as number;
  const kids = new Uint32Array(first[s.count] as number);
  const at = first.slice(0, s.count);
  for (let n = 1; n < s.count; n++) if ((idom[n] as number) >= 0) kids[at[idom[n] as number]!++] = n;
  /** How `d` reaches `n`: the edge's name when there is a direct one. */
  const via = (d: number, n: number) => {
    for (let e = s.firstEdge[d] as number; e < (s.firstEdge[d + 1] as number); e++)
      if (s.edgeTo[e] === n) return s.edgeName(e);
    return ' ~';
  };
  const rows: Row[] = [];
  const walk = (n: number, path: string, depth: number) => {
    rows.push({ path, depth, retained: retained[n] as number });
    if (depth >= maxDepth) return;
    // The elements of a collection (an array's items, a table's slots) are one row: their count and sum.
    const groups = new Map<string, { size: number; count: number; nodes: number[] }>();
    for (let i = first[n] as number; i < (first[n + 1] as number); i++) {
      const k = kids[i] as number;
      const edge = via(n, k);
      const element = /^\[\d+\]$|^\.\d+$/.test(edge);
      const step = `${element ? '[]' : edge} ${s.label(k)}`;
      const g = groups.get(step) ?? { size: 0, count: 0, nodes: [] };
      g.size += retained[k] as number;
      g.count++;
      if (!element || g.nodes.length === 0) g.nodes.push(k);
      groups.set(step, g);
    }
    const sorted = [...groups.entries()].sort((a, b) => b[1].size - a[1].size);
    for (const [step, g] of sorted) {
      if (g.size < min) continue;
      if (step.startsWith('[]')) {
        if (g.count === 1) walk(g.nodes[0] as number, `${path} ›${step}`, depth + 1);
        else rows.push({ path: `${path} ›${step} ×${g.count}`, depth: depth + 1, retained: g.size });
        continue;
      }
      // Siblings of one name are told apart by their rank, so that the same path in two snapshots is one row.
      g.nodes.forEach((k, i) => {
        if ((retained[k] as number) >= min) walk(k, `${path} ›${step}${i ? ` #${i}` : ''}`, depth + 1);
      });
    }
  };
  walk(0, '(root)', 0);
  return rows;
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const args = process.argv.slice(2);
  const opt = (name: string, def: number) =>
    Number(args.find((a) => a.startsWith(`--${name}=`))?.split('=')[1] ?? def);
  const files = args.filter((a) => !a.startsWith('--'));
  const min = opt('min', 1) * 2 ** 20;
  const depth = opt('depth', 14);
  if (files.length === 0) {
    console.error('usage: heap-retainers.ts a.heapsnapshot [b.heapsnapshot] [--min=MB] [--depth=N]');
    process.exit(2);
  }
  const mb = (n: number | undefined) => (n === undefined ? '-' : (n / 2 ** 20).toFixed(1));
  const trees = files.map((f) => tree(f, min, depth));
  const byPath = trees.map((t) => new Map(t.map((r) => [r.path, r.retained])));
  // One tree of the paths of all snapshots, each parent followed by its children, the largest (in any) first.
  const kids = new Map<string, string[]>();
  for (const p of new Set(trees.flatMap((t) => t.map((r) => r.path)))) {
    const parent = p.slice(0, Math.max(0, p.lastIndexOf(' ›')));
    kids.set(parent, [...(kids.get(parent) ?? []), p]);
  }
  const most = (p: string) => Math.max(...byPath.map((m) => m.get(p) ?? 0));
  console.log(`retained MB (${files.join(' | ')}), paths retaining ≥ ${mb(min)} MB in either`);
  const print = (p: string, d: number) => {
    const cols = byPath.map((m) => mb(m.get(p)).padStart(8)).join('');
    console.log(`${cols}  ${'  '.repeat(d)}${d === 0 ? p : p.slice(p.lastIndexOf(' ›') + 2)}`);
    for (const k of (kids.get(p) ?? []).sort((a, b) => most(b) - most(a))) print(k, d + 1);
  };
  print('(root)', 0);
}
