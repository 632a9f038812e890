/**
 * The project files one GraphQL request runs through (docs/architecture.md, "The router", Measured): the product
 * started in this process (`startProduct`, embedded, demo data of 3 days), a key made by the operator's route, then a
 * keyed `{ coin(id: "bitcoin") { id name price } }` POSTed over loopback HTTP. V8's precise coverage (call counts)
 * is reset after a warm-up of the same request; the files with a function called during one more request are
 * counted, by folder. What timers run (usage flushes, the heap governor, key revisions) would count too when one
 * fires during the request: the files are those called in each of {@link SAMPLES} requests measured apart.
 * `node bin/run-ts.js bench/graph/files-crossed.ts [--list]`.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { Session } from 'node:inspector/promises';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { loadConfig } from '../../src/config.ts';
import { startProduct } from '../../src/start/product.ts';

const ADMIN_TOKEN = 'cwa_files-crossed-operator-0123456789';
const QUERY = '{ coin(id: "bitcoin") { id name price } }';
const WARM_UP = 200;
const SAMPLES = 5;
const ROOT = fileURLToPath(new URL('../..', import.meta.url));

const dir = await mkdtemp(join(tmpdir(), 'cw-files-'));
const product = await startProduct(
  loadConfig({
    PORT: '0',
    HOST: '127.0.0.1',
    DATA_DIR: dir,
    DEMO_DAYS: '3',
    LOG_LEVEL: 'silent',
    SHED_LAG_MS: '0',
    ADMIN_TOKEN,
  }),
  {},
);
try {
  await product.ready;
  const made = await fetch(`${product.url}/api/admin/api-keys`, {
    method: 'POST',
    headers: { authorization: `Bearer ${ADMIN_TOKEN}`, 'content-type': 'application/json' },
    body: JSON.stringify({ plan: 'pro', description: 'files crossed', approve: true }),
  });
  const { key } = (await made.json()) as { key: string };
  const ask = async () => {
    const r = await fetch(`${product.url}/graphql`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-sp-api-key': key },
      body: JSON.stringify({ query: QUERY }),
    });
    const body = (await r.json()) as { data?: { coin?: { id: string } } };
    if (r.status !== 200 || body.data?.coin?.id !== 'bitcoin')
      throw new Error(`unexpected answer ${r.status} ${JSON.stringify(body)}`);
  };
  for (let i = 0; i < WARM_UP; i++) await ask();

  const session = new Session();
  session.connect();
  await session.post('Profiler.enable');
  await session.post('Profiler.startPreciseCoverage', { callCount: true, detailed: false });
  /** The project files with a function called during one request. */
  const sample = async (): Promise<Set<string>> => {
    await session.post('Profiler.takePreciseCoverage'); // resets the counts
    await ask();
    const { result } = await session.post('Profiler.takePreciseCoverage');
    const called = new Set<string>();
    for (const script of result) {
      if (!script.url.startsWith('file://')) continue;
      const path = relative(ROOT, fileURLToPath(script.url.split('?')[0] ?? ''));
      if (path.startsWith('..') || path.includes('node_modules') || path.startsWith('bench/')) continue;
      if (script.functions.some((f) => (f.ranges[0]?.count ?? 0) > 0)) called.add(path);
    }
    return called;
  };
  let files = await sample();
  for (let i = 1; i < SAMPLES; i++) {
    await new Promise((resolve) => setTimeout(resolve, 300));
    const next = await sample();
    files = new Set([...files].filter((f) => next.has(f)));
  }
  await session.post('Profiler.stopPreciseCoverage');
  session.disconnect();

  const byFolder = new Map<string, string[]>();
  for (const f of [...files].sort()) {
    const folder = f
      .split('/')
      .slice(0, f.startsWith('src/') || f.startsWith('subgraphs/') ? 2 : 1)
      .join('/');
    byFolder.set(folder, [...(byFolder.get(folder) ?? []), f]);
  }
  console.log(`${files.size} project files ran for one keyed POST of ${QUERY}`);
  for (const [folder, list] of byFolder) console.log(`  ${String(list.length).padStart(3)}  ${folder}`);
  if (process.argv.includes('--list')) for (const f of [...files].sort()) console.log(`       ${f}`);
} finally {
  await product.close();
  await rm(dir, { recursive: true, force: true });
}
